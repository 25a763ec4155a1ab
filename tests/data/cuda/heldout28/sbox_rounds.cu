// ROUNDS rounds of a table-driven byte mixer over n u32 words, a thread per word (blocks of 256):
// x = T[x & 255] ^ (x >> 8) ^ (x << 21) ^ r, a data-dependent lookup in a 256-entry u32 table each
// round (32 random addresses a warp). --nvcc-opt -DSMEM (where T is read from: 0 global memory through
// __ldg, L1-resident; 1 a copy in shared memory staged by every block, random bank conflicts) and
// -DROUNDS (8 or 32) are what the runs vary.
#ifndef SMEM
#define SMEM 0
#endif
#ifndef ROUNDS
#define ROUNDS 8
#endif
extern "C" __global__ void sbox_rounds(const unsigned* in, const unsigned* table, unsigned* out, unsigned n) {
#if SMEM
  __shared__ unsigned T[256];
  for (unsigned k = threadIdx.x; k < 256u; k += blockDim.x) T[k] = table[k];
  __syncthreads();
#endif
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = in[i];
  for (unsigned r = 0; r < ROUNDS; ++r) {
#if SMEM
    unsigned t = T[x & 255u];
#else
    unsigned t = __ldg(&table[x & 255u]);
#endif
    x = t ^ (x >> 8) ^ (x << 21) ^ r;
  }
  out[i] = x;
}
