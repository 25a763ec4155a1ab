// Temporal blocking of the explicit 1D heat equation u' = u + alpha ((u[-1] + u[+1]) - 2 u), zero
// outside [0, n): each block of 256 threads loads its 256 points plus STEPS halo points on each side
// into shared memory and runs STEPS time steps there (--nvcc-opt -DSTEPS=1, 4 or 16), ping-ponging
// between two buffers with a __syncthreads after each step (the valid part shrinks by one point a
// side a step), then writes its 256 points: the same values as STEPS global sweeps. The halo work is
// 2 STEPS / 256 of the tile; the first STEPS * 2 threads also take a second point of each step.
#ifndef STEPS
#define STEPS 4
#endif
#define W (256 + 2 * STEPS)
extern "C" __global__ void heat_steps(const float* in, float* out, int n, float alpha) {
  __shared__ float buf[2][W];
  int base = blockIdx.x * 256 - STEPS;
  for (int j = threadIdx.x; j < W; j += 256) {
    int g = base + j;
    buf[0][j] = (g >= 0 && g < n) ? in[g] : 0.0f;
  }
  __syncthreads();
  int cur = 0;
  for (int s = 0; s < STEPS; ++s) {
    for (int j = threadIdx.x; j < W; j += 256) {
      int g = base + j;
      float c = buf[cur][j], v = c;
      if (j > 0 && j < W - 1 && g >= 0 && g < n) v = c + alpha * ((buf[cur][j - 1] + buf[cur][j + 1]) - 2.0f * c);
      buf[cur ^ 1][j] = v;
    }
    cur ^= 1;
    __syncthreads();
  }
  int g = blockIdx.x * 256 + threadIdx.x;
  if (g < n) out[g] = buf[cur][threadIdx.x + STEPS];
}
