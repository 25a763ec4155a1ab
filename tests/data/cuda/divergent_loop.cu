// PMPP 5.3: a loop whose trip count differs by lane (kernels/divergent_loop.kir in CUDA C).
extern "C" __global__ void divergent_loop(unsigned* out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned trips = t % 3 + 6;
  unsigned acc = 0;
  for (unsigned i = 0; i < trips; ++i) acc += i;
  out[t] = acc;
}
