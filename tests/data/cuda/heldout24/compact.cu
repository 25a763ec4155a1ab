// Stream compaction (a filter): the indices of the elements above a threshold are appended to
// out_idx, warp-aggregated: a __ballot_sync of the predicate, one atomicAdd of its __popc per warp on
// the global counter by lane 0, the base broadcast with __shfl_sync, and each kept lane writing at
// base + the number of kept lanes below it. The order of the warps' slices is the order in which the
// atomics land. n must be a multiple of 32 and the grid cover it exactly (all lanes run the ballot).
extern "C" __global__ void compact(const float* in, unsigned* out_idx, unsigned* count, unsigned n, float threshold) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x % 32;
  bool keep = i < n && in[i] > threshold;
  unsigned mask = __ballot_sync(0xffffffffu, keep);
  unsigned base = 0;
  if (lane == 0 && mask != 0) base = atomicAdd(count, __popc(mask));
  base = __shfl_sync(0xffffffffu, base, 0);
  if (keep) out_idx[base + __popc(mask & ((1u << lane) - 1u))] = i;
}
