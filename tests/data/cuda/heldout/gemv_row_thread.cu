// Dense matrix-vector product y = A x (A rows x cols, row-major), one thread per row: the lanes of a
// warp read 32 different rows at the same column, so every load touches 32 lines (uncoalesced), and
// each line is reused by the next iterations from L1.
extern "C" __global__ void gemv_row_thread(const float* A, const float* x, float* y, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float sum = 0.0f;
    for (unsigned c = 0; c < cols; ++c) sum += A[(size_t)r * cols + c] * x[c];
    y[r] = sum;
  }
}
