// A data-dependent branch: each thread compares its key with a threshold and runs one of two f32
// loops of iters steps on its value (a logistic-map step, 3 dependent operations, or a quadratic
// step, 3 dependent operations). Whether a warp runs one path or both is set by the data: keys all
// below the threshold (every lane takes the first path), random keys with the threshold halfway
// (nearly every warp runs both paths one after the other), or keys sorted so that each warp's lanes
// agree (half the warps take each path, none diverges).
extern "C" __global__ void branch_data(const unsigned* key, const float* x, float* out, unsigned n,
                                       unsigned threshold, int iters) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    if (key[i] < threshold) {
      for (int k = 0; k < iters; ++k) v = 3.9f * v * (1.0f - v);
    } else {
      for (int k = 0; k < iters; ++k) v = v * v * 0.5f + 0.25f;
    }
    out[i] = v;
  }
}
