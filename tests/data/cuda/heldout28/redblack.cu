// The red half-sweep of red-black Gauss-Seidel for the 2D Poisson equation on an n x n grid, in place:
// every interior point (x, y) with x + y even becomes 0.25 (uN + uS + uW + uE - h2 f), reading only
// black points (so the result is independent of order). --nvcc-opt -DCOMPACT, the one thing the runs
// vary (with the grid size):
//   0: a thread per point, blocks of 32 x 8; black and boundary points return at once (half of every
//      warp idle, red loads and stores at a stride of 2 words);
//   1: a thread per red point, blocks of 32 x 8 over an (n / 2) x n grid: x = 2 tx + (y & 1).
#ifndef COMPACT
#define COMPACT 0
#endif
extern "C" __global__ void redblack(float* u, const float* f, unsigned n, float h2) {
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
#if COMPACT
  unsigned x = 2u * (blockIdx.x * blockDim.x + threadIdx.x) + (y & 1u);
#else
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if ((x + y) & 1u) return;
#endif
  if (x == 0 || y == 0 || x >= n - 1 || y >= n - 1) return;
  unsigned i = y * n + x;
  float s = u[i - n] + u[i + n];
  s = s + u[i - 1];
  s = s + u[i + 1];
  u[i] = 0.25f * (s - h2 * f[i]);
}
