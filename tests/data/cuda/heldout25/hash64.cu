// 64-bit integer hashing, one key per thread: each round adds the golden-ratio increment and runs
// splitmix64's finaliser (xor-shifts and two 64-bit multiplies, each several 32-bit IMADs on the
// GPU), then rotates the word by 13 and mixes in __popcll and __clzll of it. Integer pipes only, one
// 8-byte load and one 8-byte store; rounds sets the work per thread.
extern "C" __global__ void hash64(const unsigned long long* keys, unsigned long long* out, unsigned n, int rounds) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned long long x = keys[i];
    for (int r = 0; r < rounds; ++r) {
      x += 0x9e3779b97f4a7c15ull;
      unsigned long long z = x;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      z ^= z >> 31;
      x = ((z << 13) | (z >> 51)) ^ (unsigned long long)(__popcll(z) + __clzll(x | 1ull));
    }
    out[i] = x;
  }
}
