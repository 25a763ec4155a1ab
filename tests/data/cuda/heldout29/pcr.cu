// Parallel cyclic reduction of tridiagonal systems in shared memory, a block per system of N
// unknowns and a thread per equation (blockDim.x = N): equation k is a_k x_{k-s} + b_k x_k + c_k
// x_{k+s} = d_k (b_k + 2 on entry, so diagonally dominant for a, b, c in [0, 1)); each of log2 N
// steps eliminates the neighbours at distance s = 1, 2, 4, ... (two IEEE divisions, six
// multiplications and four subtractions an equation; a neighbour outside the system contributes
// nothing), with a barrier before and after the writes; then x_k = d_k / b_k. --nvcc-opt -DN = 64,
// 256 or 1,024 (4 Mi unknowns in 65,536, 16,384 or 4,096 blocks; 6, 8 or 10 steps; 1, 4 or 16 KiB
// of shared memory a block) is the one thing the runs vary.
#ifndef N
#define N 256
#endif
extern "C" __global__ void pcr(const float* a, const float* b, const float* c, const float* d, float* x) {
  __shared__ float sa[N], sb[N], sc[N], sd[N];
  unsigned k = threadIdx.x;
  unsigned g = blockIdx.x * N + k;
  sa[k] = k == 0 ? 0.0f : a[g];
  sb[k] = b[g] + 2.0f;
  sc[k] = k == N - 1 ? 0.0f : c[g];
  sd[k] = d[g];
  __syncthreads();
  for (unsigned s = 1; s < N; s <<= 1) {
    float ak = sa[k], bk = sb[k], ck = sc[k], dk = sd[k];
    float na = 0.0f, nc = 0.0f;
    if (k >= s) {
      float k1 = ak / sb[k - s];
      na = -sa[k - s] * k1;
      bk = bk - sc[k - s] * k1;
      dk = dk - sd[k - s] * k1;
    }
    if (k + s < N) {
      float k2 = ck / sb[k + s];
      nc = -sc[k + s] * k2;
      bk = bk - sa[k + s] * k2;
      dk = dk - sd[k + s] * k2;
    }
    __syncthreads();
    sa[k] = na;
    sb[k] = bk;
    sc[k] = nc;
    sd[k] = dk;
    __syncthreads();
  }
  x[g] = sd[k] / sb[k];
}
