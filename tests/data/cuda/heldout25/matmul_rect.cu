// C = A B (A m x k, B k x n, row-major; m a multiple of 8 RM, n and k of 32), tiled with a
// rectangular tile: blocks of 32 x 8 threads compute an (8 RM) x 32 tile of C from 32-deep slices of
// A ((8 RM) x 32) and B (32 x 32) staged in shared memory; each thread keeps RM outputs of one column
// (rows ty * RM .. ty * RM + RM - 1) in registers (--nvcc-opt -DRM=1, 2 or 4; launch with --grid
// n/32,m/(8 RM)). Per k step a thread reads one B value (a row of the slice across the warp) and RM
// broadcast A values, and issues RM fmaf: 2 shared loads per FMA at RM=1, 1.25 at RM=4. Each output
// is one fmaf chain in k order.
#ifndef RM
#define RM 1
#endif
#define BK 32
#define BM (8 * RM)
extern "C" __global__ void matmul_rect(const float* A, const float* B, float* C, unsigned m, unsigned n, unsigned k) {
  __shared__ float As[BM][BK + 1];
  __shared__ float Bs[BK][32];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row0 = blockIdx.y * BM, col = blockIdx.x * 32 + tx;
  float acc[RM];
#pragma unroll
  for (int r = 0; r < RM; ++r) acc[r] = 0.0f;
  for (unsigned kt = 0; kt < k; kt += BK) {
#pragma unroll
    for (int r = 0; r < RM; ++r) As[ty * RM + r][tx] = A[(row0 + ty * RM + r) * k + kt + tx];
#pragma unroll
    for (int l = 0; l < BK / 8; ++l) Bs[ty + 8 * l][tx] = B[(kt + ty + 8 * l) * n + col];
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float b = Bs[kk][tx];
#pragma unroll
      for (int r = 0; r < RM; ++r) acc[r] = fmaf(As[ty * RM + r][kk], b, acc[r]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < RM; ++r) C[(row0 + ty * RM + r) * n + col] = acc[r];
}
