// A gather of 16-byte records through an index array: out[i] is the dot product of the float4 record
// table[idx[i]] with (wx, wy, wz, ww), left to right, each product and sum rounded (--fmad=false).
// idx and out are coalesced; the record reads are as local as the indices: sorted and contiguous
// (every byte of every sector used), sorted with a stride of two records (half of each 32-byte
// sector used), or random over a 128 MiB table (larger than the L2).
extern "C" __global__ void gather_rec(const float4* table, const unsigned* idx, float* out, unsigned n, float wx,
                                      float wy, float wz, float ww) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = table[idx[i]];
    out[i] = v.x * wx + v.y * wy + v.z * wz + v.w * ww;
  }
}
