// Dense matrix-vector product y = A x (A rows x cols, row-major), one warp per row: the lanes read
// consecutive columns (coalesced), then sum their partial sums with shuffles; lane 0 writes y.
extern "C" __global__ void gemv_row_warp(const float* A, const float* x, float* y, unsigned rows, unsigned cols) {
  unsigned row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  unsigned lane = threadIdx.x % 32;
  if (row < rows) {
    float sum = 0.0f;
    for (unsigned c = lane; c < cols; c += 32) sum += A[(size_t)row * cols + c] * x[c];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) y[row] = sum;
  }
}
