// The 2x2 box downsample of downsample_u8.cu on RGBA8 pixels packed in 32-bit words: four word loads,
// each of the four channels extracted (shift and mask), averaged with rounding, and packed back into
// one word store. The same pixel count as the greyscale kernel moves 4 times the bytes, with more
// integer work per pixel.
extern "C" __global__ void downsample_rgba(const unsigned* in, unsigned* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int ow = width / 2, oh = height / 2;
  if (x < ow && y < oh) {
    const unsigned* p = in + (2 * y) * width + 2 * x;
    unsigned a = p[0], b = p[1], c = p[width], d = p[width + 1];
    unsigned r = 0u;
#pragma unroll
    for (int ch = 0; ch < 32; ch += 8) {
      unsigned s = ((a >> ch) & 0xffu) + ((b >> ch) & 0xffu) + ((c >> ch) & 0xffu) + ((d >> ch) & 0xffu);
      r |= ((s + 2u) / 4u) << ch;
    }
    out[y * ow + x] = r;
  }
}
