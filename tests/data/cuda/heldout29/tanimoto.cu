// Tanimoto similarity of one query fingerprint against a database of W-word (32 W-bit) fingerprints
// stored one after another, 64 MiB in all, a thread per fingerprint: sum popc(q & f) / sum popc(q |
// f) (an IEEE division), f read as uint4 vectors, the query through __ldg (every lane the same
// words). --nvcc-opt -DW = 4, 16 or 64 (128-, 512- or 2,048-bit fingerprints: 4M, 1M or 256K of
// them; a warp's uint4 loads 16, 64 or 256 bytes apart, each 128-byte line read over 1, 4 or 8
// successive loads) is the one thing the runs vary.
#ifndef W
#define W 16
#endif
extern "C" __global__ void tanimoto(const unsigned* db, const unsigned* query, float* sim, unsigned n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const uint4* f = (const uint4*)(db + (size_t)t * W);
  const uint4* q = (const uint4*)query;
  unsigned inter = 0, uni = 0;
#pragma unroll 4
  for (int k = 0; k < W / 4; ++k) {
    uint4 a = f[k];
    uint4 b = __ldg(&q[k]);
    inter += __popc(a.x & b.x) + __popc(a.y & b.y) + __popc(a.z & b.z) + __popc(a.w & b.w);
    uni += __popc(a.x | b.x) + __popc(a.y | b.y) + __popc(a.z | b.z) + __popc(a.w | b.w);
  }
  sim[t] = (float)inter / (float)uni;
}
