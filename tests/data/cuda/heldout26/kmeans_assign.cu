// The assignment step of k-means on 3D points: each block stages the k centroids (x, y, z interleaved,
// at most 64) in shared memory, and each thread finds the nearest centroid of its point (structure of
// arrays px, py, pz) by squared Euclidean distance, the first one on a tie, and writes its index.
// Compute-bound (k subtract-multiply-add distance evaluations from broadcast shared reads); its runs
// vary only the block size (64 to 512 threads): the number of centroid copies and barriers, and how
// the blocks pack into an SM.
extern "C" __global__ void kmeans_assign(const float* px, const float* py, const float* pz, const float* cent,
                                         unsigned* label, unsigned n, unsigned k) {
  __shared__ float c[3 * 64];
  for (unsigned j = threadIdx.x; j < 3 * k; j += blockDim.x) c[j] = cent[j];
  __syncthreads();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = px[i], y = py[i], z = pz[i];
    float best = 3.4e38f;
    unsigned arg = 0;
    for (unsigned j = 0; j < k; ++j) {
      float dx = x - c[3 * j], dy = y - c[3 * j + 1], dz = z - c[3 * j + 2];
      float d = dx * dx + dy * dy + dz * dz;
      if (d < best) {
        best = d;
        arg = j;
      }
    }
    label[i] = arg;
  }
}
