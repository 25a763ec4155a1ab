// A Monte Carlo estimate of pi: each thread runs its own xorshift32 generator (seeded from its global
// index) for `iters` trials, each trial two draws turned into floats in [0, 1) ((s >> 8) 2^-24) and a
// hit when x x + y y < 1; out[t] = the thread's hits. Integer shifts and xors, two u32 -> f32
// conversions and a float compare a trial, no divergence (the hit is a predicated add). The trials a
// thread runs (--arg iters) is the one thing the runs vary.
extern "C" __global__ void monte_carlo_pi(unsigned* out, unsigned iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = (t * 2654435761u) ^ 0x9e3779b9u;
  if (s == 0u) s = 1u;
  unsigned hits = 0u;
  for (unsigned it = 0; it < iters; ++it) {
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    float x = (float)(s >> 8) * 5.9604644775390625e-8f;
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    float y = (float)(s >> 8) * 5.9604644775390625e-8f;
    hits += (x * x + y * y < 1.0f) ? 1u : 0u;
  }
  out[t] = hits;
}
