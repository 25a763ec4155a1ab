// Packs a predicate over 16M floats into a bitmap (bit i of the u32 array: x[i] < thr), a thread
// per element, a warp per word. --nvcc-opt -DALG, how a word's 32 bits are gathered, is the one
// thing the runs vary: 0 __ballot_sync, lane 0 stores the word; 1 each lane whose predicate holds
// sets its bit with a global atomicOr (up to 32 atomics of a warp on one address, the result
// unused); 2 the same into a per-block shared word array (shared atomics), then one store a word
// after a barrier; 3 an OR butterfly of (pred << lane) over five __shfl_xor_sync steps, lane 0
// stores.
#ifndef ALG
#define ALG 0
#endif
extern "C" __global__ void bitmap_pack(const float* x, unsigned* bits, unsigned n, float thr) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31u;
#if ALG == 2
  __shared__ unsigned words[32];
  if (threadIdx.x < 32u) words[threadIdx.x] = 0;
  __syncthreads();
  unsigned m = i < n ? (unsigned)(x[i] < thr) << lane : 0u;
  if (m) atomicOr(&words[threadIdx.x >> 5], m);
  __syncthreads();
  if (threadIdx.x < blockDim.x / 32u && blockIdx.x * (blockDim.x / 32u) + threadIdx.x < (n + 31u) / 32u)
    bits[blockIdx.x * (blockDim.x / 32u) + threadIdx.x] = words[threadIdx.x];
#else
  if (i >= n) return;
  bool p = x[i] < thr;
#if ALG == 0
  unsigned w = __ballot_sync(0xffffffffu, p);
  if (lane == 0) bits[i >> 5] = w;
#elif ALG == 1
  unsigned m = (unsigned)p << lane;
  if (m) atomicOr(&bits[i >> 5], m);
#else
  unsigned w = (unsigned)p << lane;
#pragma unroll
  for (unsigned off = 16; off > 0; off >>= 1) w |= __shfl_xor_sync(0xffffffffu, w, off);
  if (lane == 0) bits[i >> 5] = w;
#endif
#endif
}
