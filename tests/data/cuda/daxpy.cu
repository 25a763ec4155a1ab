// SAXPY on f64 (DAXPY): y[i] = a * x[i] + y[i] for i < n.
extern "C" __global__ void daxpy(int n, double a, const double* x, double* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
