// A warp-shuffle reduction: each warp sums its 32 values with __shfl_down_sync, lane 0 adds the
// warp's sum to the total with a global atomic.
extern "C" __global__ void warp_sum(const float* in, float* total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, v);
}
