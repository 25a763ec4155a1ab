// Layer normalisation of a rows x cols matrix, one warp per row: the lanes stride the row by 32 to sum
// it, a __shfl_xor_sync butterfly gives every lane the sum, mean = sum / cols; a second pass sums the
// squared deviations the same way, rstd = rsqrtf(var + 1e-5); a third pass writes
// (x - mean) rstd gamma[c] + beta[c]. The second and third passes re-read the row (L1 hits). Paired
// with layernorm_block.cu (one block per row) on the same matrix.
extern "C" __global__ void layernorm_warp(const float* in, const float* gamma, const float* beta, float* out,
                                          unsigned rows, unsigned cols) {
  unsigned r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (r >= rows) return;
  const float* x = in + (unsigned long long)r * cols;
  float* y = out + (unsigned long long)r * cols;
  float s = 0.0f;
  for (unsigned c = lane; c < cols; c += 32) s += x[c];
  for (int m = 16; m > 0; m /= 2) s += __shfl_xor_sync(0xffffffffu, s, m);
  float mean = s / (float)cols;
  float q = 0.0f;
  for (unsigned c = lane; c < cols; c += 32) {
    float d = x[c] - mean;
    q += d * d;
  }
  for (int m = 16; m > 0; m /= 2) q += __shfl_xor_sync(0xffffffffu, q, m);
  float rstd = rsqrtf(q / (float)cols + 1e-5f);
  for (unsigned c = lane; c < cols; c += 32) y[c] = (x[c] - mean) * rstd * gamma[c] + beta[c];
}
