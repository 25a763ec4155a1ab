// Black-Scholes European call and put prices (the CUDA sample's formula and cumulative-normal
// polynomial): per option a logf, a sqrtf, three expf and two divisions. The inputs are uniform [0, 1)
// draws, mapped to the sample's ranges: price 5-30, strike 1-100, years 0.25-10.
__device__ __forceinline__ float cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
  const float RSQRT2PI = 0.39894228040143267793994605993438f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = RSQRT2PI * expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  return d > 0.0f ? 1.0f - c : c;
}
extern "C" __global__ void black_scholes(const float* u_price, const float* u_strike, const float* u_years,
                                         float* call, float* put, unsigned n, float riskfree, float volatility) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 5.0f + 25.0f * u_price[i], x = 1.0f + 99.0f * u_strike[i], t = 0.25f + 9.75f * u_years[i];
    float sqrt_t = sqrtf(t);
    float d1 = (logf(s / x) + (riskfree + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
    float d2 = d1 - volatility * sqrt_t;
    float cnd1 = cnd(d1), cnd2 = cnd(d2);
    float exp_rt = expf(-riskfree * t);
    call[i] = s * cnd1 - x * exp_rt * cnd2;
    put[i] = x * exp_rt * (1.0f - cnd2) - s * (1.0f - cnd1);
  }
}
