// One k step of Floyd-Warshall on an n x n distance matrix (row-major), out of place:
// out[i][j] = min(in[i][j], in[i][k] + in[k][j]), a thread per element on a 2D grid (blockDim.x
// along j): in[i][k] is one word per row (a broadcast within a row of threads), in[k][j] one row every
// block re-reads (L2). --nvcc-opt -DFLOATS=1 makes the distances floats (an f32 add and min.f32)
// instead of u32 (an add and min.u32), and the block shape (32 x 8, 16 x 16 or 256 x 1) is the other
// thing the runs vary, one at a time.
#ifndef FLOATS
#define FLOATS 0
#endif
#if FLOATS
extern "C" __global__ void fw_step(const float* in, float* out, unsigned n, unsigned k) {
#else
extern "C" __global__ void fw_step(const unsigned* in, unsigned* out, unsigned n, unsigned k) {
#endif
  unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) out[i * n + j] = min(in[i * n + j], in[i * n + k] + in[k * n + j]);
}
