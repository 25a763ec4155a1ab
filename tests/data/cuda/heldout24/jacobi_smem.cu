// The Jacobi sweep of jacobi_global.cu (2D Poisson, 5-point) through a shared tile: each block of
// BX x BY threads (--nvcc-opt -DBY=8 or 16; launch with --block 32,BY) stages its BX x BY points plus
// a one-point halo on each side (loaded by the edge threads: divergent branches of one or a few lanes)
// in a (BY + 2) x (BX + 2) tile, then every thread reads its four neighbours from shared memory. The
// same arithmetic in the same order as jacobi_global.cu, so both give identical bits.
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif
extern "C" __global__ void jacobi_smem(const float* u, const float* f, float* unew, unsigned nx, unsigned ny,
                                       float h2) {
  __shared__ float tile[BY + 2][BX + 2];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned x = blockIdx.x * BX + tx;
  unsigned y = blockIdx.y * BY + ty;
  bool inside = x < nx && y < ny;
  unsigned i = y * nx + x;
  if (inside) {
    tile[ty + 1][tx + 1] = u[i];
    if (tx == 0 && x > 0) tile[ty + 1][0] = u[i - 1];
    if (tx == BX - 1 && x + 1 < nx) tile[ty + 1][BX + 1] = u[i + 1];
    if (ty == 0 && y > 0) tile[0][tx + 1] = u[i - nx];
    if (ty == BY - 1 && y + 1 < ny) tile[BY + 1][tx + 1] = u[i + nx];
  }
  __syncthreads();
  if (inside) {
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
      unew[i] = tile[ty + 1][tx + 1];
    } else {
      unew[i] = 0.25f * (tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] + tile[ty + 2][tx + 1] - h2 * f[i]);
    }
  }
}
