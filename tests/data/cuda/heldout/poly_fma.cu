// Compute-bound: each thread runs two independent chains of iters f32 FMAs (fmaf, so fused whatever
// --fmad says) on its element, one load and one store per thread.
extern "C" __global__ void poly_fma(const float* x, float* y, unsigned n, int iters) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i], a = v, b = 1.0f - v;
    for (int k = 0; k < iters; ++k) {
      a = fmaf(a, v, 0.5f);
      b = fmaf(b, v, -0.25f);
    }
    y[i] = a + b;
  }
}
