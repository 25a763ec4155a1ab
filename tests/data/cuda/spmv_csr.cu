// PMPP 14.3: sparse matrix-vector multiply in CSR, one thread per row; rows of different lengths
// make the loop diverge.
extern "C" __global__ void spmv_csr(unsigned rows, const unsigned* row_ptr, const unsigned* col_idx,
                                    const float* values, const float* x, float* y) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    for (unsigned e = row_ptr[row]; e < row_ptr[row + 1]; ++e) sum += values[e] * x[col_idx[e]];
    y[row] = sum;
  }
}
