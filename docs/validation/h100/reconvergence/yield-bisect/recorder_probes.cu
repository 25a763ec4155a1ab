#include "prelude.cuh"
extern "C" __global__ void P1_load(const float* in, float* out, unsigned n, unsigned long long tr, unsigned cap) {
  const ws_trace_t ws_t = ws_trace_begin(tr, cap);
  float m = -3.4e38f;
  for (unsigned c = threadIdx.x; ws_branch(c < n); c += blockDim.x) { ws_record(ws_t, 3u); m = fmaxf(m, in[c]); }
  out[threadIdx.x] = m;
}
extern "C" __global__ void P2_noload(const float* in, float* out, unsigned n, unsigned long long tr, unsigned cap) {
  const ws_trace_t ws_t = ws_trace_begin(tr, cap);
  float m = -3.4e38f;
  for (unsigned c = threadIdx.x; ws_branch(c < n); c += blockDim.x) { ws_record(ws_t, 3u); m = fmaxf(m, (float)c); }
  out[threadIdx.x] = m;
}
extern "C" __global__ void P3_int_load(const unsigned* in, unsigned* out, unsigned n, unsigned long long tr, unsigned cap) {
  const ws_trace_t ws_t = ws_trace_begin(tr, cap);
  unsigned m = 0;
  for (unsigned c = threadIdx.x; ws_branch(c < n); c += blockDim.x) { ws_record(ws_t, 3u); m += in[c]; }
  out[threadIdx.x] = m;
}
extern "C" __global__ void P4_ctl_like(const unsigned* in, unsigned* out, unsigned long long tr, unsigned cap) {
  const ws_trace_t ws_t = ws_trace_begin(tr, cap);
  unsigned v = in[threadIdx.x], acc = 0;
  for (unsigned i = 0; ws_branch(i < 16); ++i) { ws_record(ws_t, 3u); acc += i; if (ws_branch(i == v)) break; }
  out[threadIdx.x] = acc;
}
