// Collatz stopping times: thread i starts from x = start[i - i % group] + 1 (64-bit) and counts the
// steps x -> x / 2 (even) or 3 x + 1 (odd, written as a select) until x = 1, at most 1,000, and writes
// the count. The trip count differs from value to value (for starts below 2^20: 0 to a few hundred),
// and a warp runs until its longest lane finishes. The runs vary only `group`, how many consecutive
// lanes share a start value: 1 (32 different trip counts a warp), 4 (8) or 32 (every lane the same:
// no divergence, a warp's time the trip of one value instead of the maximum of 32).
extern "C" __global__ void collatz(const unsigned* start, unsigned* steps, unsigned n, unsigned group) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned long long x = (unsigned long long)start[i - i % group] + 1ull;
    unsigned count = 0;
    while (x != 1ull && count < 1000u) {
      x = (x & 1ull) ? 3ull * x + 1ull : x >> 1;
      ++count;
    }
    steps[i] = count;
  }
}
