// Sparse matrix-vector product y = A x, A in ELL format (width entries per row), stored column-major
// (entry k of row r at k * rows + r): one thread per row, coalesced index and value loads, x gathered
// through the column indices.
extern "C" __global__ void spmv_ell(const unsigned* cols, const float* vals, const float* x, float* y, unsigned rows,
                                    unsigned width) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float sum = 0.0f;
    for (unsigned k = 0; k < width; ++k) sum += vals[k * rows + r] * x[cols[k * rows + r]];
    y[r] = sum;
  }
}
