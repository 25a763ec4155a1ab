// A degree-16 polynomial in double precision by Horner's rule (fma per term), one x per thread: the
// Taylor polynomial of exp about 0 with coefficients 1/k! unrolled into 16 dependent DFMAs with
// immediate operands; one f64 load and one f64 store. FP64 pipe latency and throughput, and 8-byte
// accesses.
extern "C" __global__ void horner64(const double* x, double* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const double c[17] = {1.0,
                          1.0,
                          1.0 / 2,
                          1.0 / 6,
                          1.0 / 24,
                          1.0 / 120,
                          1.0 / 720,
                          1.0 / 5040,
                          1.0 / 40320,
                          1.0 / 362880,
                          1.0 / 3628800,
                          1.0 / 39916800,
                          1.0 / 479001600,
                          1.0 / 6227020800.0,
                          1.0 / 87178291200.0,
                          1.0 / 1307674368000.0,
                          1.0 / 20922789888000.0};
    double t = x[i], p = c[16];
#pragma unroll
    for (int k = 15; k >= 0; --k) p = fma(p, t, c[k]);
    y[i] = p;
  }
}
