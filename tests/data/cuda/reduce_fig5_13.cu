// PMPP fig. 5.13: the naive sum reduction in one block of blockDim.x threads over 2 * blockDim.x
// values, in place in the input; the stride doubles and the active threads thin out within warps.
extern "C" __global__ void reduce_fig5_13(float* input, float* output) {
  unsigned i = 2 * threadIdx.x;
  for (unsigned stride = 1; stride <= blockDim.x; stride *= 2) {
    if (threadIdx.x % stride == 0) input[i] += input[i + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *output = input[0];
}
