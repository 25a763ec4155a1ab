// A 2x2 box downsample of an 8-bit greyscale image (a mip level): each output pixel is the rounded
// mean of a 2x2 block of input bytes, (a + b + c + d + 2) / 4; one thread per output pixel, four byte
// loads from two rows and one byte store. width and height are the input's, both even.
extern "C" __global__ void downsample_u8(const unsigned char* in, unsigned char* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int ow = width / 2, oh = height / 2;
  if (x < ow && y < oh) {
    const unsigned char* p = in + (2 * y) * width + 2 * x;
    unsigned s = p[0] + p[1] + p[width] + p[width + 1];
    out[y * ow + x] = (unsigned char)((s + 2) / 4);
  }
}
