// One Jacobi sweep for the 2D Poisson equation -lap(u) = f on an nx x ny grid (the inner loop of a
// textbook Poisson solver): each inner point becomes a quarter of its four neighbours' sum minus
// h2 * f, boundary points keep their value (Dirichlet). Plain global loads: the neighbours of a point
// come through L1/L2. Paired with jacobi_smem.cu (the same sweep through a shared tile with halo).
extern "C" __global__ void jacobi_global(const float* u, const float* f, float* unew, unsigned nx, unsigned ny,
                                         float h2) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) {
    unsigned i = y * nx + x;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
      unew[i] = u[i];
    } else {
      unew[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] - h2 * f[i]);
    }
  }
}
