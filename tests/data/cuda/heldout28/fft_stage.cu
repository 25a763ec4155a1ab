// One radix-2 decimation-in-time butterfly stage of a 2^logn-point complex FFT, out of place, float2
// data: thread t takes the pair i0 = (t >> logs) * 2 s + (t & (s - 1)), i1 = i0 + s (span s = 2^logs),
// w = tw[(t & (s - 1)) << (logn - 1 - logs)] from a table of 2^(logn-1) complex twiddles, and writes
// a + w b and a - w b (4 multiplies, 6 adds). The span, `--arg logs`, is the one thing the runs vary:
// 1 (each lane's pair adjacent: 16-byte strided float2 loads, every lane the same twiddle), 32, 1,024
// and 2^21 (the last stage: the two halves of the array, the twiddles streamed).
extern "C" __global__ void fft_stage(const float2* in, const float2* tw, float2* out, unsigned logn, unsigned logs) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (1u << (logn - 1))) return;
  unsigned s = 1u << logs;
  unsigned j = t & (s - 1u);
  unsigned i0 = ((t >> logs) << (logs + 1)) + j;
  unsigned i1 = i0 + s;
  float2 w = tw[j << (logn - 1 - logs)];
  float2 a = in[i0];
  float2 b = in[i1];
  float2 wb;
  wb.x = w.x * b.x - w.y * b.y;
  wb.y = w.x * b.y + w.y * b.x;
  out[i0] = make_float2(a.x + wb.x, a.y + wb.y);
  out[i1] = make_float2(a.x - wb.x, a.y - wb.y);
}
