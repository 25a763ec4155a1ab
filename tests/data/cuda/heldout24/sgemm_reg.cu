// SGEMM C = A B (A m x k, B k x n, row-major; m and n multiples of 16 * MT, k of 16), register-tiled:
// blocks of 16 x 16 threads, each thread computing an MT x MT micro-tile of C (--nvcc-opt -DMT=4 or 2:
// a 64 x 64 or 32 x 32 block tile) from 16-deep slices of A and B staged in shared memory (A stored
// transposed and padded a column). Per k step a thread reads MT values of A and MT of B from shared
// memory (broadcasts within half-warps) and issues MT * MT fmaf: 16 FFMA per 8 shared loads at MT=4,
// 4 per 4 at MT=2. fmaf is written out because warpsim's NVRTC options say --fmad=false.
#ifndef MT
#define MT 4
#endif
#define BK 16
#define TILE (16 * MT)
extern "C" __global__ void sgemm_reg(const float* A, const float* B, float* C, unsigned m, unsigned n, unsigned k) {
  __shared__ float As[BK][TILE + 1];
  __shared__ float Bs[BK][TILE];
  unsigned tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
  unsigned row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
  float c[MT][MT];
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int j = 0; j < MT; ++j) c[i][j] = 0.0f;
  for (unsigned kt = 0; kt < k; kt += BK) {
#pragma unroll
    for (int l = 0; l < MT; ++l) {
      unsigned e = t + 256 * l;
      unsigned am = e / BK, ak = e % BK;
      As[ak][am] = A[(row0 + am) * k + kt + ak];
      unsigned bk = e / TILE, bn = e % TILE;
      Bs[bk][bn] = B[(kt + bk) * n + col0 + bn];
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[MT], b[MT];
#pragma unroll
      for (int i = 0; i < MT; ++i) a[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < MT; ++j) b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < MT; ++j) c[i][j] = fmaf(a[i], b[j], c[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int j = 0; j < MT; ++j) C[(row0 + ty + 16 * i) * n + col0 + tx + 16 * j] = c[i][j];
}
