// Four textbook block reductions of the same u32 data (sums wrap mod 2^32; every value here is below
// 2^16, so they do not): each thread first adds 4 coalesced words (blockDim.x apart), then the block
// reduces its blockDim.x partial sums and thread 0 writes one word per block to partial[blockIdx.x].
// --nvcc-opt -DALGO picks the in-block tree, the one thing the runs vary:
//   0: interleaved addressing, `if (tid % (2 s) == 0)`: a u32 remainder a step, active lanes spread
//      over every warp (divergent warps until the last steps);
//   1: interleaved addressing with a strided index, `i = 2 s tid`: the active threads are packed into
//      the first warps, but their shared accesses have a stride of 2 s words (bank conflicts);
//   2: sequential addressing, `if (tid < s) sh[tid] += sh[tid + s]` (conflict-free, packed);
//   3: warp shuffles: a __shfl_down_sync sum per warp, the warps' sums through shared memory and a
//      second shuffle sum in warp 0 (one barrier).
#ifndef ALGO
#define ALGO 2
#endif
extern "C" __global__ void reduce_algo(const unsigned* in, unsigned* partial, unsigned n) {
  __shared__ unsigned sh[1024];
  unsigned tid = threadIdx.x, bd = blockDim.x;
  unsigned base = blockIdx.x * bd * 4 + tid;
  unsigned v = 0u;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    unsigned i = base + k * bd;
    if (i < n) v += in[i];
  }
#if ALGO == 3
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  unsigned lane = tid % 32, warp = tid / 32;
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < bd / 32 ? sh[lane] : 0u;
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) partial[blockIdx.x] = v;
  }
#else
  sh[tid] = v;
  __syncthreads();
#if ALGO == 0
  for (unsigned s = 1; s < bd; s *= 2) {
    if (tid % (2 * s) == 0) sh[tid] += sh[tid + s];
    __syncthreads();
  }
#elif ALGO == 1
  for (unsigned s = 1; s < bd; s *= 2) {
    unsigned i = 2 * s * tid;
    if (i < bd) sh[i] += sh[i + s];
    __syncthreads();
  }
#else
  for (unsigned s = bd / 2; s > 0; s >>= 1) {
    if (tid < s) sh[tid] += sh[tid + s];
    __syncthreads();
  }
#endif
  if (tid == 0) partial[blockIdx.x] = sh[0];
#endif
}
