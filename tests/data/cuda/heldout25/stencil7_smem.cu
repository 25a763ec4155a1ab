// A 7-point 1D stencil (radius 3, symmetric weights 0.4, 0.2, 0.08, 0.02; zero outside the signal)
// through a shared tile: each block stages its blockDim.x inputs plus a 3-point halo on each side
// (loaded by the first 3 threads), waits at a barrier, and writes one output per thread. The result
// does not depend on the block size, which is the one thing its runs vary (64 to 1,024 threads):
// halo loads, barrier waits and blocks per SM change, the bytes moved do not.
extern "C" __global__ void stencil7_smem(const float* in, float* out, unsigned n) {
  __shared__ float tile[1024 + 6];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x + 3;
  tile[t] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < 3) {
    unsigned lo = blockIdx.x * blockDim.x + threadIdx.x - 3, hi = i + blockDim.x;
    tile[threadIdx.x] = (blockIdx.x > 0 && lo < n) ? in[lo] : 0.0f;
    tile[t + blockDim.x] = hi < n ? in[hi] : 0.0f;
  }
  __syncthreads();
  if (i < n)
    out[i] = 0.4f * tile[t] + 0.2f * (tile[t - 1] + tile[t + 1]) + 0.08f * (tile[t - 2] + tile[t + 2]) +
             0.02f * (tile[t - 3] + tile[t + 3]);
}
