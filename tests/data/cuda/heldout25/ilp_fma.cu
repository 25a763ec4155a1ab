// Instruction-level parallelism in a compute-bound loop: each thread runs iters f32 FMAs
// (acc = fmaf(acc, a, b)) split over ILP independent accumulators (--nvcc-opt -DILP=1, 2 or 4; iters
// a multiple of ILP), started from x[i] + j / 4, and writes their sum. The same FMA count whatever
// ILP is; with few warps per scheduler (one block of 128 threads per SM) a single dependent chain
// leaves the FMA pipe waiting on its latency, and 2 or 4 chains fill it.
#ifndef ILP
#define ILP 1
#endif
extern "C" __global__ void ilp_fma(const float* x, float* out, unsigned n, int iters, float a, float b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc[ILP];
    float v = x[i];
#pragma unroll
    for (int j = 0; j < ILP; ++j) acc[j] = v + 0.25f * (float)j;
    for (int k = 0; k < iters; k += ILP) {
#pragma unroll
      for (int j = 0; j < ILP; ++j) acc[j] = fmaf(acc[j], a, b);
    }
    float s = acc[0];
#pragma unroll
    for (int j = 1; j < ILP; ++j) s += acc[j];
    out[i] = s;
  }
}
