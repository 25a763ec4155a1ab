// An NCHW -> NHWC layout change of a float tensor, one output element per step of a grid-stride loop
// (2 per thread): the output index is decoded into (n, h, w, c) with three divisions and three
// remainders, and the input read at ((n C + c) H + h) W + w (writes coalesced, reads H W apart along
// c). --nvcc-opt -DMODE sets how the index arithmetic is done, the one thing the runs vary:
//   0: 32-bit unsigned division by the run-time sizes (div.u32 / rem.u32);
//   1: the same in 64-bit arithmetic (the sizes are 64-bit arguments), as code indexing with size_t
//      does: NVRTC guards each div.u64 with a test of the high words and a div.u32 path, which every
//      element here takes (64-bit adds, multiplies and a branch around each division);
//   2: the sizes as compile-time constants (-DCC, -DHH, -DWW, default 24, 240, 360; the arguments must
//      match): the compiler's multiply-high and shift sequences.
#ifndef MODE
#define MODE 0
#endif
#ifndef CC
#define CC 24
#endif
#ifndef HH
#define HH 240
#endif
#ifndef WW
#define WW 360
#endif
#if MODE == 1
typedef unsigned long long idx_t;
#else
typedef unsigned idx_t;
#endif
extern "C" __global__ void nchw_nhwc(const float* in, float* out, idx_t N, idx_t C, idx_t H, idx_t W) {
#if MODE == 2
  const idx_t c_ = CC, h_ = HH, w_ = WW;
#else
  const idx_t c_ = C, h_ = H, w_ = W;
#endif
  idx_t total = (idx_t)N * c_ * h_ * w_;
  for (idx_t i = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (idx_t)blockDim.x * gridDim.x) {
    idx_t c = i % c_, t = i / c_;
    idx_t w = t % w_;
    t /= w_;
    idx_t h = t % h_, nn = t / h_;
    out[i] = in[((nn * c_ + c) * h_ + h) * w_ + w];
  }
}
