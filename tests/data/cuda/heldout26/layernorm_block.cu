// Layer normalisation of a rows x cols matrix, one block per row (the block size is the run's): a
// block-stride loop sums the row, a __shfl_xor_sync butterfly per warp, the warps' sums through shared
// memory, and every thread adds them in warp order, mean = sum / cols; a second pass sums the squared
// deviations the same way (a second shared array), rstd = rsqrtf(var + 1e-5); a third pass writes
// (x - mean) rstd gamma[c] + beta[c]. Paired with layernorm_warp.cu (one warp per row).
extern "C" __global__ void layernorm_block(const float* in, const float* gamma, const float* beta, float* out,
                                           unsigned cols) {
  __shared__ float ws[32], wq[32];
  const float* x = in + (unsigned long long)blockIdx.x * cols;
  float* y = out + (unsigned long long)blockIdx.x * cols;
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, nw = blockDim.x / 32;
  float s = 0.0f;
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) s += x[c];
  for (int m = 16; m > 0; m /= 2) s += __shfl_xor_sync(0xffffffffu, s, m);
  if (lane == 0) ws[warp] = s;
  __syncthreads();
  s = 0.0f;
  for (unsigned w = 0; w < nw; ++w) s += ws[w];
  float mean = s / (float)cols;
  float q = 0.0f;
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) {
    float d = x[c] - mean;
    q += d * d;
  }
  for (int m = 16; m > 0; m /= 2) q += __shfl_xor_sync(0xffffffffu, q, m);
  if (lane == 0) wq[warp] = q;
  __syncthreads();
  q = 0.0f;
  for (unsigned w = 0; w < nw; ++w) q += wq[w];
  float rstd = rsqrtf(q / (float)cols + 1e-5f);
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) y[c] = (x[c] - mean) * rstd * gamma[c] + beta[c];
}
