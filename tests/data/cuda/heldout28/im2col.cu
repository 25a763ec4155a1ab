// im2col for a 3 x 3 convolution (stride 1, zero padding 1) of a C x H x W float image (W = 2^logw):
// the column matrix has C 9 rows (c, ky, kx) and H W columns (y, x); col[(c 9 + ky 3 + kx) H W + y W + x]
// = in[c][y + ky - 1][x + kx - 1], 0 outside. --nvcc-opt -DPERPIX (with the image size) is what the
// runs vary:
//   0: a thread per column-matrix element (row decoded by / 9 and % 9 of a constant, a gather);
//   1: a thread per (c, y, x) writing its 9 elements (9 loads of the neighbourhood, 9 coalesced stores).
#ifndef PERPIX
#define PERPIX 0
#endif
extern "C" __global__ void im2col(const float* in, float* col, unsigned c_count, unsigned h, unsigned logw) {
  unsigned w = 1u << logw;
  unsigned hw = h * w;
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
#if PERPIX
  if (t >= c_count * hw) return;
  unsigned c = t / hw, p = t - c * hw;
  int y = (int)(p >> logw), x = (int)(p & (w - 1u));
  const float* src = in + c * hw;
  float* dst = col + c * 9u * hw + p;
#pragma unroll
  for (int ky = 0; ky < 3; ++ky) {
#pragma unroll
    for (int kx = 0; kx < 3; ++kx) {
      int yy = y + ky - 1, xx = x + kx - 1;
      float v = (yy >= 0 && yy < (int)h && xx >= 0 && xx < (int)w) ? src[yy * (int)w + xx] : 0.0f;
      dst[(ky * 3 + kx) * hw] = v;
    }
  }
#else
  if (t >= c_count * 9u * hw) return;
  unsigned row = t / hw, p = t - row * hw;
  unsigned c = row / 9u, k = row - c * 9u;
  int ky = (int)(k / 3u), kx = (int)(k - (unsigned)ky * 3u);
  int yy = (int)(p >> logw) + ky - 1, xx = (int)(p & (w - 1u)) + kx - 1;
  col[t] = (yy >= 0 && yy < (int)h && xx >= 0 && xx < (int)w) ? in[c * hw + yy * (int)w + xx] : 0.0f;
#endif
}
