// z = a x + y over n floats in a grid-stride loop (out of place; each element a * x[i] then + y[i],
// two roundings with --fmad=false). The grid is the one thing the runs vary: 132 blocks of 256 (one a
// SM, 8 warps: each thread runs ~500 iterations, too few warps to cover DRAM latency), 528 (4 a SM),
// 2,112 (16 a SM, a full 64-warp load, ~31 iterations) and n / 256 (one element a thread, no loop).
extern "C" __global__ void grid_stride_axpy(const float* x, const float* y, float* z, float a, unsigned n) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) z[i] = a * x[i] + y[i];
}
