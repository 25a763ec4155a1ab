// PMPP fig. 5.15: the convergent sum reduction: the stride halves, so whole warps drop out.
extern "C" __global__ void reduce_fig5_15(float* input, float* output) {
  unsigned i = threadIdx.x;
  for (unsigned stride = blockDim.x; stride >= 1; stride /= 2) {
    if (threadIdx.x < stride) input[i] += input[i + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *output = input[0];
}
