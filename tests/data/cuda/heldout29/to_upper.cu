// Upper-cases ASCII text (the bytes of an unsigned char array, below 128; others are copied; n a
// multiple of 16): 'a'..'z' become 'A'..'Z', out of place, 64 MiB. --nvcc-opt -DWIDTH, the bytes a
// thread handles, is the one thing the runs vary: 1 (a byte load, a range test and a byte store a
// thread), 4 (a u32 word, SWAR: the bytes at or above 'a' and below '{' found with two subtractions
// of 0x80-tagged bytes, 0x20 cleared in those) and 16 (a uint4, the same SWAR on each of its
// words).
#ifndef WIDTH
#define WIDTH 4
#endif
__device__ __forceinline__ unsigned upper4(unsigned x) {
  unsigned h = x | 0x80808080u;
  unsigned ge_a = h - 0x61616161u;  // high bit of a byte: byte >= 'a' (no borrow crosses a byte)
  unsigned ge_brace = h - 0x7b7b7b7bu;  // high bit: byte >= '{'
  unsigned lower = ge_a & ~ge_brace & ~x & 0x80808080u;
  return x ^ (lower >> 2);
}
#if WIDTH == 1
extern "C" __global__ void to_upper(const unsigned char* text, unsigned char* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned char ch = text[i];
  out[i] = (ch >= 'a' && ch <= 'z') ? (unsigned char)(ch - 32) : ch;
}
#elif WIDTH == 4
extern "C" __global__ void to_upper(const unsigned char* text, unsigned char* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n / 4u) return;
  ((unsigned*)out)[i] = upper4(((const unsigned*)text)[i]);
}
#else
extern "C" __global__ void to_upper(const unsigned char* text, unsigned char* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n / 16u) return;
  uint4 v = ((const uint4*)text)[i];
  v.x = upper4(v.x);
  v.y = upper4(v.y);
  v.z = upper4(v.z);
  v.w = upper4(v.w);
  ((uint4*)out)[i] = v;
}
#endif
