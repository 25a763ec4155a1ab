// Stop 38: kernels/reduce_coarsened.kir as warpsim emits it (warpsim emit-cuda), with clock64()
// read at the start, where the serial loads end (L_tree) and at the end of each warp (lane 0 writes
// them and %smid); main() launches it for n = 2^22 at the coarse factor given, after writing
// 256 MiB elsewhere (the L2 evicted, as the backend does), and prints the mean load phase, tree
// phase and life of a warp and the mean span of an SM. Built and run on the device by batch38e.sh.
// ---- warpsim prelude: exact IR semantics (docs/ir.md, "Edge cases") ----
#define WS_DEVICE __device__ __forceinline__

WS_DEVICE unsigned ws_linear_tid() {
  return threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
}
// %laneid and %warpid come from the linear thread index (the hardware %warpid is the warp's slot
// on its SM, not its index in the block).
WS_DEVICE unsigned ws_laneid() { return ws_linear_tid() % 32u; }
WS_DEVICE unsigned ws_warpid() { return ws_linear_tid() / 32u; }
WS_DEVICE unsigned ws_nwarpid() { return (blockDim.x * blockDim.y * blockDim.z + 31u) / 32u; }
WS_DEVICE unsigned ws_smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

// s32 wraps on overflow.
WS_DEVICE int ws_add(int a, int b) { return (int)((unsigned)a + (unsigned)b); }
WS_DEVICE int ws_sub(int a, int b) { return (int)((unsigned)a - (unsigned)b); }
WS_DEVICE int ws_mul(int a, int b) { return (int)((unsigned)a * (unsigned)b); }
WS_DEVICE int ws_mad(int a, int b, int c) { return (int)((unsigned)a * (unsigned)b + (unsigned)c); }
WS_DEVICE int ws_neg(int a) { return (int)(0u - (unsigned)a); }
WS_DEVICE int ws_abs(int a) { return a < 0 ? ws_neg(a) : a; }

// Division and remainder by zero give 0; INT_MIN / -1 wraps to INT_MIN (remainder 0).
WS_DEVICE unsigned ws_div(unsigned a, unsigned b) { return b == 0u ? 0u : a / b; }
WS_DEVICE unsigned long long ws_div(unsigned long long a, unsigned long long b) { return b == 0ull ? 0ull : a / b; }
WS_DEVICE int ws_div(int a, int b) {
  if (b == 0) return 0;
  if (b == -1) return ws_neg(a);
  return a / b;
}
WS_DEVICE unsigned ws_rem(unsigned a, unsigned b) { return b == 0u ? 0u : a % b; }
WS_DEVICE unsigned long long ws_rem(unsigned long long a, unsigned long long b) { return b == 0ull ? 0ull : a % b; }
WS_DEVICE int ws_rem(int a, int b) { return (b == 0 || b == -1) ? 0 : a % b; }

WS_DEVICE unsigned ws_min(unsigned a, unsigned b) { return a < b ? a : b; }
WS_DEVICE int ws_min(int a, int b) { return a < b ? a : b; }
WS_DEVICE unsigned long long ws_min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
WS_DEVICE unsigned ws_max(unsigned a, unsigned b) { return a > b ? a : b; }
WS_DEVICE int ws_max(int a, int b) { return a > b ? a : b; }
WS_DEVICE unsigned long long ws_max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

// s64 likewise. (8- and 16-bit values promote to int and use the int helpers; the assignment
// back to the 16-bit register keeps the low bits, as the IR does.)
WS_DEVICE long long ws_add(long long a, long long b) { return (long long)((unsigned long long)a + (unsigned long long)b); }
WS_DEVICE long long ws_sub(long long a, long long b) { return (long long)((unsigned long long)a - (unsigned long long)b); }
WS_DEVICE long long ws_mul(long long a, long long b) { return (long long)((unsigned long long)a * (unsigned long long)b); }
WS_DEVICE long long ws_mad(long long a, long long b, long long c) {
  return (long long)((unsigned long long)a * (unsigned long long)b + (unsigned long long)c);
}
WS_DEVICE long long ws_neg(long long a) { return (long long)(0ull - (unsigned long long)a); }
WS_DEVICE long long ws_abs(long long a) { return a < 0 ? ws_neg(a) : a; }
WS_DEVICE long long ws_div(long long a, long long b) {
  if (b == 0) return 0;
  if (b == -1) return ws_neg(a);
  return a / b;
}
WS_DEVICE long long ws_rem(long long a, long long b) { return (b == 0 || b == -1) ? 0 : a % b; }
WS_DEVICE long long ws_min(long long a, long long b) { return a < b ? a : b; }
WS_DEVICE long long ws_max(long long a, long long b) { return a > b ? a : b; }
WS_DEVICE unsigned ws_mad(unsigned a, unsigned b, unsigned c) { return a * b + c; }

