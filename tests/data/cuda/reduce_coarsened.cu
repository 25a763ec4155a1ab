// PMPP 10.8 (Fig 10.15): the thread-coarsened sum reduction (kernels/reduce_coarsened.kir in CUDA
// C). Each thread first adds COARSE_FACTOR*2 elements serially, a blockDim.x apart, then the block
// runs the convergent tree of Fig 10.11. As the .kir: elements past n count as 0 and each block
// writes its sum to out[blockIdx.x] (the book adds it to one total with atomicAdd).
#define BLOCK_DIM 1024
#ifndef COARSE_FACTOR
#define COARSE_FACTOR 4
#endif
extern "C" __global__ void reduce_coarsened(const float* input, float* out, unsigned n) {
  __shared__ float input_s[BLOCK_DIM];
  unsigned segment = COARSE_FACTOR * 2 * blockDim.x * blockIdx.x;
  unsigned i = segment + threadIdx.x;
  unsigned t = threadIdx.x;
  float sum = 0.0f;
  for (unsigned tile = 0; tile < COARSE_FACTOR * 2; ++tile)
    if (i + tile * blockDim.x < n) sum += input[i + tile * blockDim.x];
  input_s[t] = sum;
  for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    __syncthreads();
    if (t < stride) input_s[t] += input_s[t + stride];
  }
  if (t == 0) out[blockIdx.x] = input_s[0];
}
