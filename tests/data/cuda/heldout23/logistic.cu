// Compute-bound on one dependent chain: iters steps of the logistic map x = r x (1 - x) per thread
// (a subtract and two multiplies a step, each waiting on the last), one load and one store.
extern "C" __global__ void logistic(const float* x0, float* out, unsigned n, float r, int iters) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = x0[i];
    for (int k = 0; k < iters; ++k) x = r * x * (1.0f - x);
    out[i] = x;
  }
}
