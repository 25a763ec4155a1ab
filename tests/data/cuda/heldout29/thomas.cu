// Thomas algorithm, a thread per tridiagonal system: s systems of n unknowns, equation k of a
// system a_k x_{k-1} + (b_k + 2) x_k + c_k x_{k+1} = d_k (a_0 and c_{n-1} unused; the + 2 makes it
// diagonally dominant for a, b, c in [0, 1)). The forward sweep keeps c'_{k-1} and d'_{k-1} in
// registers and writes c' to cp and d' to x (two IEEE divisions an equation), the backward sweep
// reads them back and overwrites x. --nvcc-opt -DINTER, the data layout, is the one thing the runs
// vary (with the system size): 1 interleaved, equation k of system t at k s + t (a warp's loads
// coalesced), 0 contiguous, at t n + k (a lane stride of n words: a sector a lane each access).
#ifndef INTER
#define INTER 1
#endif
extern "C" __global__ void thomas(const float* a, const float* b, const float* c, const float* d, float* cp,
                                  float* x, unsigned n, unsigned s) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= s) return;
#if INTER
  unsigned base = t, step = s;
#else
  unsigned base = t * n, step = 1u;
#endif
  float m = b[base] + 2.0f;
  float cprev = c[base] / m;
  float dprev = d[base] / m;
  cp[base] = cprev;
  x[base] = dprev;
  unsigned o = base;
  for (unsigned k = 1; k < n; ++k) {
    o += step;
    float ak = a[o];
    m = (b[o] + 2.0f) - ak * cprev;
    cprev = c[o] / m;
    dprev = (d[o] - ak * dprev) / m;
    cp[o] = cprev;
    x[o] = dprev;
  }
  float xn = dprev;
  for (unsigned k = n - 1; k > 0; --k) {
    o -= step;
    xn = x[o] - cp[o] * xn;
    x[o] = xn;
  }
}
