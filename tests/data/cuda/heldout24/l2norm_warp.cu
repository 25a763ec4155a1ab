// Row-wise L2 normalisation as l2norm_block.cu, one warp per row (blockDim.x / 32 rows per block): the
// lanes stride the row by 32, a __shfl_xor_sync butterfly leaves the sum of squares in every lane, and
// the same warp scales the row on a second pass. No shared memory and no barrier; with long rows and
// few of them the grid is small (1,024 rows of 4,096 floats: 128 blocks of 8 warps).
extern "C" __global__ void l2norm_warp(const float* in, float* out, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  unsigned lane = threadIdx.x % 32;
  if (r < rows) {
    const float* row = in + (unsigned long long)r * cols;
    float* dst = out + (unsigned long long)r * cols;
    float s = 0.0f;
    for (unsigned c = lane; c < cols; c += 32) {
      float v = row[c];
      s += v * v;
    }
    for (int mask = 16; mask > 0; mask /= 2) s += __shfl_xor_sync(0xffffffffu, s, mask);
    float k = 1.0f / sqrtf(s);
    for (unsigned c = lane; c < cols; c += 32) dst[c] = row[c] * k;
  }
}