// Shifts by the width or more: shl and logical shr give 0, arithmetic shr gives the sign.
WS_DEVICE unsigned ws_shl(unsigned a, unsigned s) { return s >= 32u ? 0u : a << s; }
WS_DEVICE int ws_shl(int a, unsigned s) { return (int)ws_shl((unsigned)a, s); }
WS_DEVICE unsigned long long ws_shl(unsigned long long a, unsigned s) { return s >= 64u ? 0ull : a << s; }
WS_DEVICE unsigned ws_shr(unsigned a, unsigned s) { return s >= 32u ? 0u : a >> s; }
WS_DEVICE int ws_shr(int a, unsigned s) { return a >> (s >= 31u ? 31u : s); }
WS_DEVICE unsigned long long ws_shr(unsigned long long a, unsigned s) { return s >= 64u ? 0ull : a >> s; }
WS_DEVICE long long ws_shl(long long a, unsigned s) { return (long long)ws_shl((unsigned long long)a, s); }
WS_DEVICE long long ws_shr(long long a, unsigned s) { return a >> (s >= 63u ? 63u : s); }

// f32 -> integer rounds toward zero and saturates; NaN gives 0.
WS_DEVICE unsigned ws_f2u32(float x) { return x != x ? 0u : __float2uint_rz(x); }
WS_DEVICE int ws_f2s32(float x) { return x != x ? 0 : __float2int_rz(x); }
WS_DEVICE unsigned long long ws_f2u64(float x) { return x != x ? 0ull : __float2ull_rz(x); }
WS_DEVICE long long ws_f2s64(double x) { return x != x ? 0ll : __double2ll_rz(x); }
WS_DEVICE unsigned long long ws_d2u64(double x) { return x != x ? 0ull : __double2ull_rz(x); }
WS_DEVICE int ws_d2s32(double x) { return x != x ? 0 : __double2int_rz(x); }
WS_DEVICE unsigned ws_d2u32(double x) { return x != x ? 0u : __double2uint_rz(x); }
// To an 8- or 16-bit integer: truncate, saturate to [lo, hi], NaN gives 0.
WS_DEVICE int ws_f2narrow(double x, int lo, int hi) {
  if (x != x) return 0;
  x = trunc(x);
  return x <= (double)lo ? lo : x >= (double)hi ? hi : (int)x;
}

