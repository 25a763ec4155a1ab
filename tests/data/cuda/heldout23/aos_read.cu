// Array of structs: particle i is 8 floats (x, y, z, charge, vx, vy, vz, mass) at p[8i]; each thread
// reads its velocity and mass (words 4-7: half of each 32-byte particle) and writes the kinetic energy.
// VEC4 (--nvcc-opt -DVEC4) reads the 4 words as one float4 load instead of 4 scalar loads.
extern "C" __global__ void aos_read(const float* p, float* energy, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
#ifdef VEC4
    float4 v = reinterpret_cast<const float4*>(p)[2 * i + 1];
    float vx = v.x, vy = v.y, vz = v.z, m = v.w;
#else
    float vx = p[8 * i + 4], vy = p[8 * i + 5], vz = p[8 * i + 6], m = p[8 * i + 7];
#endif
    energy[i] = 0.5f * m * (vx * vx + vy * vy + vz * vz);
  }
}
