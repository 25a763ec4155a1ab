// One 7-point Jacobi step on an nx x ny x nz float grid (x fastest): every interior point becomes
// c0 u + c1 (((((uW + uE) + uS) + uN) + uB) + uT); boundary points are left as they were in out.
// --nvcc-opt -DMARCH (with the grid size) is what the runs vary:
//   0: a thread per point, 3D blocks of 32 x 4 x 2 (each plane read from global memory through L1/L2);
//   1: a thread per (x, y) column, 2D blocks of 32 x 8 marching up z, the column's below / centre /
//      above values carried in registers (one new load of the column a step, 4 side loads).
#ifndef MARCH
#define MARCH 0
#endif
extern "C" __global__ void stencil3d(const float* in, float* out, unsigned nx, unsigned ny, unsigned nz,
                                     float c0, float c1) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x == 0 || y == 0 || x >= nx - 1 || y >= ny - 1) return;
  unsigned sxy = nx * ny;
#if MARCH
  unsigned i = sxy + y * nx + x;
  float below = in[i - sxy], centre = in[i];
  for (unsigned z = 1; z < nz - 1; ++z, i += sxy) {
    float above = in[i + sxy];
    float s = in[i - 1] + in[i + 1];
    s = s + in[i - nx];
    s = s + in[i + nx];
    s = s + below;
    s = s + above;
    out[i] = c0 * centre + c1 * s;
    below = centre;
    centre = above;
  }
#else
  unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
  if (z == 0 || z >= nz - 1) return;
  unsigned i = z * sxy + y * nx + x;
  float s = in[i - 1] + in[i + 1];
  s = s + in[i - nx];
  s = s + in[i + nx];
  s = s + in[i - sxy];
  s = s + in[i + sxy];
  out[i] = c0 * in[i] + c1 * s;
#endif
}