// Bit-field extract and insert, byte permute: PTX's own instructions, so every edge case (positions
// and lengths past the width, mod 256) is the hardware's.
WS_DEVICE unsigned ws_bfe(unsigned a, unsigned p, unsigned n) { unsigned d; asm("bfe.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(p), "r"(n)); return d; }
WS_DEVICE int ws_bfe(int a, unsigned p, unsigned n) { int d; asm("bfe.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(p), "r"(n)); return d; }
WS_DEVICE unsigned long long ws_bfe(unsigned long long a, unsigned p, unsigned n) { unsigned long long d; asm("bfe.u64 %0, %1, %2, %3;" : "=l"(d) : "l"(a), "r"(p), "r"(n)); return d; }
WS_DEVICE long long ws_bfe(long long a, unsigned p, unsigned n) { long long d; asm("bfe.s64 %0, %1, %2, %3;" : "=l"(d) : "l"(a), "r"(p), "r"(n)); return d; }
WS_DEVICE unsigned ws_bfi(unsigned a, unsigned b, unsigned p, unsigned n) { unsigned d; asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(p), "r"(n)); return d; }
WS_DEVICE unsigned long long ws_bfi(unsigned long long a, unsigned long long b, unsigned p, unsigned n) { unsigned long long d; asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(d) : "l"(a), "l"(b), "r"(p), "r"(n)); return d; }
WS_DEVICE unsigned ws_prmt(unsigned a, unsigned b, unsigned s) { unsigned d; asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(s)); return d; }

// Shuffles over the lanes that run the instruction (`lanes`). A source lane outside the warp or
// not among those lanes gives the lane its own value.
WS_DEVICE unsigned ws_shfl(unsigned lanes, unsigned v, unsigned long long src) {
  const unsigned lane = ws_laneid();
  const bool ok = src < 32ull && ((lanes >> (unsigned)src) & 1u);
  return __shfl_sync(lanes, v, ok ? (int)src : (int)lane);
}
WS_DEVICE unsigned long long ws_down_src(unsigned delta) { return (unsigned long long)ws_laneid() + delta; }
WS_DEVICE unsigned long long ws_up_src(unsigned delta) {
  return delta <= ws_laneid() ? (unsigned long long)(ws_laneid() - delta) : 32ull;
}
WS_DEVICE unsigned long long ws_xor_src(unsigned mask) { return (unsigned long long)(ws_laneid() ^ mask); }
WS_DEVICE unsigned long long ws_idx_src(unsigned lane) { return lane; }
WS_DEVICE unsigned ws_shfl_down(unsigned m, unsigned v, unsigned d) { return ws_shfl(m, v, ws_down_src(d)); }
WS_DEVICE int ws_shfl_down(unsigned m, int v, unsigned d) { return (int)ws_shfl(m, (unsigned)v, ws_down_src(d)); }
WS_DEVICE float ws_shfl_down(unsigned m, float v, unsigned d) { return __uint_as_float(ws_shfl(m, __float_as_uint(v), ws_down_src(d))); }
WS_DEVICE unsigned ws_shfl_up(unsigned m, unsigned v, unsigned d) { return ws_shfl(m, v, ws_up_src(d)); }
WS_DEVICE int ws_shfl_up(unsigned m, int v, unsigned d) { return (int)ws_shfl(m, (unsigned)v, ws_up_src(d)); }
WS_DEVICE float ws_shfl_up(unsigned m, float v, unsigned d) { return __uint_as_float(ws_shfl(m, __float_as_uint(v), ws_up_src(d))); }
WS_DEVICE unsigned ws_shfl_xor(unsigned m, unsigned v, unsigned x) { return ws_shfl(m, v, ws_xor_src(x)); }
WS_DEVICE int ws_shfl_xor(unsigned m, int v, unsigned x) { return (int)ws_shfl(m, (unsigned)v, ws_xor_src(x)); }
WS_DEVICE float ws_shfl_xor(unsigned m, float v, unsigned x) { return __uint_as_float(ws_shfl(m, __float_as_uint(v), ws_xor_src(x))); }
WS_DEVICE unsigned ws_shfl_idx(unsigned m, unsigned v, unsigned i) { return ws_shfl(m, v, ws_idx_src(i)); }
WS_DEVICE int ws_shfl_idx(unsigned m, int v, unsigned i) { return (int)ws_shfl(m, (unsigned)v, ws_idx_src(i)); }
WS_DEVICE float ws_shfl_idx(unsigned m, float v, unsigned i) { return __uint_as_float(ws_shfl(m, __float_as_uint(v), ws_idx_src(i))); }
// ---- end of prelude ----

// kernel reduce_coarsened (plain mode), emitted by warpsim from 40 IR instructions
extern "C" __global__ void reduce_coarsened(const unsigned long long r_input /* ptr.f32 */, const unsigned long long r_out /* ptr.f32 */, const unsigned r_n, const unsigned r_coarse, long long* clk) {
  const long long t0 = clock64();
  long long t1 = 0;
  __shared__ __align__(16) unsigned char smem[4096];
  const unsigned s_partialSum = 0u;  // shared f32 partialSum[1024]
  bool r_inb = false, r_more = false, r_adds = false, r_first = false;
  unsigned r_t = 0u, r_segment = 0u, r_i = 0u, r_k = 0u, r_tiles = 0u, r_stride = 0u, r_mine = 0u, r_other = 0u;
  unsigned long long r_off = 0ull, r_p = 0ull;
  float r_sum = 0.0f, r_x = 0.0f, r_y = 0.0f;
  // block 0
  r_t = threadIdx.x;  // 11: mov.u32 t, %tid.x
  r_tiles = ws_shl(r_coarse, 1u);  // 12: shl.u32 tiles, coarse, 1
  r_segment = blockIdx.x * blockDim.x;  // 13: mul.u32 segment, %ctaid.x, %ntid.x
  r_segment = r_segment * r_tiles;  // 14: mul.u32 segment, segment, tiles
  r_i = r_segment + r_t;  // 15: add.u32 i, segment, t
  r_sum = 0.0f;  // 16: mov.f32 sum, 0.0
  r_k = 0u;  // 17: mov.u32 k, 0
  // block 1
L_serial: ;
  r_more = r_k < r_tiles;  // 19: setp.lt.u32 more, k, tiles
  if (!r_more) goto L_tree;  // 20: @!more bra tree
  // block 2
  r_inb = r_i < r_n;  // 21: setp.lt.u32 inb, i, n
  if (!r_inb) goto L_skip;  // 22: @!inb bra skip
  // block 3
  r_off = (unsigned long long)r_i * 4u;  // 23: mul.wide.u32 off, i, 4
  r_p = r_input + r_off;  // 24: add.u64 p, input, off
  r_x = *((float*)(r_p));  // 25: ld.global.f32 x, [p]
  r_sum = __fadd_rn(r_sum, r_x);  // 26: add.f32 sum, sum, x
  // block 4
L_skip: ;
  r_i = r_i + blockDim.x;  // 28: add.u32 i, i, %ntid.x
  r_k = r_k + 1u;  // 29: add.u32 k, k, 1
  goto L_serial;  // 30: bra serial
  // block 5
L_tree: ;
  t1 = clock64();
  r_mine = r_t * 4u + s_partialSum;  // 32: mad.u32 mine, t, 4, partialSum
  *((float*)(smem + (r_mine))) = r_sum;  // 33: st.shared.f32 [mine], sum
  r_stride = ws_shr(blockDim.x, 1u);  // 34: shr.u32 stride, %ntid.x, 1
  // block 6
L_round: ;
  r_more = r_stride >= 1u;  // 36: setp.ge.u32 more, stride, 1
  if (!r_more) goto L_finish;  // 37: @!more bra finish
  // block 7
  __syncthreads();  // 38: bar.sync
  r_adds = r_t < r_stride;  // 39: setp.lt.u32 adds, t, stride
  if (!r_adds) goto L_next;  // 40: @!adds bra next
  // block 8
  r_other = r_stride * 4u + r_mine;  // 41: mad.u32 other, stride, 4, mine
  r_x = *((float*)(smem + (r_mine)));  // 42: ld.shared.f32 x, [mine]
  r_y = *((float*)(smem + (r_other)));  // 43: ld.shared.f32 y, [other]
  r_x = __fadd_rn(r_x, r_y);  // 44: add.f32 x, x, y
  *((float*)(smem + (r_mine))) = r_x;  // 45: st.shared.f32 [mine], x
  // block 9
L_next: ;
  r_stride = ws_shr(r_stride, 1u);  // 47: shr.u32 stride, stride, 1
  goto L_round;  // 48: bra round
  // block 10
L_finish: ;
  r_first = r_t == 0u;  // 50: setp.eq.u32 first, t, 0
  if (!r_first) goto L_done;  // 51: @!first bra done
  // block 11
  r_x = *((float*)(smem + (s_partialSum)));  // 52: ld.shared.f32 x, [partialSum]
  r_off = (unsigned long long)blockIdx.x * 4u;  // 53: mul.wide.u32 off, %ctaid.x, 4
  r_p = r_out + r_off;  // 54: add.u64 p, out, off
  *((float*)(r_p)) = r_x;  // 55: st.global.f32 [p], x
  // block 12
L_done: ;
  if ((threadIdx.x & 31u) == 0) {
    const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32u;
    unsigned sm; asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    clk[4 * w] = t0; clk[4 * w + 1] = t1; clk[4 * w + 2] = clock64(); clk[4 * w + 3] = sm;
  }
  return;  // 57: exit
}

#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <map>
int main(int argc, char** argv) {
  const unsigned n = 1u << 22, coarse = atoi(argv[1]), block = 256, grid = n / (block * 2 * coarse);
  float *in, *out; long long* clk;
  cudaMalloc(&in, n * 4); cudaMalloc(&out, grid * 4);
  std::vector<float> h(n, 1.0f); cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice);
  const unsigned warps = grid * block / 32;
  cudaMalloc(&clk, warps * 32);
  for (int rep = 0; rep < 3; ++rep) {
    // Evict the L2 as the backend does: write 256 MiB elsewhere first.
    void* junk; cudaMalloc(&junk, 256u << 20); cudaMemset(junk, rep, 256u << 20); cudaDeviceSynchronize(); cudaFree(junk);
    reduce_coarsened<<<grid, block>>>((unsigned long long)in, (unsigned long long)out, n, coarse, clk);
    cudaDeviceSynchronize();
  }
  std::vector<long long> c(warps * 4);
  cudaMemcpy(c.data(), clk, warps * 32, cudaMemcpyDeviceToHost);
  // Per SM: the span from its first warp's start to its last warp's end; per warp: load phase, tree phase.
  std::map<long long, std::pair<long long, long long>> span;
  double load = 0, tree = 0, life = 0;
  for (unsigned w = 0; w < warps; ++w) {
    load += c[4 * w + 1] - c[4 * w]; tree += c[4 * w + 2] - c[4 * w + 1]; life += c[4 * w + 2] - c[4 * w];
    auto& s = span[c[4 * w + 3]];
    if (s.first == 0 || c[4 * w] < s.first) s.first = c[4 * w];
    s.second = std::max(s.second, c[4 * w + 2]);
  }
  double sp = 0; for (auto& [sm, s] : span) sp += s.second - s.first;
  printf("coarse %u grid %u: per warp (mean cycles) loads %.0f, tree %.0f, life %.0f; per SM span %.0f (%zu SMs)\n", coarse, grid,
         load / warps, tree / warps, life / warps, sp / span.size(), span.size());
  return 0;
}
