// Matrix transpose through a 32x32 shared tile, blocks of 32x8 threads each moving 4 rows (the CUDA
// sample's transposeCoalesced); PAD (--nvcc-opt -DPAD=0 or 1) columns of padding: with 0 the
// column-wise reads of the tile hit one bank 32 times (32-way conflicts), with 1 none.
#ifndef PAD
#define PAD 0
#endif
#define TILE 32
#define ROWS 8
extern "C" __global__ void transpose_smem(const float* in, float* out, unsigned rows, unsigned cols) {
  __shared__ float tile[TILE][TILE + PAD];
  unsigned x = blockIdx.x * TILE + threadIdx.x;
  unsigned y = blockIdx.y * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
