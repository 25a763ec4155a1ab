// Full-search block matching (motion estimation) of 8 x 8 macroblocks of an 8-bit frame against a
// reference frame, a thread per macroblock (blocks of 128): the sum of absolute differences at every
// displacement (dx, dy) in [-R, R]^2 whose block lies inside the frame, keeping the first minimum in
// scan order; out = SAD * 256 + candidate index ((dy + R) (2R + 1) + dx + R). The search radius,
// --nvcc-opt -DR = 1, 2 or 4 (9, 25 or 81 candidates of 64 byte pairs), is the one thing the runs vary.
#ifndef R
#define R 2
#endif
extern "C" __global__ void block_match(const unsigned char* cur, const unsigned char* ref, unsigned* out,
                                       int width, int height) {
  int mbw = width / 8, mbh = height / 8;
  int mb = blockIdx.x * blockDim.x + threadIdx.x;
  if (mb >= mbw * mbh) return;
  int by = mb / mbw, bx = mb - by * mbw;
  int x0 = bx * 8, y0 = by * 8;
  unsigned best = 0xffffffffu;
  for (int dy = -R; dy <= R; ++dy) {
    for (int dx = -R; dx <= R; ++dx) {
      int rx = x0 + dx, ry = y0 + dy;
      if (rx < 0 || ry < 0 || rx + 8 > width || ry + 8 > height) continue;
      unsigned sad = 0;
      for (int yy = 0; yy < 8; ++yy) {
#pragma unroll
        for (int xx = 0; xx < 8; ++xx) {
          int a = cur[(y0 + yy) * width + x0 + xx];
          int b = ref[(ry + yy) * width + rx + xx];
          sad += (unsigned)abs(a - b);
        }
      }
      unsigned key = sad * 256u + (unsigned)((dy + R) * (2 * R + 1) + dx + R);
      if (key < best) best = key;
    }
  }
  out[mb] = best;
}
