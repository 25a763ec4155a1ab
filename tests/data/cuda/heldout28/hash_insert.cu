// Builds an open-addressing hash set with linear probing: a thread per key inserts key + 1 (so 0 marks
// an empty slot) at slot fmix32(key) % cap, moving on (wrapping at cap) while atomicCAS finds another
// key there; a duplicate stops at its twin. 4M keys, 256 a block. The capacity, `--arg cap` (and the
// table buffer with it), is the one thing the runs vary: 16M, 8M and 5,592,405 slots, load factors
// 0.25, 0.5 and 0.75 (mean probes an insert over the whole build about 1.2, 1.5 and 2.5, clustered).
__device__ __forceinline__ unsigned fmix32(unsigned h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}
extern "C" __global__ void hash_insert(const unsigned* keys, unsigned* table, unsigned n, unsigned cap) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned k = keys[i];
  unsigned v = k + 1u;
  unsigned slot = fmix32(k) % cap;
  while (true) {
    unsigned prev = atomicCAS(&table[slot], 0u, v);
    if (prev == 0u || prev == v) break;
    slot = slot + 1u == cap ? 0u : slot + 1u;
  }
}
