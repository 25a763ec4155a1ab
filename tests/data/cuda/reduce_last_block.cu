// The CUDA Handbook's threadFenceReduction (kernels/reduce_last_block.kir in CUDA C; the CUDA
// Programming Guide's __threadfence() example): one launch sums the whole array. Each block
// reduces its blockDim.x elements into partial[blockIdx.x]; thread 0 fences and takes a ticket with
// atomicInc; the block that takes the last ticket sums the partials into out[0] and resets the
// counter for the next launch.
#define BLOCK_DIM 1024
extern "C" __global__ void reduce_last_block(const float* input, volatile float* partial, float* out,
                                             unsigned* counter, unsigned n) {
  __shared__ float partialSum[BLOCK_DIM];
  __shared__ bool amLast;
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  partialSum[t] = i < n ? input[i] : 0.0f;
  for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    __syncthreads();
    if (t < stride) partialSum[t] += partialSum[t + stride];
  }
  if (t == 0) {
    partial[blockIdx.x] = partialSum[0];
    __threadfence();  // the partial is visible to every block before the ticket is taken
    unsigned ticket = atomicInc(counter, gridDim.x);
    amLast = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast) {
    float sum = 0.0f;
    for (unsigned j = t; j < gridDim.x; j += blockDim.x) sum += partial[j];
    partialSum[t] = sum;
    for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
      __syncthreads();
      if (t < stride) partialSum[t] += partialSum[t + stride];
    }
    if (t == 0) {
      out[0] = partialSum[0];
      *counter = 0;
    }
  }
}
