// Stop 39's probe of the L2's two halves (docs/validation/timing.md, "Stop 39").
//
// `probe39 map FILE`: for every SM A, one thread on A walks a random cycle through the 8,192 lines
// (one 8-byte node a line) of a fresh 1 MiB region, then one thread on SM T (0) walks the same cycle
// again and times it. If each half of the L2 keeps copies of the lines its own SMs read, T finds
// all of A's lines near (about 290 cycles a load) when A is on T's side, and about half of them far
// (the other half's copy alone) when it is not. Prints each A's cycles a load and writes the SMs of
// T's side (below the midpoint of the lowest and highest) to FILE.
// `probe39 gather BITS FILE SEL`: 2^23 f32 loads at hashed words of a 2^BITS-word footprint from the
// SMs SEL picks: side (FILE's), other (the rest), mixed (every other SM of each, as many SMs as
// side), all. Nsight Compute reads each launch's DRAM bytes (batch39a.sh). If the halves keep their
// own copies, `side` reads about the footprint where `mixed` reads about twice as much.
// One block an SM: the kernels ask for more than half of the SM's shared memory.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>
#include <cuda_runtime.h>

__device__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

__global__ void walk(const unsigned long long* buf, unsigned long long start, unsigned steps, unsigned target,
                     unsigned long long* out) {
  extern __shared__ unsigned char pad[];
  if (smid() != target || threadIdx.x != 0) return;
  pad[0] = 1;
  unsigned long long p = start;
  const long long t0 = clock64();
  for (unsigned i = 0; i < steps; ++i) p = buf[p];
  const long long t1 = clock64();
  out[0] = t1 - t0;
  out[1] = p + pad[0];
}

__global__ void flush(const float* big, size_t n, float* sink) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) s += big[i];
  if (s == 12345.f) sink[0] = s;
}

__global__ void gather_sel(const float* in, float* out, unsigned loads, unsigned mask, const unsigned* pick) {
  extern __shared__ unsigned char pad[];
  const unsigned s = smid();
  if (!((pick[s / 32] >> (s % 32)) & 1u)) return;
  if (threadIdx.x == 0) pad[0] = 0;
  // dense over the picked SMs (one block an SM): the active threads read every word once
  unsigned rank = 0;
  for (unsigned w = 0; w < s / 32; ++w) rank += __popc(pick[w]);
  rank += __popc(pick[s / 32] & ((1u << (s % 32)) - 1u));
  const unsigned gid = rank * blockDim.x + threadIdx.x;
  float acc = 0;
  for (unsigned k = 0; k < loads; ++k) acc += in[((gid * loads + k) * 0x9e3779b1u) & mask];
  out[gid] = acc;
}

static const int kPad = 120 * 1024;  // more than half of the SM's 228 KiB

