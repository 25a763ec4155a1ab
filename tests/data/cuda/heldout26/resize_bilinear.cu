// Bilinear resize of a single-channel float image (half-pixel centres, edge-clamped, as OpenCV's
// INTER_LINEAR): output pixel (x, y) samples the input at ((x + 0.5) sx - 0.5, (y + 0.5) sy - 0.5),
// 4 loads and 3 lerps. The output is 3200x1800 in every run; the runs vary the input, 1600x900
// (a 2x upscale: each input pixel read by about 4 threads, mostly cache hits), 3200x1800 (1:1) or
// 6400x3600 (a 2x downscale: every input pixel read once, four times the bytes), with sx = in_w / out_w.
extern "C" __global__ void resize_bilinear(const float* in, float* out, unsigned in_w, unsigned in_h,
                                           unsigned out_w, unsigned out_h, float sx, float sy) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= out_w || y >= out_h) return;
  float fx = fmaxf(((float)x + 0.5f) * sx - 0.5f, 0.0f);
  float fy = fmaxf(((float)y + 0.5f) * sy - 0.5f, 0.0f);
  unsigned x0 = min((unsigned)fx, in_w - 1), y0 = min((unsigned)fy, in_h - 1);
  unsigned x1 = min(x0 + 1, in_w - 1), y1 = min(y0 + 1, in_h - 1);
  float ax = fx - (float)x0, ay = fy - (float)y0;
  const float* r0 = in + (unsigned long long)y0 * in_w;
  const float* r1 = in + (unsigned long long)y1 * in_w;
  float p00 = r0[x0], p01 = r0[x1], p10 = r1[x0], p11 = r1[x1];
  float top = p00 + ax * (p01 - p00);
  float bot = p10 + ax * (p11 - p10);
  out[(unsigned long long)y * out_w + x] = top + ay * (bot - top);
}
