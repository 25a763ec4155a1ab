// iters Newton steps for 1 / sqrt(a), a = x[i] + 0.5 in [0.5, 1.5), from y = 1:
// y = y (1.5 - 0.5 a y y) (four multiplies and a subtraction a step, each rounded: --fmad=false; one
// dependent chain a thread). --nvcc-opt -DDOUBLE=1 runs the same chain in double (x converted, out a
// double array) instead of float: the one thing the runs vary (the H100 issues FP64 at half its FP32
// rate).
#ifndef DOUBLE
#define DOUBLE 0
#endif
#if DOUBLE
typedef double real;
#define K(v) v
extern "C" __global__ void newton_rsqrt(const float* x, double* out, unsigned n, unsigned iters) {
#else
typedef float real;
#define K(v) v##f
extern "C" __global__ void newton_rsqrt(const float* x, float* out, unsigned n, unsigned iters) {
#endif
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  real a = (real)x[i] + K(0.5);
  real y = K(1.0);
  for (unsigned it = 0; it < iters; ++it) y = y * (K(1.5) - K(0.5) * a * y * y);
  out[i] = y;
}