int main(int argc, char** argv) {
  int nsm = 0;
  cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0);
  cudaFuncSetAttribute(walk, cudaFuncAttributeMaxDynamicSharedMemorySize, kPad);
  cudaFuncSetAttribute(gather_sel, cudaFuncAttributeMaxDynamicSharedMemorySize, kPad);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "map" && argc == 3) {
    const unsigned lines = 8192, regions = nsm;  // 1 MiB a region
    std::vector<unsigned long long> host((size_t)regions * lines * 16, 0);
    std::vector<unsigned long long> starts(regions);
    std::mt19937 rng(39);
    for (unsigned r = 0; r < regions; ++r) {
      std::vector<unsigned> order(lines);
      std::iota(order.begin(), order.end(), 0u);
      std::shuffle(order.begin(), order.end(), rng);
      const size_t base = (size_t)r * lines * 16;
      for (unsigned i = 0; i < lines; ++i) host[base + (size_t)order[i] * 16] = base + (size_t)order[(i + 1) % lines] * 16;
      starts[r] = base + (size_t)order[0] * 16;
    }
    unsigned long long *buf, *out;
    float *big, *sink;
    const size_t nbig = (size_t)256 << 20 >> 2;  // 256 MiB
    cudaMalloc(&buf, host.size() * 8);
    cudaMemcpy(buf, host.data(), host.size() * 8, cudaMemcpyHostToDevice);
    cudaMalloc(&out, 16);
    cudaMalloc(&big, nbig * 4);
    cudaMemset(big, 0, nbig * 4);
    cudaMalloc(&sink, 4);
    flush<<<nsm * 4, 256>>>(big, nbig, sink);
    for (int t : {0, -1}) {
      std::vector<double> cyc(regions);
      const unsigned target = t >= 0 ? unsigned(t) : 0;  // second pass: T is the SM farthest from 0 (below)
      static unsigned far_sm = 0;
      const unsigned tsm = t >= 0 ? target : far_sm;
      for (unsigned a = 0; a < regions; ++a) {
        walk<<<nsm, 32, kPad>>>(buf, starts[a], lines, a, out);  // A brings the region in
        walk<<<nsm, 32, kPad>>>(buf, starts[a], lines, tsm, out);  // T walks it again, timed
        unsigned long long r[2];
        cudaMemcpy(r, out, 16, cudaMemcpyDeviceToHost);
        cyc[a] = double(r[0]) / lines;
      }
      // the regions are used again by the second pass: flush them out first
      flush<<<nsm * 4, 256>>>(big, nbig, sink);
      const double lo = *std::min_element(cyc.begin(), cyc.end()), hi = *std::max_element(cyc.begin(), cyc.end());
      const double mid = (lo + hi) / 2;
      printf("T = SM %u: cycles a load, A = 0..%u:\n", tsm, regions - 1);
      for (unsigned a = 0; a < regions; ++a) printf("%u:%.0f%s", a, cyc[a], a % 12 == 11 ? "\n" : " ");
      printf("\nlowest %.1f highest %.1f midpoint %.1f\nnear side of SM %u:", lo, hi, mid, tsm);
      unsigned count = 0;
      for (unsigned a = 0; a < regions; ++a)
        if (cyc[a] < mid) printf(" %u", a), ++count;
      printf(" (%u SMs)\n", count);
      if (t >= 0) {
        FILE* f = fopen(argv[2], "w");
        for (unsigned a = 0; a < regions; ++a)
          if (cyc[a] < mid) fprintf(f, "%u\n", a);
        fclose(f);
        far_sm = unsigned(std::max_element(cyc.begin(), cyc.end()) - cyc.begin());
      }
    }
    printf("%s\n", cudaGetLastError() == cudaSuccess ? "ok" : "CUDA ERROR");
    return 0;
  }
  if (mode == "gather" && argc == 5) {
    const unsigned bits = atoi(argv[2]);
    const std::string sel = argv[4];
    std::vector<int> side(nsm, 0);
    FILE* f = fopen(argv[3], "r");
    if (!f) return 2;
    for (unsigned s; fscanf(f, "%u", &s) == 1;)
      if (int(s) < nsm) side[s] = 1;
    fclose(f);
    std::vector<unsigned> pick(8, 0);
    unsigned nside = 0, taken_side = 0, taken_other = 0, active = 0;
    for (int s = 0; s < nsm; ++s) nside += side[s];
    for (int s = 0; s < nsm; ++s) {
      bool on = sel == "all" || (sel == "side" && side[s]) || (sel == "other" && !side[s]);
      if (sel == "mixed") {  // as many SMs as `side`, half from each
        if (side[s] && taken_side < nside / 2) on = true, ++taken_side;
        if (!side[s] && taken_other < nside - nside / 2) on = true, ++taken_other;
      }
      if (on) pick[s / 32] |= 1u << (s % 32), ++active;
    }
    const unsigned blocks = nsm, block = 1024;
    const unsigned loads = (1u << 23) / (active * block);
    float *in, *out;
    unsigned* dpick;
    cudaMalloc(&in, sizeof(float) << bits);
    cudaMemset(in, 0, sizeof(float) << bits);
    cudaMalloc(&out, sizeof(float) * blocks * block);
    cudaMalloc(&dpick, 32);
    cudaMemcpy(dpick, pick.data(), 32, cudaMemcpyHostToDevice);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    float ms = 0;
    for (int rep = 0; rep < 3; ++rep) {
      cudaEventRecord(a);
      gather_sel<<<blocks, block, kPad>>>(in, out, loads, (1u << bits) - 1, dpick);
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      cudaEventElapsedTime(&ms, a, b);
    }
    printf("gather bits %u sel %s: %u SMs (side has %u), %u loads a thread, %.1f us (the last, warm)%s\n", bits,
           sel.c_str(), active, nside, loads, ms * 1e3, cudaGetLastError() == cudaSuccess ? "" : " CUDA ERROR");
    return 0;
  }
  fprintf(stderr, "usage: probe39 map FILE | probe39 gather BITS FILE side|other|mixed|all\n");
  return 2;
}
