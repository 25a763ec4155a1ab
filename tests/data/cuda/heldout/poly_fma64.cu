// poly_fma in f64: two independent chains of iters f64 FMAs (fma) per thread, one load and one store.
extern "C" __global__ void poly_fma64(const double* x, double* y, unsigned n, int iters) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = x[i], a = v, b = 1.0 - v;
    for (int k = 0; k < iters; ++k) {
      a = fma(a, v, 0.5);
      b = fma(b, v, -0.25);
    }
    y[i] = a + b;
  }
}
