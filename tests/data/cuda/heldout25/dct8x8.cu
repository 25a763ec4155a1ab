// An 8x8 block transform Y = C X C^T (the shape of a JPEG DCT, with the 8x8 matrix C read from coef)
// of every 8x8 tile of a width x height float image (width a multiple of 32, height of 8): blocks of
// 32 x 8 threads load a 32 x 8 strip (four tiles) into shared memory, each thread computes one
// element of the row pass T = X C^T (8 fmaf over a row of its tile) into a second shared array, and
// after a barrier one element of the column pass Y = C T (8 fmaf down a column). Straight-line code:
// 16 fmaf and 32 shared loads (C, X and T) per pixel, two barriers, one load and one store.
extern "C" __global__ void dct8x8(const float* in, const float* coef, float* out, int width) {
  __shared__ float cs[8][8];
  __shared__ float xs[8][32];
  __shared__ float ts[8][32];
  int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
  int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
  if (t < 64) cs[t / 8][t % 8] = coef[t];
  xs[ty][tx] = in[y * width + x];
  __syncthreads();
  int u = tx & 7, b0 = tx & ~7;
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k) s = fmaf(cs[u][k], xs[ty][b0 + k], s);
  ts[ty][tx] = s;
  __syncthreads();
  s = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k) s = fmaf(cs[ty][k], ts[k][tx], s);
  out[y * width + x] = s;
}
