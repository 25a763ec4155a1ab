// C = A B (A m x k, B k x n, row-major floats; m, n and k multiples of TILE), the textbook
// shared-memory tiled matmul: blocks of TILE x TILE threads, each thread one output, TILE-deep slices
// of A and B staged in shared memory, each output a chain of a * b then + (two roundings, --fmad=false)
// in k order. --nvcc-opt -DTILE=8, 16 or 32 (blocks of 64, 256 or 1,024 threads; launch with --grid
// n/TILE,m/TILE) is the one thing the runs vary: a bigger tile reuses each global load more (TILE
// times) and issues fewer barriers per k, at the price of fewer, larger blocks.
#ifndef TILE
#define TILE 16
#endif
extern "C" __global__ void tiled_matmul(const float* A, const float* B, float* C, unsigned m, unsigned n, unsigned k) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (unsigned kt = 0; kt < k; kt += TILE) {
    As[ty][tx] = A[row * k + kt + tx];
    Bs[ty][tx] = B[(kt + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < TILE; ++kk) acc += As[ty][kk] * Bs[kk][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
