// Per-thread private histograms: each thread (1,024 blocks of 256) counts the top nibbles of 64 u32
// keys read a grid's width apart (coalesced) into 16 private counters, then writes sum_b count_b^2
// (the number of ordered key pairs sharing a nibble, itself included). --nvcc-opt -DWHERE, where
// the 16 counters live, is the one thing the runs vary: 0 a local array indexed by the nibble
// (local memory, L1), 1 shared memory thread-major, counter b of thread t at 16 t + b (a warp's 32
// counters for one b on 2 banks: 16-way conflicts), 2 shared memory bin-major, at b blockDim + t
// (conflict-free), 3 registers: 16 counters each incremented by a compare (16 integer adds a key,
// no indexing).
#ifndef WHERE
#define WHERE 0
#endif
#define KEYS 64
extern "C" __global__ void private_hist(const unsigned* keys, unsigned* out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned stride = gridDim.x * blockDim.x;
  unsigned total = 0;
#if WHERE == 0
  unsigned cnt[16];
  for (int b = 0; b < 16; ++b) cnt[b] = 0;
  for (int k = 0; k < KEYS; ++k) cnt[keys[t + k * stride] >> 28]++;
  for (int b = 0; b < 16; ++b) total += cnt[b] * cnt[b];
#elif WHERE == 1 || WHERE == 2
  __shared__ unsigned cnt[16 * 256];
#if WHERE == 1
#define AT(b) cnt[threadIdx.x * 16u + (b)]
#else
#define AT(b) cnt[(b) * blockDim.x + threadIdx.x]
#endif
  for (unsigned b = 0; b < 16; ++b) AT(b) = 0;
  for (int k = 0; k < KEYS; ++k) AT(keys[t + k * stride] >> 28)++;
  for (unsigned b = 0; b < 16; ++b) total += AT(b) * AT(b);
#else
  unsigned cnt[16];
#pragma unroll
  for (int b = 0; b < 16; ++b) cnt[b] = 0;
  for (int k = 0; k < KEYS; ++k) {
    unsigned d = keys[t + k * stride] >> 28;
#pragma unroll
    for (int b = 0; b < 16; ++b) cnt[b] += d == (unsigned)b;
  }
#pragma unroll
  for (int b = 0; b < 16; ++b) total += cnt[b] * cnt[b];
#endif
  out[t] = total;
}
