// Merge path: merges two sorted u32 arrays a (na) and b (nb) into c (na + nb), a thread per ITEMS
// consecutive outputs: a binary search along the thread's cross diagonal of the merge matrix finds
// how many of its first outputs come from a (up to 23 dependent pairs of loads), then a sequential
// merge writes its ITEMS outputs (ties taken from a first). --nvcc-opt -DITEMS = 4, 16 or 64 (the
// grid shrinks to match) is the one thing the runs vary: fewer searches a thread against longer
// per-lane runs (each lane walking its own stretch of a, b and c, ITEMS words from its
// neighbours').
#ifndef ITEMS
#define ITEMS 16
#endif
extern "C" __global__ void merge_path(const unsigned* a, const unsigned* b, unsigned* c, unsigned na,
                                      unsigned nb) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned total = na + nb;
  unsigned diag = t * ITEMS;
  if (diag >= total) return;
  // Lowest i in [lo, hi] with a[i] > b[diag - 1 - i] (i outputs from a among the first diag).
  unsigned lo = diag > nb ? diag - nb : 0u;
  unsigned hi = diag < na ? diag : na;
  while (lo < hi) {
    unsigned mid = (lo + hi) >> 1;
    if (a[mid] <= b[diag - 1u - mid]) lo = mid + 1u;
    else hi = mid;
  }
  unsigned i = lo, j = diag - lo;
  unsigned end = diag + ITEMS < total ? diag + ITEMS : total;
  for (unsigned k = diag; k < end; ++k) {
    bool take_a = j >= nb || (i < na && a[i] <= b[j]);
    if (take_a) c[k] = a[i++];
    else c[k] = b[j++];
  }
}
