// PMPP 11.2: Kogge-Stone inclusive scan of one section of SECTION elements per block (blockDim.x
// = SECTION); y holds each section's inclusive prefix sums.
#define SECTION 256
extern "C" __global__ void scan_kogge_stone(const float* x, float* y, unsigned n) {
  __shared__ float XY[SECTION];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  XY[threadIdx.x] = i < n ? x[i] : 0.0f;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    float temp = 0.0f;
    if (threadIdx.x >= stride) temp = XY[threadIdx.x] + XY[threadIdx.x - stride];
    __syncthreads();
    if (threadIdx.x >= stride) XY[threadIdx.x] = temp;
  }
  if (i < n) y[i] = XY[threadIdx.x];
}
