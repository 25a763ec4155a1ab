// ECE408 lecture 15: the improved reduction, 2 elements per thread (kernels/
// reduce_ece408_improved.kir in CUDA C): the stride halves, so whole warps drop out.
#define BLOCK_SIZE 256
extern "C" __global__ void reduce_ece408_improved(const float* input, float* out, unsigned n) {
  __shared__ float partialSum[2 * BLOCK_SIZE];
  unsigned t = threadIdx.x;
  unsigned start = 2 * blockIdx.x * blockDim.x;
  partialSum[t] = start + t < n ? input[start + t] : 0.0f;
  partialSum[blockDim.x + t] = start + blockDim.x + t < n ? input[start + blockDim.x + t] : 0.0f;
  for (unsigned stride = blockDim.x; stride >= 1; stride /= 2) {
    __syncthreads();
    if (t < stride) partialSum[t] += partialSum[t + stride];
  }
  if (t == 0) out[blockIdx.x] = partialSum[0];
}
