// Unpacks n B-bit unsigned integers from a little-endian bit stream of u32 words (value i in bits
// [i B, i B + B)), a thread per value: one word loaded, or two (a funnel of 64 bits) when the value
// straddles a word boundary, then shifted and masked. --nvcc-opt -DB = 1, 12 or 27 (16M values read
// from 2, 24 or 54 MiB, written to 64 MiB; none, 1 in 4 or 26 in 32 of the values straddling) is
// the one thing the runs vary.
#ifndef B
#define B 12
#endif
extern "C" __global__ void bit_unpack(const unsigned* packed, unsigned* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned bit = i * B;
  unsigned w = bit >> 5, off = bit & 31u;
  unsigned v = packed[w] >> off;
  if (off + B > 32u) v |= packed[w + 1u] << (32u - off);
  out[i] = B == 32 ? v : v & ((1u << B) - 1u);
}
