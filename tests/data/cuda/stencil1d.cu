// A 1D stencil of radius 3: each block loads its blockDim.x elements and a halo of RADIUS on each
// side into shared memory (0 past the ends), then each thread sums the 7 neighbours of its element.
#define RADIUS 3
#define BLOCK 128
extern "C" __global__ void stencil1d(const int* in, int* out, unsigned n) {
  __shared__ int temp[BLOCK + 2 * RADIUS];
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned l = threadIdx.x + RADIUS;
  temp[l] = g < n ? in[g] : 0;
  if (threadIdx.x < RADIUS) {
    temp[l - RADIUS] = g >= RADIUS && g - RADIUS < n ? in[g - RADIUS] : 0;
    temp[l + blockDim.x] = g + blockDim.x < n ? in[g + blockDim.x] : 0;
  }
  __syncthreads();
  if (g < n) {
    int sum = 0;
    for (int offset = -RADIUS; offset <= RADIUS; ++offset) sum += temp[l + offset];
    out[g] = sum;
  }
}
