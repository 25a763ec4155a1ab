__device__ __forceinline__ bool hide(bool p) { unsigned v = p; asm volatile("" : "+r"(v)); return v != 0u; }
// strided max, plain
extern "C" __global__ void a_plain(const float* in, float* out, unsigned n) {
  float m = -3.4e38f;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) m = fmaxf(m, in[c]);
  out[threadIdx.x] = m;
}
// + a store to another global inside the loop
extern "C" __global__ void b_store(const float* in, float* out, unsigned* log, unsigned n) {
  float m = -3.4e38f;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) { m = fmaxf(m, in[c]); log[threadIdx.x] = c; }
  out[threadIdx.x] = m;
}
// + atomicAdd whose result indexes a store (the trace recorder's shape)
extern "C" __global__ void c_atomic_slot(const float* in, float* out, unsigned* log, unsigned n) {
  float m = -3.4e38f;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) { m = fmaxf(m, in[c]); unsigned s = atomicAdd(log, 1u); log[s + 1] = c; }
  out[threadIdx.x] = m;
}
// + clock64 read only
extern "C" __global__ void d_clock(const float* in, float* out, long long* log, unsigned n) {
  float m = -3.4e38f; long long t = 0;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) { m = fmaxf(m, in[c]); t += clock64(); }
  out[threadIdx.x] = m; log[threadIdx.x] = t;
}
// atomic slot store but no load
extern "C" __global__ void e_atomic_noload(float* out, unsigned* log, unsigned n) {
  float m = 0;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) { m += c; unsigned s = atomicAdd(log, 1u); log[s + 1] = c; }
  out[threadIdx.x] = m;
}
// load + store to the same array (in place update)
extern "C" __global__ void f_inplace(float* a, unsigned n) {
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) a[c] = a[c] * 2.0f;
}
// load + store to different arrays (softmax's third loop)
extern "C" __global__ void g_copy(const float* in, float* out, unsigned n) {
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) out[c] = in[c] * 2.0f;
}
extern "C" __global__ void h_load_branch_on_atomic(const float* in, float* out, unsigned* log, unsigned n, unsigned cap) {
  float m = -3.4e38f;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) { m = fmaxf(m, in[c]); unsigned s = atomicAdd(log, 1u); if (s < cap) log[s + 1] = c; }
  out[threadIdx.x] = m;
}
extern "C" __global__ void i_noload_branch_on_atomic(float* out, unsigned* log, unsigned n, unsigned cap) {
  float m = 0;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) { m += c; unsigned s = atomicAdd(log, 1u); if (s < cap) log[s + 1] = c; }
  out[threadIdx.x] = m;
}
extern "C" __global__ void j_load_then_atomic_noBranch(const float* in, float* out, unsigned* log, unsigned n) {
  float m = -3.4e38f;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) { m = fmaxf(m, in[c]); atomicAdd(log, 1u); }
  out[threadIdx.x] = m;
}
extern "C" __global__ void k_load_store(const float* in, float* out, unsigned* log, unsigned n) {
  float m = -3.4e38f;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) { m = fmaxf(m, in[c]); if (hide(c & 1)) log[c] = 1; }
  out[threadIdx.x] = m;
}
extern "C" __global__ void l_load_atomic_used(const float* in, float* out, unsigned* log, unsigned n) {
  float m = -3.4e38f;
  for (unsigned c = threadIdx.x; hide(c < n); c += blockDim.x) { m = fmaxf(m, in[c]); m += atomicAdd(log, 1u); }
  out[threadIdx.x] = m;
}
extern "C" __global__ void m_atomic_then_sync(unsigned* c, unsigned* out, unsigned n) {
  __shared__ unsigned sh[128];
  unsigned i = threadIdx.x, s = 0;
  while (hide(i < n)) { s += atomicAdd(c, 1u); i += blockDim.x; }
  sh[threadIdx.x] = s;
  __syncthreads();
  out[threadIdx.x] = sh[(threadIdx.x + 1) % 128];
}
extern "C" __global__ void n_sync_then_atomic(unsigned* c, unsigned* out, unsigned n) {
  __shared__ unsigned sh[128];
  sh[threadIdx.x] = n;
  __syncthreads();
  unsigned i = threadIdx.x, s = sh[(threadIdx.x + 1) % 128];
  while (hide(i < n)) { s += atomicAdd(c, 1u); i += blockDim.x; }
  out[threadIdx.x] = s;
}
extern "C" __global__ void o_atomic_shared_after(unsigned* c, unsigned* out, unsigned n) {
  __shared__ unsigned sh[128];
  unsigned i = threadIdx.x, s = 0;
  while (hide(i < n)) { s += atomicAdd(c, 1u); i += blockDim.x; }
  sh[threadIdx.x] = s;
  out[threadIdx.x] = sh[(threadIdx.x + 1) % 128];
}
