// One edge-parallel relaxation pass of a shortest-path step: for each of m edges (src, dst, weight)
// a thread reads dist[src] and posts the candidate dist[src] + weight to dst with atomicMax on its
// complement, best[dst % nv] = max(best, ~cand) (so a zeroed array works and the result is the order-
// independent ~min over incoming edges; the return value unused: red.global.max). The edge lists, the
// one thing the runs vary: dst sequential (iota: a warp's 32 reductions on 32 neighbouring words) or
// random, and src random or sequential (iota: coalesced gathers of dist).
extern "C" __global__ void edge_relax(const unsigned* src, const unsigned* dst, const unsigned* weight,
                                      const unsigned* dist, unsigned* best, unsigned m, unsigned nv) {
  unsigned e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  unsigned s = src[e] % nv;
  unsigned cand = dist[s] + weight[e];
  atomicMax(&best[dst[e] % nv], ~cand);
}
