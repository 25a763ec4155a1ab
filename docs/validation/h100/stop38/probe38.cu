// Stop 38's probe of the L2's halves (docs/validation/timing.md, "Stop 38"): every thread of the
// chosen SMs reads `loads` f32 at hashed words of a footprint of 2^bits words; which SMs read is
// chosen by their %smid: lo <= smid < hi and ((smid >> shift) & 1) == parity (shift 31: any).
// If each half of the SMs keeps its own copies of the lines it reads, one half of the SMs finds the
// whole L2 for a footprint that both halves together find only half of. Built and run on the
// device by batch38b.sh; Nsight Compute reads the DRAM bytes of each launch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void gather_sel(const float* in, float* out, unsigned loads, unsigned mask, unsigned lo, unsigned hi,
                           unsigned shift, unsigned parity, unsigned* sms) {
  unsigned smid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  if (smid < lo || smid >= hi || ((smid >> shift) & 1u) != parity) return;
  if (threadIdx.x == 0) {
    atomicOr(&sms[smid / 32], 1u << (smid % 32));
    atomicAdd(&sms[7], 1u);  // blocks that read
  }
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (unsigned k = 0; k < loads; ++k) s += in[((gid * loads + k) * 0x9e3779b1u) & mask];
  out[gid] = s;
}

int main(int argc, char** argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: probe38 BITS LO HI SHIFT PARITY\n");
    return 2;
  }
  const unsigned bits = atoi(argv[1]), lo = atoi(argv[2]), hi = atoi(argv[3]), shift = atoi(argv[4]),
                 parity = atoi(argv[5]);
  int nsm = 0;
  cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0);
  unsigned active = 0;
  for (int s = 0; s < nsm; ++s)
    if (unsigned(s) >= lo && unsigned(s) < hi && ((unsigned(s) >> shift) & 1u) == parity) ++active;
  const unsigned blocks = nsm * 8, block = 256;
  // The same number of loads in all: 2^23 over the active SMs' threads.
  const unsigned loads = active ? (1u << 23) / (active * 8 * block) : 0;
  float *in, *out;
  unsigned* sms;
  cudaMalloc(&in, sizeof(float) << bits);
  cudaMemset(in, 0, sizeof(float) << bits);
  cudaMalloc(&out, sizeof(float) * blocks * block);
  cudaMalloc(&sms, 32);
  cudaMemset(sms, 0, 32);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  float ms = 0;
  for (int rep = 0; rep < 3; ++rep) {
    cudaEventRecord(a);
    gather_sel<<<blocks, block>>>(in, out, loads, (1u << bits) - 1, lo, hi, shift, parity, sms);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
  }
  unsigned seen[8];
  cudaMemcpy(seen, sms, 32, cudaMemcpyDeviceToHost);
  unsigned ran = 0;
  for (int w = 0; w < 7; ++w) ran += __builtin_popcount(seen[w]);
  printf("bits %u lo %u hi %u shift %u parity %u: SMs expected %u ran %u, loads a thread %u, blocks that read %u "
         "(3 launches), %.1f us (the last, warm L2)\n",
         bits, lo, hi, shift, parity, active, ran, loads, seen[7], ms * 1e3);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("%s: %d SMs, L2 %d bytes, persisting L2 max %d, bus %d bits, global %zu bytes\n", p.name,
         p.multiProcessorCount, p.l2CacheSize, p.persistingL2CacheMaxSize, p.memoryBusWidth, p.totalGlobalMem);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
