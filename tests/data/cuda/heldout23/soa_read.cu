// Struct of arrays: the same particle data as aos_read, one array per field; each thread reads vx, vy,
// vz and mass of its particle (4 coalesced loads, every fetched byte used) and writes the kinetic energy.
extern "C" __global__ void soa_read(const float* vx, const float* vy, const float* vz, const float* mass,
                                    float* energy, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) energy[i] = 0.5f * mass[i] * (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);
}
