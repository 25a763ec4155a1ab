// Transposed matrix-vector product y = A^T x (A rows x cols, row-major), one thread per column of A:
// each step the lanes read one row's consecutive columns (coalesced) and all read the same x[r].
extern "C" __global__ void gemv_t(const float* A, const float* x, float* y, unsigned rows, unsigned cols) {
  unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    float sum = 0.0f;
    for (unsigned r = 0; r < rows; ++r) sum += A[(size_t)r * cols + c] * x[r];
    y[c] = sum;
  }
}
