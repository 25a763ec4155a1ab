// Integer hashing: each thread runs its key through rounds of murmur3's 32-bit finaliser (xor-shifts and
// multiplies) plus a rotate and an add of a round constant; integer pipes only, one load and one store.
extern "C" __global__ void hash_mix(const unsigned* keys, unsigned* out, unsigned n, int rounds) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned h = keys[i];
    for (int r = 0; r < rounds; ++r) {
      h ^= h >> 16;
      h *= 0x85ebca6bu;
      h ^= h >> 13;
      h *= 0xc2b2ae35u;
      h ^= h >> 16;
      h = ((h << 7) | (h >> 25)) + 0x9e3779b9u * (unsigned)(r + 1);
    }
    out[i] = h;
  }
}
