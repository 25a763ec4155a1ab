// A copy of n floats, WIDTH of them per thread (--nvcc-opt -DWIDTH=1, 2 or 4: float, float2 or float4
// loads and stores, n a multiple of WIDTH): the same bytes moved with 4, 2 or 1 instructions per 16 bytes.
#ifndef WIDTH
#define WIDTH 1
#endif
#if WIDTH == 4
typedef float4 vec;
#elif WIDTH == 2
typedef float2 vec;
#else
typedef float vec;
#endif
extern "C" __global__ void copy_vec(const float* in, float* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / WIDTH) reinterpret_cast<vec*>(out)[i] = reinterpret_cast<const vec*>(in)[i];
}
