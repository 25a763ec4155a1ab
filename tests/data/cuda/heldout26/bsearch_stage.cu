// Binary search (lower bound) of each query in a sorted array of n = 2^k u32 keys: k dependent loads
// per thread (Shar's form: a fixed trip count, no divergence), latency-bound, so the number of warps
// an SM holds sets the loads in flight. Each thread passes its result through a shared staging array
// of STAGE words (--nvcc-opt -DSTAGE=512, 6144 or 12288: 2, 24 or 48 KiB, as a fixed-capacity output
// tile would be; a block of 128 uses its first 128 words) before the coalesced store. STAGE is the one
// thing the runs vary: it sets the blocks of 128 an SM holds (16, 9 or 4 with the H100's 228 KiB).
#ifndef STAGE
#define STAGE 512
#endif
extern "C" __global__ void bsearch_stage(const unsigned* keys, const unsigned* queries, unsigned* out, unsigned n,
                                         unsigned nq) {
  __shared__ unsigned stage[STAGE];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned pos = 0;
  if (i < nq) {
    unsigned q = queries[i];
    for (unsigned step = n >> 1; step > 0; step >>= 1)
      if (keys[pos + step - 1] < q) pos += step;
    if (keys[pos] < q) pos += 1;
  }
  stage[threadIdx.x % STAGE] = pos;
  __syncthreads();
  if (i < nq) out[i] = stage[threadIdx.x % STAGE];
}
