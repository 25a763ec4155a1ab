// Sums along one dimension of a rows x cols row-major float matrix, the mapping of threads to the
// work varied by --nvcc-opt -DVAR (the one thing the runs vary; the grid follows from it):
//   0: column sums, a thread per column (out[c], cols threads): each step a warp reads 32 neighbouring
//      floats of one row (coalesced), rows sequential steps;
//   1: row sums, a thread per row (out[r], rows threads): each step the 32 lanes read 32 different rows
//      (stride cols floats: a sector each, reused from L1 over the next 7 steps);
//   2: row sums, a warp per row (rows warps): lane l adds columns l, l + 32, ... (coalesced), then a
//      __shfl_xor_sync butterfly; lane 0 writes.
// Each thread's additions run in index order.
#ifndef VAR
#define VAR 0
#endif
extern "C" __global__ void rowcol_sum(const float* A, float* out, unsigned rows, unsigned cols) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#if VAR == 0
  if (g >= cols) return;
  for (unsigned r = 0; r < rows; ++r) acc += A[r * cols + g];
  out[g] = acc;
#elif VAR == 1
  if (g >= rows) return;
  const float* row = A + g * cols;
  for (unsigned c = 0; c < cols; ++c) acc += row[c];
  out[g] = acc;
#else
  unsigned w = g / 32, lane = g % 32;
  if (w >= rows) return;
  const float* row = A + w * cols;
  for (unsigned c = lane; c < cols; c += 32) acc += row[c];
  for (int m = 16; m > 0; m /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, m);
  if (lane == 0) out[w] = acc;
#endif
}
