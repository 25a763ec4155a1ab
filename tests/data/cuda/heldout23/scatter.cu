// A scatter through an index array, the counterpart of a gather: out[idx[i]] = in[i]. in and idx are
// read coalesced; the stores land as scattered as the indices (where indices collide, one writer wins).
extern "C" __global__ void scatter(const float* in, const unsigned* idx, float* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[idx[i]] = in[i];
}
