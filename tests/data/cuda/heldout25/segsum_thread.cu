// The row sums of segsum_warp.cu (rows of lens[r] floats at vals + r * stride), one thread per row:
// each thread walks its row alone, so a warp's load touches 32 rows stride * 4 bytes apart (one
// sector each, reused from L1 over the next 7 columns) and runs as many iterations as its longest
// row.
extern "C" __global__ void segsum_thread(const float* vals, const unsigned* lens, float* out, unsigned rows,
                                         unsigned stride) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float* row = vals + (unsigned long long)r * stride;
    unsigned len = lens[r];
    float s = 0.0f;
    for (unsigned c = 0; c < len; ++c) s += row[c];
    out[r] = s;
  }
}
