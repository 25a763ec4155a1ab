// One step of Conway's game of life on a width x height grid of u8 cells (0 or 1; cells outside the
// grid are dead), a thread per cell, blocks of 32 x 8: new = (n == 3) | (alive & (n == 2)) with n the
// live neighbours. --nvcc-opt -DSMEM picks where the 3x3 neighbourhoods come from (with the grid size,
// what the runs vary):
//   0: nine byte loads from global memory per thread (neighbouring threads share the lines: L1);
//   1: the block's 34 x 10 tile (halo included) staged in shared memory by a cooperative loop (340
//      byte loads for 256 threads), one barrier, then nine shared byte loads per thread.
#ifndef SMEM
#define SMEM 0
#endif
extern "C" __global__ void life_step(const unsigned char* in, unsigned char* out, int width, int height) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
#if SMEM
  __shared__ unsigned char tile[10][34];
  int x0 = blockIdx.x * 32 - 1, y0 = blockIdx.y * 8 - 1;
  for (int i = threadIdx.y * 32 + threadIdx.x; i < 340; i += 256) {
    int ty = i / 34, tx = i - ty * 34;
    int gx = x0 + tx, gy = y0 + ty;
    tile[ty][tx] = (gx >= 0 && gx < width && gy >= 0 && gy < height) ? in[gy * width + gx] : 0;
  }
  __syncthreads();
  if (x >= width || y >= height) return;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  int n = tile[ty - 1][tx - 1] + tile[ty - 1][tx] + tile[ty - 1][tx + 1] + tile[ty][tx - 1] + tile[ty][tx + 1] +
          tile[ty + 1][tx - 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 1];
  int alive = tile[ty][tx];
#else
  if (x >= width || y >= height) return;
  int n = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = y + dy;
    if (yy < 0 || yy >= height) continue;
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = x + dx;
      if ((dx != 0 || dy != 0) && xx >= 0 && xx < width) n += in[yy * width + xx];
    }
  }
  int alive = in[y * width + x];
#endif
  out[y * width + x] = (unsigned char)((n == 3) | (alive & (n == 2)));
}
