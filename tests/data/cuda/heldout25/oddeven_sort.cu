// Odd-even transposition sort of each KEYS-key segment in shared memory (--nvcc-opt -DKEYS=128, 256 or
// 512; blocks of KEYS / 2 threads, one block per segment): KEYS phases, each a compare-exchange of
// the pairs (2t, 2t + 1) or (2t + 1, 2t + 2) by thread t and a __syncthreads, so a __syncthreads
// inside a loop of KEYS trips, data-dependent swaps, and 2-way bank conflicts on the even/odd pairs.
// Work per key grows with KEYS. in is read coalesced and out written coalesced, each segment sorted.
#ifndef KEYS
#define KEYS 256
#endif
extern "C" __global__ void oddeven_sort(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[KEYS];
  unsigned base = blockIdx.x * KEYS, t = threadIdx.x;
  s[t] = in[base + t];
  s[t + KEYS / 2] = in[base + t + KEYS / 2];
  __syncthreads();
  for (unsigned phase = 0; phase < KEYS; ++phase) {
    unsigned j = 2 * t + (phase & 1u);
    if (j + 1 < KEYS) {
      unsigned a = s[j], b = s[j + 1];
      if (a > b) {
        s[j] = b;
        s[j + 1] = a;
      }
    }
    __syncthreads();
  }
  out[base + t] = s[t];
  out[base + t + KEYS / 2] = s[t + KEYS / 2];
}
