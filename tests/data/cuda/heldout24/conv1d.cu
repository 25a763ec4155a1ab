// A 1D convolution (correlation) of n floats with a filter of 2r + 1 taps read from global memory
// (one broadcast load per tap), zero outside the signal: one thread per output. Radius r = 1, 4 or
// 16 sets the taps per output (3, 9, 33) and the reuse of each input through L1. No fmaf: with
// warpsim's --fmad=false each tap is a rounded multiply and a rounded add, in tap order.
extern "C" __global__ void conv1d(const float* in, const float* filter, float* out, int n, int r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = 0.0f;
    for (int k = -r; k <= r; ++k) {
      int j = i + k;
      if (j >= 0 && j < n) sum += filter[k + r] * in[j];
    }
    out[i] = sum;
  }
}
