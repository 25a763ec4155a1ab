// The counting pass of an LSD radix sort: each block of 256 threads counts the BITS-bit digit
// (key >> shift) & (2^BITS - 1) of its 4,096 keys (16 a thread, blockDim.x apart, coalesced) in
// 2^BITS shared u32 counters with shared atomicAdd, then writes them digit-major,
// counts[d * gridDim.x + block] (the layout the scan of the next pass reads). --nvcc-opt -DBITS=2, 4
// or 8 (4, 16 or 256 counters: a warp's 32 atomics on at most 4, 16 or 32 addresses) is the one
// thing the runs vary.
#ifndef BITS
#define BITS 4
#endif
#define BINS (1u << BITS)
extern "C" __global__ void radix_count(const unsigned* keys, unsigned* counts, unsigned n, unsigned shift) {
  __shared__ unsigned hist[BINS];
  for (unsigned d = threadIdx.x; d < BINS; d += blockDim.x) hist[d] = 0u;
  __syncthreads();
  unsigned base = blockIdx.x * blockDim.x * 16 + threadIdx.x;
#pragma unroll 4
  for (unsigned k = 0; k < 16; ++k) {
    unsigned i = base + k * blockDim.x;
    if (i < n) atomicAdd(&hist[(keys[i] >> shift) & (BINS - 1u)], 1u);
  }
  __syncthreads();
  for (unsigned d = threadIdx.x; d < BINS; d += blockDim.x) counts[d * gridDim.x + blockIdx.x] = hist[d];
}
