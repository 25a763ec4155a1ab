// Each thread sums sin(pi t_k), t_k = x0 + k d for k = 0 .. iters-1 (x0 = x - 0.5 from its input x in
// [0, 1), d = 0.003: for up to 256 terms every t_k in [-0.5, 1.27), the angle in [-pi/2, 4)), a dependent
// f32 sum, compute-bound (1,024 blocks of 256). --nvcc-opt -DIMPL picks the sine, the one thing the
// runs vary:
//   0: sinpif(t) (libdevice: an exact reduction by halves with rintf, a quadrant select, two fmaf
//      polynomials; no table);
//   1: __sinf(3.14159274 t) (a multiply and one sin.approx.f32, the SFU);
//   2: an odd Taylor polynomial of degree 15 in u^2 by Horner with fmaf (8 fmaf, 2 multiplies) of
//      u = 3.14159274 t folded into [-pi/2, pi/2] by one compare and a subtraction (u = pi - u).
// (libdevice's sinf is not used: its Payne-Hanek path reads a module-scope table the importer refuses.)
#ifndef IMPL
#define IMPL 0
#endif
extern "C" __global__ void sine_loop(const float* x, float* out, unsigned iters) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x0 = x[i] - 0.5f;
  float acc = 0.0f;
  for (unsigned k = 0; k < iters; ++k) {
    float t = x0 + (float)k * 0.003f;
#if IMPL == 0
    float s = sinpif(t);
#elif IMPL == 1
    float s = __sinf(3.14159274f * t);
#else
    float a = 3.14159274f * t;
    float u = a > 1.57079637f ? 3.14159274f - a : a;
    float u2 = u * u;
    float p = -7.6471637e-13f;
    p = fmaf(p, u2, 1.6059044e-10f);
    p = fmaf(p, u2, -2.5052108e-8f);
    p = fmaf(p, u2, 2.7557319e-6f);
    p = fmaf(p, u2, -1.9841270e-4f);
    p = fmaf(p, u2, 8.3333333e-3f);
    p = fmaf(p, u2, -1.6666667e-1f);
    p = fmaf(p, u2, 1.0f);
    float s = p * u;
#endif
    acc += s;
  }
  out[i] = acc;
}
