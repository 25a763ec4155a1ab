// PMPP 11.4: Brent-Kung inclusive scan of one section of 2 * blockDim.x elements per block (a
// reduction tree, then the reverse tree that distributes the partial sums).
#define SECTION 512
extern "C" __global__ void scan_brent_kung(const float* x, float* y, unsigned n) {
  __shared__ float XY[SECTION];
  unsigned i = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  XY[threadIdx.x] = i < n ? x[i] : 0.0f;
  XY[threadIdx.x + blockDim.x] = i + blockDim.x < n ? x[i + blockDim.x] : 0.0f;
  for (unsigned stride = 1; stride <= blockDim.x; stride *= 2) {
    __syncthreads();
    unsigned index = (threadIdx.x + 1) * 2 * stride - 1;
    if (index < SECTION) XY[index] += XY[index - stride];
  }
  for (unsigned stride = SECTION / 4; stride > 0; stride /= 2) {
    __syncthreads();
    unsigned index = (threadIdx.x + 1) * stride * 2 - 1;
    if (index + stride < SECTION) XY[index + stride] += XY[index];
  }
  __syncthreads();
  if (i < n) y[i] = XY[threadIdx.x];
  if (i + blockDim.x < n) y[i + blockDim.x] = XY[threadIdx.x + blockDim.x];
}
