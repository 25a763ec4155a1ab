// PMPP 7.2: 2D convolution with a (2r+1) x (2r+1) filter read from global memory (read-only, so
// ld.global.nc), zero outside the image; one thread per output pixel.
extern "C" __global__ void conv2d(const float* __restrict__ in, const float* __restrict__ filter, float* out, int r,
                                  int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < width && row < height) {
    float sum = 0.0f;
    for (int fr = 0; fr < 2 * r + 1; ++fr) {
      for (int fc = 0; fc < 2 * r + 1; ++fc) {
        int y = row - r + fr, x = col - r + fc;
        if (y >= 0 && y < height && x >= 0 && x < width) sum += filter[fr * (2 * r + 1) + fc] * in[y * width + x];
      }
    }
    out[row * width + col] = sum;
  }
}
