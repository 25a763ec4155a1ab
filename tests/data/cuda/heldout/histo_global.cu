// A histogram straight into global memory: a grid-stride loop, one global atomicAdd per element
// (its result unused: red.global.add). How many bins the data spans sets the contention per address.
extern "C" __global__ void histo_global(const unsigned* data, unsigned* histo, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&histo[data[i]], 1u);
}
