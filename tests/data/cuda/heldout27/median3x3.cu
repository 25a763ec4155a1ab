// A 3x3 median filter of a float image (edges clamped), one thread per output pixel: the 9
// neighbours go through Paeth's 19 compare-exchange network for the median of 9 (fminf / fmaxf, 38
// min/max a pixel). The image size is the one thing the runs vary.
#define SORT2(a, b) { float lo_ = fminf(a, b); b = fmaxf(a, b); a = lo_; }
extern "C" __global__ void median3x3(const float* in, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int xm = max(x - 1, 0), xp = min(x + 1, width - 1);
  int ym = max(y - 1, 0), yp = min(y + 1, height - 1);
  float p0 = in[ym * width + xm], p1 = in[ym * width + x], p2 = in[ym * width + xp];
  float p3 = in[y * width + xm], p4 = in[y * width + x], p5 = in[y * width + xp];
  float p6 = in[yp * width + xm], p7 = in[yp * width + x], p8 = in[yp * width + xp];
  SORT2(p1, p2); SORT2(p4, p5); SORT2(p7, p8);
  SORT2(p0, p1); SORT2(p3, p4); SORT2(p6, p7);
  SORT2(p1, p2); SORT2(p4, p5); SORT2(p7, p8);
  SORT2(p0, p3); SORT2(p5, p8); SORT2(p4, p7);
  SORT2(p3, p6); SORT2(p1, p4); SORT2(p2, p5);
  SORT2(p4, p7); SORT2(p4, p2); SORT2(p6, p4);
  SORT2(p4, p2);
  out[y * width + x] = p4;
}
