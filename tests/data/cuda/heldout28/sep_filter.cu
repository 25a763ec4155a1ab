// One pass of a separable filter on a width x height float image, a thread per pixel (blocks of
// 32 x 8), 2 R + 1 taps w[0..2R] (read with __ldg, uniform), coordinates clamped at the edges:
// out = sum_k w[k] in[p + (k - R) step], the products added in k order. --nvcc-opt -DVERT (the
// direction: 0 along rows, neighbours in the same line; 1 along columns, each tap a row apart) and
// -DR (2 or 8: 5 or 17 taps) are what the runs vary.
#ifndef VERT
#define VERT 0
#endif
#ifndef R
#define R 2
#endif
extern "C" __global__ void sep_filter(const float* in, const float* w, float* out, int width, int height) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  if (x >= width || y >= height) return;
  float acc = 0.0f;
#pragma unroll
  for (int k = -R; k <= R; ++k) {
#if VERT
    int yy = min(max(y + k, 0), height - 1);
    float v = in[yy * width + x];
#else
    int xx = min(max(x + k, 0), width - 1);
    float v = in[y * width + xx];
#endif
    acc = acc + __ldg(&w[k + R]) * v;
  }
  out[y * width + x] = acc;
}
