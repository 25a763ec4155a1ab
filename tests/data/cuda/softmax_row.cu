// A softmax row kernel: one block of BLOCK threads per row of cols values; the row's maximum and
// the sum of exponentials are reduced in shared memory.
#define BLOCK 128
extern "C" __global__ void softmax_row(const float* in, float* out, unsigned cols) {
  __shared__ float partial[BLOCK];
  const float* row = in + blockIdx.x * cols;
  float m = -3.402823466e38f;
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
  partial[threadIdx.x] = m;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] = fmaxf(partial[threadIdx.x], partial[threadIdx.x + s]);
    __syncthreads();
  }
  m = partial[0];
  __syncthreads();
  float sum = 0.0f;
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(row[c] - m);
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  sum = partial[0];
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) out[blockIdx.x * cols + c] = expf(row[c] - m) / sum;
}
