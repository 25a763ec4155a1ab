// Sums of 16 terms a thread in double precision, a dependent f64 chain (4M threads):
// y_i = sum_{k < 16} f(x_i + k / 64) with x uniform in [0, 1). --nvcc-opt -DFN picks f, the one thing
// the runs vary: 0 1 / (t + 0.25) (div.rn.f64, which ptxas expands into a reciprocal seed, Newton
// steps and a slow-path test), 1 sqrt(t + 0.25) (sqrt.rn.f64, likewise expanded), 2 both,
// sqrt(t + 0.25) / (t + 1).
#ifndef FN
#define FN 0
#endif
extern "C" __global__ void f64_divsqrt(const double* x, double* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x0 = x[i];
  double acc = 0.0;
  for (int k = 0; k < 16; ++k) {
    double t = x0 + k * 0.015625;
#if FN == 0
    acc += 1.0 / (t + 0.25);
#elif FN == 1
    acc += sqrt(t + 0.25);
#else
    acc += sqrt(t + 0.25) / (t + 1.0);
#endif
  }
  y[i] = acc;
}
