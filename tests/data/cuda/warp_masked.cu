// The lanes below `active` of each warp sum their doubles with shuffles that name exactly them
// (__activemask()), count the positive ones with a ballot, and meet at __syncwarp(mask); lane 0
// writes the warp's sum and count. A double is shuffled as two 32-bit halves (mov.b64 {lo, hi}).
extern "C" __global__ void warp_masked(const double* in, double* sums, int* positives, int active) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  double v = in[i];
  if (lane < active) {
    unsigned mask = __activemask();
    unsigned positive = __ballot_sync(mask, v > 0.0);
    for (int offset = 16; offset > 0; offset /= 2) {
      double other = __shfl_down_sync(mask, v, offset);
      if (lane + offset < active) v += other;
    }
    __syncwarp(mask);
    if (lane == 0) {
      sums[i / 32] = v;
      positives[i / 32] = __popc(positive);
    }
  }
}
