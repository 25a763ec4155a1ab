// Stop 38's chase from many SMs (docs/validation/timing.md, "Stop 38"): one random cycle through
// the lines of a footprint (one 8-byte node a 128-byte line), walked by B blocks of one thread.
// Block b starts at the cycle's position b x nodes / B and walks nodes / B steps (together the
// blocks touch every line once), then times 8,192 more (the next block's part, touched in the
// first pass). With B = 1 this is calibrate's chase-l2-*m. If the L2 keeps every line the SMs
// together brought in, the timed loads hit for footprints one SM keeps; if the SMs together find
// only part of it, they miss. Usage: chase38 MIB BLOCKS. Built and run on the device (batch38d.sh).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>
#include <cuda_runtime.h>

__global__ void chase(const unsigned long long* buf, const unsigned long long* starts, unsigned warm, unsigned steps,
                      unsigned long long* out) {
  unsigned long long p = starts[blockIdx.x];
  for (unsigned i = 0; i < warm; ++i) p = buf[p];
  const long long t0 = clock64();
  for (unsigned i = 0; i < steps; ++i) p = buf[p];
  const long long t1 = clock64();
  out[2 * blockIdx.x] = t1 - t0;
  out[2 * blockIdx.x + 1] = p;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: chase38 MIB BLOCKS\n");
    return 2;
  }
  const unsigned mib = atoi(argv[1]), blocks = atoi(argv[2]), steps = 8192;
  const unsigned nodes = (unsigned long long)mib << 20 >> 7;
  std::vector<unsigned> order(nodes);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937 rng(38);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<unsigned long long> host((size_t)nodes * 16, 0);
  for (unsigned i = 0; i < nodes; ++i) host[(size_t)order[i] * 16] = (unsigned long long)order[(i + 1) % nodes] * 16;
  std::vector<unsigned long long> starts(blocks);
  for (unsigned b = 0; b < blocks; ++b) starts[b] = (unsigned long long)order[(size_t)b * nodes / blocks] * 16;
  unsigned long long *buf, *dstarts, *out;
  cudaMalloc(&buf, host.size() * 8);
  cudaMemcpy(buf, host.data(), host.size() * 8, cudaMemcpyHostToDevice);
  cudaMalloc(&dstarts, blocks * 8);
  cudaMemcpy(dstarts, starts.data(), blocks * 8, cudaMemcpyHostToDevice);
  cudaMalloc(&out, blocks * 16);
  chase<<<blocks, 1>>>(buf, dstarts, nodes / blocks, steps, out);
  std::vector<unsigned long long> res(2 * blocks);
  cudaMemcpy(res.data(), out, blocks * 16, cudaMemcpyDeviceToHost);
  double sum = 0, lo = 1e30, hi = 0;
  for (unsigned b = 0; b < blocks; ++b) {
    const double c = double(res[2 * b]) / steps;
    sum += c, lo = std::min(lo, c), hi = std::max(hi, c);
  }
  printf("chase38 %u MiB, %u block(s): %.1f cycles a load (mean over blocks; %.1f-%.1f)%s\n", mib, blocks, sum / blocks,
         lo, hi, cudaGetLastError() == cudaSuccess ? "" : " CUDA ERROR");
  return 0;
}
