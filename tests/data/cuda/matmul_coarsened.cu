// PMPP 6.3: the tiled matrix multiply coarsened by COARSE_FACTOR (kernels/matmul_coarsened_c4.kir
// in CUDA C): each TILE_WIDTH x TILE_WIDTH block computes TILE_WIDTH x TILE_WIDTH*COARSE_FACTOR
// outputs, loading each M tile once for COARSE_FACTOR N tiles.
#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif
#ifndef COARSE_FACTOR
#define COARSE_FACTOR 4
#endif
extern "C" __global__ void matmul_coarsened(const float* M, const float* N, float* P, unsigned rows, unsigned inner,
                                            unsigned cols) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * TILE_WIDTH + ty;
  unsigned colStart = blockIdx.x * TILE_WIDTH * COARSE_FACTOR + tx;
  float pvalue[COARSE_FACTOR];
  for (unsigned c = 0; c < COARSE_FACTOR; ++c) pvalue[c] = 0.0f;
  for (unsigned ph = 0; ph < (inner + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = row < rows && ph * TILE_WIDTH + tx < inner ? M[row * inner + ph * TILE_WIDTH + tx] : 0.0f;
    for (unsigned c = 0; c < COARSE_FACTOR; ++c) {
      unsigned col = colStart + c * TILE_WIDTH;
      Nds[ty][tx] = ph * TILE_WIDTH + ty < inner && col < cols ? N[(ph * TILE_WIDTH + ty) * cols + col] : 0.0f;
      __syncthreads();
      for (unsigned k = 0; k < TILE_WIDTH; ++k) pvalue[c] += Mds[ty][k] * Nds[k][tx];
      __syncthreads();
    }
  }
  for (unsigned c = 0; c < COARSE_FACTOR; ++c) {
    unsigned col = colStart + c * TILE_WIDTH;
    if (row < rows && col < cols) P[row * cols + col] = pvalue[c];
  }
}
