// PMPP 15.5: one level of a vertex-centric BFS with a frontier: each thread takes one vertex of
// the current frontier, visits its neighbours (CSR), and appends each unvisited one to the next
// frontier, claimed with atomicCAS on its level.
extern "C" __global__ void bfs_frontier(const unsigned* row_ptr, const unsigned* col_idx, unsigned* level,
                                        const unsigned* frontier, unsigned frontier_size, unsigned* next,
                                        unsigned* next_size, unsigned current) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < frontier_size) {
    unsigned v = frontier[i];
    for (unsigned e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
      unsigned u = col_idx[e];
      if (atomicCAS(&level[u], 0xffffffffu, current + 1) == 0xffffffffu) next[atomicAdd(next_size, 1u)] = u;
    }
  }
}
