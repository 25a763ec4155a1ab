// One all-pairs n-body step (GPU Gems 3, ch. 31): each thread owns a body and sums the softened
// gravitational pull of other bodies (float4 x, y, z, mass), staged by its block through shared memory
// in tiles of blockDim.x (at most 256) bodies, an rsqrtf per pair (compute-bound f32). The sources are
// split in gridDim.y parts: block (x, y) takes part y and atomicAdds its partial sums to acc (zeroed).
#define MAX_TILE 256
extern "C" __global__ void nbody(const float4* pos, float* acc, unsigned n, float eps2) {
  __shared__ float4 tile[MAX_TILE];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned part = (n + gridDim.y - 1) / gridDim.y;
  unsigned begin = blockIdx.y * part, end = min(n, begin + part);
  float4 me = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (unsigned base = begin; base < end; base += blockDim.x) {
    unsigned j = base + threadIdx.x;
    tile[threadIdx.x] = j < end ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    for (unsigned k = 0; k < blockDim.x; ++k) {
      float4 o = tile[k];
      float rx = o.x - me.x, ry = o.y - me.y, rz = o.z - me.z;
      float inv = rsqrtf(rx * rx + ry * ry + rz * rz + eps2);
      float s = o.w * inv * inv * inv;
      ax += rx * s;
      ay += ry * s;
      az += rz * s;
    }
    __syncthreads();
  }
  if (i < n) {
    atomicAdd(&acc[4 * i], ax);
    atomicAdd(&acc[4 * i + 1], ay);
    atomicAdd(&acc[4 * i + 2], az);
  }
}
