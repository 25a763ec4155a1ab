// Occupancy set by the shared memory a block really uses: each block of 256 threads stages one
// CHUNK-float segment of the input in shared memory (--nvcc-opt -DCHUNK=4096, 8192 or 12288: 16, 32
// or 48 KiB, so 8, 6 or 4 blocks fit on an H100 SM), waits at a barrier, and writes the segment
// smoothed with a [1/4 1/2 1/4] filter whose ends are clamped to the segment (each output reads three
// shared words). n must be a multiple of CHUNK, one block per segment. Bigger segments: fewer blocks
// per SM and more loads in flight per thread before the barrier.
#ifndef CHUNK
#define CHUNK 4096
#endif
extern "C" __global__ void chunk_smooth(const float* in, float* out, unsigned n) {
  __shared__ float seg[CHUNK];
  unsigned base = blockIdx.x * CHUNK;
  for (unsigned j = threadIdx.x; j < CHUNK; j += blockDim.x) seg[j] = in[base + j];
  __syncthreads();
  for (unsigned j = threadIdx.x; j < CHUNK; j += blockDim.x) {
    float left = seg[j == 0 ? 0 : j - 1], right = seg[j == CHUNK - 1 ? CHUNK - 1 : j + 1];
    out[base + j] = 0.25f * left + 0.5f * seg[j] + 0.25f * right;
  }
}
