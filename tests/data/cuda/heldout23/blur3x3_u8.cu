// A 3x3 box blur of an 8-bit greyscale image (unsigned char pixels: byte loads and stores), the edges
// clamped: one thread per output pixel, the sum of 9 bytes divided by 9.
extern "C" __global__ void blur3x3_u8(const unsigned char* in, unsigned char* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    int sum = 0;
    for (int dy = -1; dy <= 1; ++dy) {
      int yy = min(max(y + dy, 0), height - 1);
      for (int dx = -1; dx <= 1; ++dx) sum += in[yy * width + min(max(x + dx, 0), width - 1)];
    }
    out[y * width + x] = (unsigned char)(sum / 9);
  }
}
