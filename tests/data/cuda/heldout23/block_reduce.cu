// Sum of n floats: a grid-stride loop per thread, a warp-shuffle sum, the warps' sums through shared
// memory, a second shuffle sum in warp 0, and one global atomicAdd per block.
extern "C" __global__ void block_reduce(const float* in, float* total, unsigned n) {
  __shared__ float warp_sums[32];
  float v = 0.0f;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0) atomicAdd(total, v);
  }
}
