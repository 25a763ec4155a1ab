// An elementwise activation y = f(x) over n floats, a thread per element (memory-bound: 8 bytes a
// thread), x = 8 u - 4 from u in [0, 1). --nvcc-opt -DACT picks f, the one thing the runs vary:
//   0: ReLU, fmaxf(x, 0) (no special function);
//   1: SiLU, x / (1 + expf(-x)) (NVRTC's expf: fma, cvt.sat, ex2.approx; an IEEE division);
//   2: GELU, tanh form, 0.5 x (1 + tanh z), z = 0.7978845608 (x + 0.044715 x^3), with
//      1 + tanh z = 2 - 2 / (expf(2 z) + 1) (an expf, an IEEE division, 7 more multiplies and adds);
//   3: softplus, logf(1 + expf(x)) (two libdevice special functions, no division).
#ifndef ACT
#define ACT 0
#endif
extern "C" __global__ void activation(const float* u, float* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = u[i] * 8.0f - 4.0f;
#if ACT == 0
  float r = fmaxf(x, 0.0f);
#elif ACT == 1
  float r = x / (1.0f + expf(-x));
#elif ACT == 2
  float z = 0.7978845608f * (x + 0.044715f * x * x * x);
  float r = 0.5f * x * (2.0f - 2.0f / (expf(2.0f * z) + 1.0f));
#else
  float r = logf(1.0f + expf(x));
#endif
  y[i] = r;
}
