// Counts the occurrences (overlapping) of an L-byte pattern in a byte text: a thread per start
// position compares text[i + j] with pat[j] for j = 0, 1, ... and leaves at the first mismatch (a
// data-dependent early exit: a warp runs as long as its longest partial match), then a __ballot_sync
// and __popc per warp, lane 0 adds it to the block's shared counter (a shared atomicAdd) and thread 0
// writes the block's count to counts[blockIdx.x] (no global atomics). --nvcc-opt -DL=4 or 16 (the pattern
// length) and the text's alphabet (bytes below 2, or any byte) are what the runs vary, one at a time.
#ifndef L
#define L 4
#endif
extern "C" __global__ void string_match(const unsigned char* text, const unsigned char* pat, unsigned* counts, unsigned n) {
  __shared__ unsigned total;
  if (threadIdx.x == 0) total = 0u;
  __syncthreads();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned match = 0u;
  if (i + L <= n) {
    unsigned j = 0;
    while (j < L && text[i + j] == pat[j]) ++j;
    match = j == L;
  }
  unsigned votes = __ballot_sync(0xffffffffu, match);
  if (threadIdx.x % 32 == 0 && votes != 0u) atomicAdd(&total, (unsigned)__popc(votes));
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}
