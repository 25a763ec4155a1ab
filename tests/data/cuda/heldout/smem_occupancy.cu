// A streaming kernel whose occupancy is set by a shared array it barely uses: a grid-stride loop
// over tiles of blockDim.x elements, each staged in the first blockDim.x floats of buf, each thread
// adding its neighbour's; one load in flight per thread between the barriers, so the achieved
// bandwidth follows how many warps an SM holds. SMEM_FLOATS (--nvcc-opt -DSMEM_FLOATS=N, at least
// blockDim.x) sizes the array, and so how many blocks fit on an SM.
#ifndef SMEM_FLOATS
#define SMEM_FLOATS 256
#endif
extern "C" __global__ void smem_occupancy(const float* in, float* out, unsigned n) {
  __shared__ float buf[SMEM_FLOATS];
  for (unsigned base = blockIdx.x * blockDim.x; base < n; base += blockDim.x * gridDim.x) {
    unsigned i = base + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n) out[i] = buf[threadIdx.x] + buf[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
}
