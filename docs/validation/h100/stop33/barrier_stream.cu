// CUDA C of calibrate's barrier_stream and dram_lat_samples (kernels/microbench/mb_sync.kir), for
// their SASS only (batch33.sh): does ptxas keep each warp's add of its loaded value before the BAR,
// and the second clock read after that add?
extern "C" __global__ void barrier_stream(const float* in, float* out, unsigned steps) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, threads = gridDim.x * blockDim.x, i = gid;
  float s = 0;
  for (unsigned k = 0; k < steps; ++k) {
    float x = in[i];
    s += x;
    i += (unsigned)x;
    __syncthreads();
    i += threads;
  }
  out[gid] = s;
}

extern "C" __global__ void dram_lat_samples(const float* in, unsigned long long* out, unsigned steps) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, threads = gridDim.x * blockDim.x, i = gid;
  for (unsigned k = 0; k < steps; ++k) {
    unsigned long long t0 = clock64();
    float x = in[i + (unsigned)(t0 >> 63)];
    i += (unsigned)x;
    unsigned long long t1 = clock64();
    if ((gid & 31) == 0) out[(gid >> 5) * steps + k] = t1 - t0;
    __syncthreads();
    i += threads;
  }
}
