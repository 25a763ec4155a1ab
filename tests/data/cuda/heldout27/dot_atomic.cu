// A dot product of n quantised values (a[i] and b[i] small u32 integers, converted to float) summed
// into one float with atomicAdd; each thread first adds 16 products (blockDim.x apart, coalesced). The
// level at which the atomics are aggregated is the one thing the runs vary (--nvcc-opt -DLEVEL):
//   0: per thread, one atomicAdd to the single address for every thread (n / 16 same-address float
//      atomics);
//   1: per warp, a __shfl_down_sync sum, lane 0 adds (n / 512 atomics);
//   2: per block, the warps' sums through shared memory and a second shuffle sum in warp 0, thread 0
//      adds (n / 4096 atomics).
// Every product and partial sum is an integer below 2^24, so every order of the additions gives the
// same f32 bits on the GPU and on the simulator.
#ifndef LEVEL
#define LEVEL 0
#endif
extern "C" __global__ void dot_atomic(const unsigned* a, const unsigned* b, float* sum, unsigned n) {
  unsigned tid = threadIdx.x, bd = blockDim.x;
  unsigned base = blockIdx.x * bd * 16 + tid;
  float v = 0.0f;
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    unsigned i = base + k * bd;
    if (i < n) v += (float)a[i] * (float)b[i];
  }
#if LEVEL == 0
  atomicAdd(sum, v);
#else
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
#if LEVEL == 1
  if (tid % 32 == 0) atomicAdd(sum, v);
#else
  __shared__ float ws[32];
  unsigned lane = tid % 32, warp = tid / 32;
  if (lane == 0) ws[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < bd / 32 ? ws[lane] : 0.0f;
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) atomicAdd(sum, v);
  }
#endif
#endif
}
