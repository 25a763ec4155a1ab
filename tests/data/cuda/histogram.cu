// PMPP 9.4: a 256-bin histogram of bytes, privatised in shared memory: each block counts into its
// shared bins with shared atomics, then adds them to the global bins with global atomics.
#define NUM_BINS 256
extern "C" __global__ void histogram(const unsigned char* data, unsigned n, unsigned* histo) {
  __shared__ unsigned histo_s[NUM_BINS];
  for (unsigned bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) histo_s[bin] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&histo_s[data[i]], 1u);
  __syncthreads();
  for (unsigned bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) {
    unsigned count = histo_s[bin];
    if (count > 0) atomicAdd(&histo[bin], count);
  }
}
