// CUDA Handbook 7.3 (WriteClockValues, kernels/report_clocks.kir in CUDA C): every thread writes
// clock() to its slot, block-major.
extern "C" __global__ void report_clocks(unsigned* out) {
  unsigned linear = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned slot = blockIdx.x * (blockDim.x * blockDim.y) + linear;
  out[slot] = (unsigned)clock();
}
