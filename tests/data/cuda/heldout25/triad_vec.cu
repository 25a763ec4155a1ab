// The STREAM triad a = b + s c over n floats, WIDTH floats per access (--nvcc-opt -DWIDTH=1, 2 or 4:
// float, float2 or float4 loads and stores; n a multiple of WIDTH), in a grid-stride loop: with a
// grid of a few blocks per SM each thread runs many iterations, with a grid covering n / WIDTH
// exactly each thread runs one. Each element is b + (s * c), two roundings (--fmad=false).
#ifndef WIDTH
#define WIDTH 1
#endif
#if WIDTH == 4
typedef float4 vec;
#define TRIAD(r, p, q) \
  r.x = p.x + s * q.x; \
  r.y = p.y + s * q.y; \
  r.z = p.z + s * q.z; \
  r.w = p.w + s * q.w
#elif WIDTH == 2
typedef float2 vec;
#define TRIAD(r, p, q) \
  r.x = p.x + s * q.x; \
  r.y = p.y + s * q.y
#else
typedef float vec;
#define TRIAD(r, p, q) r = p + s * q
#endif
extern "C" __global__ void triad_vec(float* a, const float* b, const float* c, float s, unsigned n) {
  unsigned nv = n / WIDTH;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < nv; i += blockDim.x * gridDim.x) {
    vec p = reinterpret_cast<const vec*>(b)[i], q = reinterpret_cast<const vec*>(c)[i], r;
    TRIAD(r, p, q);
    reinterpret_cast<vec*>(a)[i] = r;
  }
}
