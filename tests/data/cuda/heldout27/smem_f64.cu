// Shared-memory double loads at a lane stride of S doubles (--nvcc-opt -DS=1, 2, 32 or 33, the one
// thing the runs vary): each block stages the same 1,120-double table (8,960 B, every run the same
// occupancy), then each thread adds iters values, sh[lane S + ((it + warp) mod 32)], it = 0, 1, ...,
// (one DADD each, in order; warp the global warp index) and writes its sum. A warp's 32 8-byte loads
// span 256 B: S = 1 is the conflict-free minimum (two 128-byte halves), S = 2 touches each bank
// pair twice a half-warp (2-way), S = 32 puts every lane on the same two banks (16-way a half-warp),
// S = 33 offsets each lane by one bank pair (conflict-free again).
#ifndef S
#define S 1
#endif
#define TABLE 1120
extern "C" __global__ void smem_f64(const double* table, double* out, unsigned iters) {
  __shared__ double sh[TABLE];
  for (unsigned i = threadIdx.x; i < TABLE; i += blockDim.x) sh[i] = table[i];
  __syncthreads();
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x % 32, warp = g / 32;
  double acc = 0.0;
  for (unsigned it = 0; it < iters; ++it) acc += sh[lane * S + ((it + warp) & 31u)];
  out[g] = acc;
}
