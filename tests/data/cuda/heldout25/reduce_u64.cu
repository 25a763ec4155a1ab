// Sum, minimum and maximum of n unsigned words in one pass: a grid-stride loop per thread (a 64-bit
// sum, u32 min and max), __shfl_xor_sync butterflies (the 64-bit sum shuffled as two halves), then
// integer atomics on three global words: atomicAdd (u64), atomicMin and atomicMax (u32). With
// --nvcc-opt -DPER_WARP lane 0 of every warp issues them; otherwise the warps' results go through
// shared memory, warp 0 combines them with a second butterfly and lane 0 issues one set per block.
// lo must start at 0xffffffff, sum and hi at 0. With a grid covering n one element per thread,
// per-warp atomics put 8 times the per-block count on the same three addresses.
extern "C" __global__ void reduce_u64(const unsigned* in, unsigned long long* sum, unsigned* lo, unsigned* hi,
                                      unsigned n) {
  unsigned long long s = 0ull;
  unsigned mn = 0xffffffffu, mx = 0u;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned v = in[i];
    s += v;
    mn = min(mn, v);
    mx = max(mx, v);
  }
  for (int m = 16; m > 0; m /= 2) {
    s += __shfl_xor_sync(0xffffffffu, s, m);
    mn = min(mn, __shfl_xor_sync(0xffffffffu, mn, m));
    mx = max(mx, __shfl_xor_sync(0xffffffffu, mx, m));
  }
  unsigned lane = threadIdx.x % 32;
#ifdef PER_WARP
  if (lane == 0) {
    atomicAdd(sum, s);
    atomicMin(lo, mn);
    atomicMax(hi, mx);
  }
#else
  __shared__ unsigned long long ws[32];
  __shared__ unsigned wmn[32], wmx[32];
  unsigned warp = threadIdx.x / 32;
  if (lane == 0) {
    ws[warp] = s;
    wmn[warp] = mn;
    wmx[warp] = mx;
  }
  __syncthreads();
  if (warp == 0) {
    bool live = lane < blockDim.x / 32;
    s = live ? ws[lane] : 0ull;
    mn = live ? wmn[lane] : 0xffffffffu;
    mx = live ? wmx[lane] : 0u;
    for (int m = 16; m > 0; m /= 2) {
      s += __shfl_xor_sync(0xffffffffu, s, m);
      mn = min(mn, __shfl_xor_sync(0xffffffffu, mn, m));
      mx = max(mx, __shfl_xor_sync(0xffffffffu, mx, m));
    }
    if (lane == 0) {
      atomicAdd(sum, s);
      atomicMin(lo, mn);
      atomicMax(hi, mx);
    }
  }
#endif
}
