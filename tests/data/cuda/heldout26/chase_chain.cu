// Dependent pointer chasing, latency-bound: every thread starts at its own position of a table of n
// (a power of two) random u32 successors, cur = (global thread id * 2654435761) mod n, takes `hops`
// dependent steps cur = next[cur], and writes the sum (mod 2^32) of the positions it visited. Each
// step is one load whose address is the previous load's value, so a thread's time is hops times the
// memory latency. The runs vary only the grid: 1, 8 or 66 blocks of 128 threads (1 SM, 8 SMs, half the
// H100), 128, 1,024 or 8,448 chains over a 128 MiB table (larger than the L2).
extern "C" __global__ void chase_chain(const unsigned* next, unsigned* out, unsigned n, unsigned hops) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned cur = (t * 2654435761u) & (n - 1u);
  unsigned acc = 0u;
  for (unsigned h = 0; h < hops; ++h) {
    cur = next[cur];
    acc += cur;
  }
  out[t] = acc;
}
