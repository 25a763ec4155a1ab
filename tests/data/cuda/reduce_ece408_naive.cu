// ECE408 lecture 15: the naive reduction, 2 elements per thread (kernels/reduce_ece408_naive.kir in
// CUDA C). Each block sums 2 * blockDim.x elements of input (0 past n) into out[blockIdx.x].
#define BLOCK_SIZE 256
extern "C" __global__ void reduce_ece408_naive(const float* input, float* out, unsigned n) {
  __shared__ float partialSum[2 * BLOCK_SIZE];
  unsigned t = threadIdx.x;
  unsigned start = 2 * blockIdx.x * blockDim.x;
  partialSum[t] = start + t < n ? input[start + t] : 0.0f;
  partialSum[blockDim.x + t] = start + blockDim.x + t < n ? input[start + blockDim.x + t] : 0.0f;
  for (unsigned stride = 1; stride <= blockDim.x; stride *= 2) {
    __syncthreads();
    if (t % stride == 0) partialSum[2 * t] += partialSum[2 * t + stride];
  }
  if (t == 0) out[blockIdx.x] = partialSum[0];
}
