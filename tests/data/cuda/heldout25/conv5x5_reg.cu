// A 5x5 convolution (correlation, zero outside the image) from a shared tile, register-blocked:
// blocks of 32 x 8 threads stage a (32 + 4) x (8 RY + 4) tile with its two-pixel halo, and each thread
// computes RY vertically adjacent outputs (--nvcc-opt -DRY=1, 2 or 4; launch with --grid
// width/32,height/(8 RY)). The loops are unrolled: each thread reads each of its RY + 4 tile rows once
// (5 shared loads into registers, reused by every output that needs that row), so the shared loads
// per output fall from 25 (RY=1) to 15 (RY=2) and 10 (RY=4) for the same 25 fmaf. The 25 weights are
// loaded once per thread into registers. fmaf is written out (warpsim's NVRTC options say
// --fmad=false); each output sums its taps in row-major order.
#ifndef RY
#define RY 1
#endif
#define TW 32
#define TH (8 * RY)
extern "C" __global__ void conv5x5_reg(const float* in, const float* filter, float* out, int width, int height) {
  __shared__ float tile[TH + 4][TW + 4];
  int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
  int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
  for (int j = t; j < (TH + 4) * (TW + 4); j += 256) {
    int ly = j / (TW + 4), lx = j % (TW + 4);
    int gx = x0 + lx - 2, gy = y0 + ly - 2;
    tile[ly][lx] = (gx >= 0 && gx < width && gy >= 0 && gy < height) ? in[gy * width + gx] : 0.0f;
  }
  float w[25];
#pragma unroll
  for (int k = 0; k < 25; ++k) w[k] = filter[k];
  __syncthreads();
  float acc[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) acc[r] = 0.0f;
#pragma unroll
  for (int j = 0; j < RY + 4; ++j) {
    float v[5];
#pragma unroll
    for (int dx = 0; dx < 5; ++dx) v[dx] = tile[ty * RY + j][tx + dx];
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      int dy = j - r;
      if (dy >= 0 && dy < 5) {
#pragma unroll
        for (int dx = 0; dx < 5; ++dx) acc[r] = fmaf(w[dy * 5 + dx], v[dx], acc[r]);
      }
    }
  }
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    int y = y0 + ty * RY + r, x = x0 + tx;
    if (x < width && y < height) out[y * width + x] = acc[r];
  }
}
