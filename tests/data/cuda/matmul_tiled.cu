// PMPP 5.4-5.5: tiled P = M x N with boundary checks (kernels/matmul_tiled.kir in CUDA C), with
// a compile-time TILE_WIDTH as CUDA code has it. M is rows x inner, N inner x cols, row-major.
#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif
extern "C" __global__ void matmul_tiled(const float* M, const float* N, float* P, unsigned rows, unsigned inner,
                                        unsigned cols) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * TILE_WIDTH + ty;
  unsigned col = blockIdx.x * TILE_WIDTH + tx;
  float pvalue = 0;
  for (unsigned ph = 0; ph < (inner + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = row < rows && ph * TILE_WIDTH + tx < inner ? M[row * inner + ph * TILE_WIDTH + tx] : 0.0f;
    Nds[ty][tx] = ph * TILE_WIDTH + ty < inner && col < cols ? N[(ph * TILE_WIDTH + ty) * cols + col] : 0.0f;
    __syncthreads();
    for (unsigned k = 0; k < TILE_WIDTH; ++k) pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  if (row < rows && col < cols) P[row * cols + col] = pvalue;
}
