// Each thread sums 256 floats spaced T = gridDim.x * blockDim.x apart (coalesced across the warp),
// out[t] = x[t] + x[t + T] + ... + x[t + 255 T], in that order, on a grid of 2 blocks of 256 an SM
// (16 warps: too few to cover DRAM latency one load at a time). The loop is unrolled UNROLL times
// (--nvcc-opt -DUNROLL=1, 2, 4 or 8, the one thing the runs vary), its trip loading its UNROLL values
// into registers (__ldg, ld.global.nc) before adding them: with 1 each load waits for the previous add
// (one load in flight a warp), with U the U loads of a trip are in flight together. (With plain loads
// NVRTC's PTX interleaves each load with its add and only ptxas hoists them; through __ldg the PTX
// order carries the batching too.) The additions stay in order, so every run gives the same bits.
#ifndef UNROLL
#define UNROLL 1
#endif
extern "C" __global__ void unroll_sum(const float* x, float* out) {
  unsigned T = gridDim.x * blockDim.x;
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma unroll 1
  for (unsigned k = 0; k < 256; k += UNROLL) {
    float v[UNROLL];
#pragma unroll
    for (unsigned u = 0; u < UNROLL; ++u) v[u] = __ldg(&x[t + (k + u) * T]);
#pragma unroll
    for (unsigned u = 0; u < UNROLL; ++u) acc += v[u];
  }
  out[t] = acc;
}
