// Row-wise L2 normalisation of a rows x cols matrix (out row = in row / its Euclidean norm), one block
// per row: a block-stride loop sums the squares, a warp-shuffle sum per warp, the warps' sums through
// shared memory and a second shuffle sum in warp 0, which writes 1 / sqrt(sum) to shared memory; then a
// second pass over the row (an L1/L2 hit) scales it. Paired with l2norm_warp.cu (one warp per row).
extern "C" __global__ void l2norm_block(const float* in, float* out, unsigned cols) {
  __shared__ float warp_sums[32];
  __shared__ float scale;
  const float* row = in + (unsigned long long)blockIdx.x * cols;
  float* dst = out + (unsigned long long)blockIdx.x * cols;
  float s = 0.0f;
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) {
    float v = row[c];
    s += v * v;
  }
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
    if (lane == 0) scale = 1.0f / sqrtf(s);
  }
  __syncthreads();
  float k = scale;
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) dst[c] = row[c] * k;
}
