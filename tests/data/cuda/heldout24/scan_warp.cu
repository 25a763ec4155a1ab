// Per-block inclusive scan of unsigned counts (the first pass of a device-wide scan, as CUB's block
// scan with warp shuffles does it): each warp scans its 32 values with 5 __shfl_up_sync steps, the
// warps' totals go through shared memory, warp 0 scans them with shuffles, and each warp adds the
// total of the warps before it. Writes the block's inclusive scan to out and its total to
// block_sums[blockIdx.x]. Any block size that is a multiple of 32 up to 1024.
extern "C" __global__ void scan_warp(const unsigned* in, unsigned* out, unsigned* block_sums, unsigned n) {
  __shared__ unsigned warp_sums[32];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned v = i < n ? in[i] : 0u;
  for (unsigned d = 1; d < 32; d *= 2) {
    unsigned t = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += t;
  }
  if (lane == 31) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    unsigned s = lane < blockDim.x / 32 ? warp_sums[lane] : 0u;
    for (unsigned d = 1; d < 32; d *= 2) {
      unsigned t = __shfl_up_sync(0xffffffffu, s, d);
      if (lane >= d) s += t;
    }
    warp_sums[lane] = s;
  }
  __syncthreads();
  if (warp > 0) v += warp_sums[warp - 1];
  if (i < n) out[i] = v;
  if (threadIdx.x == blockDim.x - 1) block_sums[blockIdx.x] = v;
}
