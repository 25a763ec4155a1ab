// Schoolbook products of big unsigned integers, a thread per pair: a and b of L u32 limbs each
// (least significant first, stored one number after another, read as uint4), the 2L-limb product
// built in registers from L^2 32 x 32 -> 64-bit multiply-adds with carries (mul.wide.u32 and 64-bit
// adds), written as uint4. --nvcc-opt -DL = 8, 16 or 32 (256-, 512- or 1,024-bit numbers: 512K,
// 256K or 128K pairs, the same 16 MiB of each input and 32 MiB of products; L^2 multiply-adds for
// 2L limbs read, 4, 8 or 16 a limb; about 40, 70 or 130 registers a thread: 6, 3 or 1 blocks of 256
// an SM) is the one thing the runs vary.
#ifndef L
#define L 16
#endif
extern "C" __global__ void bigint_mul(const unsigned* a, const unsigned* b, unsigned* out, unsigned n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  unsigned x[L], r[2 * L];
  const uint4* pa = (const uint4*)(a + (size_t)t * L);
  const uint4* pb = (const uint4*)(b + (size_t)t * L);
#pragma unroll
  for (int k = 0; k < L / 4; ++k) {
    uint4 v = pa[k];
    x[4 * k] = v.x;
    x[4 * k + 1] = v.y;
    x[4 * k + 2] = v.z;
    x[4 * k + 3] = v.w;
  }
#pragma unroll
  for (int k = 0; k < 2 * L; ++k) r[k] = 0;
#pragma unroll
  for (int k = 0; k < L / 4; ++k) {
    uint4 v = pb[k];
    unsigned y[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int j = 4 * k + q;
      unsigned long long carry = 0;
#pragma unroll
      for (int i = 0; i < L; ++i) {
        unsigned long long s = (unsigned long long)x[i] * y[q] + r[i + j] + carry;
        r[i + j] = (unsigned)s;
        carry = s >> 32;
      }
      r[j + L] = (unsigned)carry;
    }
  }
  uint4* po = (uint4*)(out + (size_t)t * 2 * L);
#pragma unroll
  for (int k = 0; k < L / 2; ++k) po[k] = make_uint4(r[4 * k], r[4 * k + 1], r[4 * k + 2], r[4 * k + 3]);
}
