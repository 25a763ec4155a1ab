// Philox4x32-10 (Salmon et al. 2011), a thread per 128-bit counter (t, 0, 0, seed_hi) under the key
// (key0, key1): ten rounds of two 32 x 32 -> 64-bit products (mul.hi and mul.lo) and xors, the key
// bumped by the Weyl constants each round; four u32 outputs a thread, 4M threads, 64 MiB out.
// --nvcc-opt -DOUT, what is written, is the one thing the runs vary: 0 the four words (a uint4
// store), 1 four uniform floats (w >> 8) 2^-24 (a float4), 2 four normal floats by Box-Muller: u =
// ((w >> 8) + 1) 2^-24 in (0, 1], r = sqrtf(-2 logf(u0)), r cos(2 pi u1) and r sin(2 pi u1)
// (sinpif(2 u1 + 0.5) and sinpif(2 u1): libdevice, no table), and likewise from u2, u3.
#ifndef OUT
#define OUT 0
#endif
extern "C" __global__ void philox(unsigned* out, unsigned n4, unsigned key0, unsigned key1, unsigned seed_hi) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n4) return;
  unsigned c0 = t, c1 = 0u, c2 = 0u, c3 = seed_hi;
  unsigned k0 = key0, k1 = key1;
  for (int r = 0; r < 10; ++r) {
    unsigned hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    unsigned hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    unsigned n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
#if OUT == 0
  ((uint4*)out)[t] = make_uint4(c0, c1, c2, c3);
#elif OUT == 1
  const float s = 5.9604645e-8f;  // 2^-24
  ((float4*)out)[t] = make_float4((c0 >> 8) * s, (c1 >> 8) * s, (c2 >> 8) * s, (c3 >> 8) * s);
#else
  const float s = 5.9604645e-8f;
  float u0 = ((c0 >> 8) + 1u) * s, u1 = ((c1 >> 8) + 1u) * s;
  float u2 = ((c2 >> 8) + 1u) * s, u3 = ((c3 >> 8) + 1u) * s;
  float r0 = sqrtf(-2.0f * logf(u0)), r1 = sqrtf(-2.0f * logf(u2));
  float a0 = 2.0f * u1, a1 = 2.0f * u3;
  float s0 = sinpif(a0), co0 = sinpif(a0 + 0.5f);
  float s1 = sinpif(a1), co1 = sinpif(a1 + 0.5f);
  ((float4*)out)[t] = make_float4(r0 * co0, r0 * s0, r1 * co1, r1 * s1);
#endif
}
