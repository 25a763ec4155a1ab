// A segmented (row) sum of variable-length rows, one warp per row: row r holds lens[r] <= stride
// floats at vals + r * stride (a padded layout, as ELL or a batch of ragged sequences keeps it); the
// lanes stride the row by 32, a __shfl_xor_sync butterfly adds the 32 partial sums, and lane 0 writes
// out[r]. The row lengths set the work and how many lanes idle: all 128, uniform in 0..256 (the same
// mean, lanes of short rows idle while long rows finish) or uniform in 0..32 (one load per lane at
// most).
extern "C" __global__ void segsum_warp(const float* vals, const unsigned* lens, float* out, unsigned rows,
                                       unsigned stride) {
  unsigned r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  unsigned lane = threadIdx.x % 32;
  if (r < rows) {
    const float* row = vals + (unsigned long long)r * stride;
    unsigned len = lens[r];
    float s = 0.0f;
    for (unsigned c = lane; c < len; c += 32) s += row[c];
    for (int m = 16; m > 0; m /= 2) s += __shfl_xor_sync(0xffffffffu, s, m);
    if (lane == 0) out[r] = s;
  }
}
