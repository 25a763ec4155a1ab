// Mandelbrot escape time: each thread iterates z = z^2 + c for its pixel (c = (x0 + col dx, y0 + row dy))
// until |z|^2 > 4 or maxiter steps, and writes the step count; lanes leave the loop at different steps
// (divergence-bound f32 compute).
extern "C" __global__ void mandelbrot(unsigned* out, unsigned width, unsigned height, float x0, float y0, float dx,
                                      float dy, int maxiter) {
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < width && row < height) {
    float cr = x0 + col * dx, ci = y0 + row * dy;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < maxiter && zr * zr + zi * zi <= 4.0f) {
      float t = zr * zr - zi * zi + cr;
      zi = 2.0f * zr * zi + ci;
      zr = t;
      ++it;
    }
    out[row * width + col] = it;
  }
}
