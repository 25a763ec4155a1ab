// Matrix transpose through a shared tile padded by one column, so neither the row-wise writes nor
// the column-wise reads of the tile conflict in the banks. Blocks are TILE x TILE threads; the
// matrix is rows x cols, row-major; out is cols x rows.
#define TILE 32
extern "C" __global__ void transpose(const float* in, float* out, unsigned rows, unsigned cols) {
  __shared__ float tile[TILE][TILE + 1];
  unsigned x = blockIdx.x * TILE + threadIdx.x;
  unsigned y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}
