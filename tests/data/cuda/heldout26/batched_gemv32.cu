// A batch of small dense products y_m = A_m x_m, A_m 32x32 (row-major, 4 KiB each), one warp per
// matrix, 4 matrices per block of 128 threads: the warp stages A_m in a shared tile with coalesced
// loads (lane c writes column c of each row), x_m beside it, and then lane r computes row r of y_m as
// a dot product read along the tile's row r. With --nvcc-opt -DLAYOUT=0 the tile is 32x32: at every
// step the 32 lanes read one column, 32 words a bank apart (a 32-way bank conflict); LAYOUT=1 pads the
// rows to 33 words (conflict-free); LAYOUT=2 keeps 32x32 and XOR-swizzles the column by the row
// (tile[r][c ^ r], conflict-free without padding). The same loads, stores and arithmetic in every run.
#ifndef LAYOUT
#define LAYOUT 0
#endif
#if LAYOUT == 1
#define PITCH 33
#else
#define PITCH 32
#endif
#if LAYOUT == 2
#define COL(r, c) ((c) ^ (r))
#else
#define COL(r, c) (c)
#endif
extern "C" __global__ void batched_gemv32(const float* A, const float* x, float* y, unsigned batch) {
  __shared__ float tile[4][32 * PITCH];
  __shared__ float xs[4][32];
  unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned m = blockIdx.x * 4 + warp;
  if (m >= batch) return;
  const float* a = A + (unsigned long long)m * 1024;
  float* t = tile[warp];
  for (unsigned r = 0; r < 32; ++r) t[r * PITCH + COL(r, lane)] = a[r * 32 + lane];
  xs[warp][lane] = x[m * 32 + lane];
  __syncwarp();
  float acc = 0.0f;
#pragma unroll 8
  for (unsigned kk = 0; kk < 32; ++kk) acc += t[lane * PITCH + COL(lane, kk)] * xs[warp][kk];
  y[m * 32 + lane] = acc;
}
