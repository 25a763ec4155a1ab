// Rows of a rows x cols matrix (cols a multiple of 4) moved through an index array, as float4: the
// gather out[r] = in[idx[r]] (an embedding-table lookup, or a row permutation applied by its inverse)
// or, with --nvcc-opt -DSCATTER, the scatter out[idx[r]] = in[r] (idx then a permutation). Blocks of
// blockDim.x x blockDim.y threads: blockDim.y rows per block, blockDim.x float4 columns at a time. The
// access pattern is set by idx: identity, reversed, random with repeats (gather only).
extern "C" __global__ void row_permute(const float4* in, float4* out, const unsigned* idx, unsigned rows,
                                       unsigned cols) {
  unsigned r = blockIdx.x * blockDim.y + threadIdx.y;
  if (r < rows) {
    unsigned cols4 = cols / 4;
#ifdef SCATTER
    unsigned long long src = r, dst = idx[r];
#else
    unsigned long long src = idx[r], dst = r;
#endif
    for (unsigned c = threadIdx.x; c < cols4; c += blockDim.x) out[dst * cols4 + c] = in[src * cols4 + c];
  }
}
