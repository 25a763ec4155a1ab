// PMPP 3.3: colour to greyscale on unsigned char pixels (kernels/gray.kir in CUDA C). Pin holds
// 3 channels per pixel, row-major; Pout one byte per pixel.
#define CHANNELS 3
extern "C" __global__ void grey(unsigned char* Pout, const unsigned char* Pin, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < width && row < height) {
    int greyOffset = row * width + col;
    int rgbOffset = greyOffset * CHANNELS;
    unsigned char r = Pin[rgbOffset];
    unsigned char g = Pin[rgbOffset + 1];
    unsigned char b = Pin[rgbOffset + 2];
    Pout[greyOffset] = 0.21f * r + 0.71f * g + 0.07f * b;
  }
}
