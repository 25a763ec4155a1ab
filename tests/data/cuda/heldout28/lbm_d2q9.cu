// One lattice-Boltzmann D2Q9 step (BGK collision, omega 1.25, periodic edges) on a width x height
// lattice (powers of 2), the nine populations stored as nine planes (SoA), out of place, a thread per
// cell (blocks of 32 x 8): rho, ux, uy from the nine populations, feq_i = w_i rho (1 + 3 cu + 4.5 cu^2
// - 1.5 u^2), f'_i = f_i - omega (f_i - feq_i). Directions c = (0,0) (1,0) (0,1) (-1,0) (0,-1) (1,1)
// (-1,1) (-1,-1) (1,-1). --nvcc-opt -DPUSH (with the lattice size) is what the runs vary:
//   0: pull (stream, then collide): population i read from the neighbour at -c_i (misaligned
//      loads), written in place (aligned stores);
//   1: push (collide, then stream): read in place, written to the neighbour at +c_i (misaligned
//      stores). The same loads, arithmetic and stores a cell; the lattices differ by a stream.
#ifndef PUSH
#define PUSH 0
#endif
__device__ __forceinline__ float relax(float f, float w, float rho, float cu, float usq) {
  float feq = w * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - usq);
  return f - 1.25f * (f - feq);
}
extern "C" __global__ void lbm_d2q9(const float* fin, float* fout, unsigned width, unsigned height) {
  unsigned x = blockIdx.x * 32 + threadIdx.x;
  unsigned y = blockIdx.y * 8 + threadIdx.y;
  unsigned n = width * height;
  unsigned wm = width - 1u, hm = height - 1u;
  unsigned xp = (x + 1u) & wm, xm = (x + wm) & wm, yp = (y + 1u) & hm, ym = (y + hm) & hm;
  unsigned c = y * width + x;
#if PUSH
  float f0 = fin[c], f1 = fin[n + c], f2 = fin[2 * n + c], f3 = fin[3 * n + c], f4 = fin[4 * n + c];
  float f5 = fin[5 * n + c], f6 = fin[6 * n + c], f7 = fin[7 * n + c], f8 = fin[8 * n + c];
#else
  float f0 = fin[c];
  float f1 = fin[n + y * width + xm];
  float f2 = fin[2 * n + ym * width + x];
  float f3 = fin[3 * n + y * width + xp];
  float f4 = fin[4 * n + yp * width + x];
  float f5 = fin[5 * n + ym * width + xm];
  float f6 = fin[6 * n + ym * width + xp];
  float f7 = fin[7 * n + yp * width + xp];
  float f8 = fin[8 * n + yp * width + xm];
#endif
  float rho = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8;
  float ux = ((f1 - f3) + (f5 - f6) + (f8 - f7)) / rho;
  float uy = ((f2 - f4) + (f5 - f8) + (f6 - f7)) / rho;
  float usq = 1.5f * (ux * ux + uy * uy);
  float g0 = relax(f0, 0.44444445f, rho, 0.0f, usq);
  float g1 = relax(f1, 0.11111111f, rho, ux, usq);
  float g2 = relax(f2, 0.11111111f, rho, uy, usq);
  float g3 = relax(f3, 0.11111111f, rho, -ux, usq);
  float g4 = relax(f4, 0.11111111f, rho, -uy, usq);
  float g5 = relax(f5, 0.027777778f, rho, ux + uy, usq);
  float g6 = relax(f6, 0.027777778f, rho, uy - ux, usq);
  float g7 = relax(f7, 0.027777778f, rho, -(ux + uy), usq);
  float g8 = relax(f8, 0.027777778f, rho, ux - uy, usq);
#if PUSH
  fout[c] = g0;
  fout[n + y * width + xp] = g1;
  fout[2 * n + yp * width + x] = g2;
  fout[3 * n + y * width + xm] = g3;
  fout[4 * n + ym * width + x] = g4;
  fout[5 * n + yp * width + xp] = g5;
  fout[6 * n + yp * width + xm] = g6;
  fout[7 * n + ym * width + xm] = g7;
  fout[8 * n + ym * width + xp] = g8;
#else
  fout[c] = g0; fout[n + c] = g1; fout[2 * n + c] = g2; fout[3 * n + c] = g3; fout[4 * n + c] = g4;
  fout[5 * n + c] = g5; fout[6 * n + c] = g6; fout[7 * n + c] = g7; fout[8 * n + c] = g8;
#endif
}
