// Even-odd point-in-polygon tests: each thread tests one point (px, py) against a closed polygon of
// P vertices (random, self-intersecting: the crossing number is defined for any closed polyline),
// staged by every block in shared memory (vx, vy: 8 P bytes). For each edge (i, j = i - 1) that
// straddles the horizontal line through the point (a data-dependent branch, about a third of the
// edges) it computes the crossing's x, (xj - xi) (py - yi) / (yj - yi) + xi (an IEEE division), and
// flips the parity when the point lies left of it; out = parity. --nvcc-opt -DP with the point
// count: 1M points x 64 vertices, 128K x 512 and 16K x 4,096 (the same 64M edge tests in 4,096, 512
// or 64 blocks of 256, the last less than one wave; 0.5, 4 or 32 KiB of shared memory a block) is
// the one thing the runs vary.
#ifndef P
#define P 64
#endif
extern "C" __global__ void point_in_poly(const float* px, const float* py, const float* vx, const float* vy,
                                         unsigned* inside, unsigned n) {
  __shared__ float sx[P], sy[P];
  for (unsigned k = threadIdx.x; k < P; k += blockDim.x) {
    sx[k] = vx[k];
    sy[k] = vy[k];
  }
  __syncthreads();
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float x = px[t], y = py[t];
  unsigned c = 0;
  float xj = sx[P - 1], yj = sy[P - 1];
  for (unsigned i = 0; i < P; ++i) {
    float xi = sx[i], yi = sy[i];
    if ((yi > y) != (yj > y)) {
      float xc = (xj - xi) * (y - yi) / (yj - yi) + xi;
      if (x < xc) c ^= 1u;
    }
    xj = xi;
    yj = yi;
  }
  inside[t] = c;
}
