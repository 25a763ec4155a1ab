// Naive matrix transpose straight through global memory (in rows x cols, row-major; out cols x rows):
// the lanes of a warp read one row's consecutive columns (coalesced) and write 32 different rows of out.
extern "C" __global__ void transpose_naive(const float* in, float* out, unsigned rows, unsigned cols) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}
