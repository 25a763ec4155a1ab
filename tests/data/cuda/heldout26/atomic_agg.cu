// Sums of u32 values by key into 8 u32 totals (the key is keys[i] & 7; values below 1,024 keep the
// totals of 4M elements far from wrapping), with the atomics aggregated at one of three levels
// (--nvcc-opt -DLEVEL), the one thing the runs vary:
//   0: per thread, a global atomicAdd for every element (the 32 lanes of a warp on at most 8
//      addresses, every warp of the grid on the same 8);
//   1: per warp, for each of the 8 keys a __shfl_xor_sync butterfly of the lanes' values for that key
//      (0 for the others), and lane 0 adds each non-zero sum with one global atomicAdd;
//   2: per block, 8 shared u32 counters filled with shared atomicAdd, then 8 global atomicAdds.
// The totals are integers, so every order of the atomics gives the same bits.
#ifndef LEVEL
#define LEVEL 0
#endif
extern "C" __global__ void atomic_agg(const unsigned* keys, const unsigned* vals, unsigned* sums,
                                      unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
#if LEVEL == 0
  if (i < n) atomicAdd(&sums[keys[i] & 7u], vals[i]);
#elif LEVEL == 1
  unsigned k = i < n ? keys[i] & 7u : 0u;
  unsigned v = i < n ? vals[i] : 0u;
  unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned b = 0; b < 8; ++b) {
    unsigned s = k == b ? v : 0u;
    for (int m = 16; m > 0; m /= 2) s += __shfl_xor_sync(0xffffffffu, s, m);
    if (lane == 0 && s != 0u) atomicAdd(&sums[b], s);
  }
#else
  __shared__ unsigned bs[8];
  if (threadIdx.x < 8) bs[threadIdx.x] = 0u;
  __syncthreads();
  if (i < n) atomicAdd(&bs[keys[i] & 7u], vals[i]);
  __syncthreads();
  if (threadIdx.x < 8 && bs[threadIdx.x] != 0u) atomicAdd(&sums[threadIdx.x], bs[threadIdx.x]);
#endif
}
