// A gather through an index array: out[i] = in[idx[i]]. idx and out are coalesced; the reads of in
// are as scattered as the indices are.
extern "C" __global__ void gather(const float* in, const unsigned* idx, float* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}
