// PMPP 3.4: P = M x N, one thread per output element (kernels/matmul_naive.kir in CUDA C). M is
// rows x inner, N inner x cols, P rows x cols, all row-major.
extern "C" __global__ void matmul_naive(const float* M, const float* N, float* P, unsigned rows, unsigned inner,
                                        unsigned cols) {
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows && col < cols) {
    float pvalue = 0;
    for (unsigned k = 0; k < inner; ++k) pvalue += M[row * inner + k] * N[k * cols + col];
    P[row * cols + col] = pvalue;
  }
}
