// One Jacobi step of a 2D 5-point stencil on a width x height grid, straight from global memory (the
// neighbours come from L1/L2): boundary points are copied, inner ones averaged with their 4 neighbours.
extern "C" __global__ void stencil2d(const float* in, float* out, unsigned width, unsigned height) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    unsigned i = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
      out[i] = in[i];
    } else {
      out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
    }
  }
}
