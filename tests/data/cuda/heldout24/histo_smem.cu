// A histogram of n keys into BINS bins (--nvcc-opt -DBINS=256 or 4096; the bin is key % BINS),
// privatised per block in shared memory: the block zeroes its BINS counters, a grid-stride loop adds
// each key with a shared atomicAdd, and then one global atomicAdd per bin (every bin, zero or not)
// merges the block's counts. 4096 bins take 16 KiB of shared memory and 16 times the merge of 256.
// Skewed keys (few distinct values) make the lanes of a warp hit the same counters.
#ifndef BINS
#define BINS 256
#endif
extern "C" __global__ void histo_smem(const unsigned* keys, unsigned* histo, unsigned n) {
  __shared__ unsigned local[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0u;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[keys[i] % BINS], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&histo[b], local[b]);
}
