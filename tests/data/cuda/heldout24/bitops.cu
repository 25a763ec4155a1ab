// Integer bit manipulation, one key per thread: each round scrambles the word with a bit reversal
// (__brev) and shifts, counts its set bits (__popc) into a running sum, and feeds its low byte into a
// bitwise CRC-32 (reflected polynomial 0xEDB88320, 8 shift-and-conditional-xor steps a byte, the
// table-free loop of small embedded CRCs). Integer ALU only, one load and one store; rounds sets the
// work per thread.
extern "C" __global__ void bitops(const unsigned* keys, unsigned* out, unsigned n, int rounds) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned v = keys[i], crc = 0xffffffffu, bits = 0u;
    for (int r = 0; r < rounds; ++r) {
      v = __brev(v) ^ (v << 5) ^ (v >> 3) ^ (unsigned)r;
      bits += __popc(v);
      crc ^= v & 0xffu;
#pragma unroll
      for (int b = 0; b < 8; ++b) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    out[i] = ~crc ^ (bits << 24);
  }
}
