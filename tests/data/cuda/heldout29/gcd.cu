// Greatest common divisors of 4M pairs of random u32 values, a thread per pair (data-dependent trip
// counts: lanes of a warp finish apart). --nvcc-opt -DALG, the algorithm, is the one thing the runs
// vary: 0 Euclid by remainders (about 19 rem.u32 steps a pair on average, each a long integer
// sequence on the GPU), 1 Stein's binary GCD with a branch (odd-odd pairs: the larger minus the
// smaller, trailing zeros dropped by brev and clz), 2 Stein's branch-free (min, max and the
// difference each step).
#ifndef ALG
#define ALG 0
#endif
__device__ __forceinline__ unsigned ctz(unsigned v) { return __clz(__brev(v)); }
extern "C" __global__ void gcd(const unsigned* a, const unsigned* b, unsigned* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned u = a[i], v = b[i];
#if ALG == 0
  while (v != 0) {
    unsigned r = u % v;
    u = v;
    v = r;
  }
  out[i] = u;
#else
  if (u == 0 || v == 0) {
    out[i] = u | v;
    return;
  }
  unsigned shift = ctz(u | v);
  u >>= ctz(u);
  v >>= ctz(v);
#if ALG == 1
  while (u != v) {
    if (u > v) {
      u -= v;
      u >>= ctz(u);
    } else {
      v -= u;
      v >>= ctz(v);
    }
  }
#else
  while (u != v) {
    unsigned lo = min(u, v), hi = max(u, v);
    unsigned dif = hi - lo;
    u = lo;
    v = dif >> ctz(dif);
  }
#endif
  out[i] = u << shift;
#endif
}
