// Bins 4M particles into the cells of a g x g grid over the unit square (a thread per particle):
// cell = floor(x g) + g floor(y g), a slot claimed with atomicAdd(&count[cell], 1) (the returned
// value used), and the particle's index written to bucket[cell cap + slot] when the slot is below
// cap. 512 x 512 cells (16 particles a cell on average, room for 48). The order of the particles,
// set by the x and y buffers, is the one thing the runs vary: both coordinates random (a warp's
// atomics on 32 random counters of 1 MiB), x sorted (x = i 2^-22; a warp's particles in one column
// of cells: 32 counters 2 KiB apart, the same column for 256 successive warps) and y sorted (a
// warp's in one row: 32 counters among 512 neighbouring ones, the same row for 256 successive
// warps).
extern "C" __global__ void particle_bin(const float* x, const float* y, unsigned* count, unsigned* bucket,
                                        unsigned n, unsigned g, unsigned cap) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float fg = (float)g;
  unsigned cx = min((unsigned)(x[i] * fg), g - 1u);
  unsigned cy = min((unsigned)(y[i] * fg), g - 1u);
  unsigned cell = cy * g + cx;
  unsigned slot = atomicAdd(&count[cell], 1u);
  if (slot < cap) bucket[cell * cap + slot] = i;
}
