// The fixed prelude of every emitted module: small device helpers that give the IR's edge cases
// (docs/ir.md) exact, flag-independent meaning, and the trace recorder of instrumented mode.
#include <string>
#include <string_view>

#include "cuda/emitter.hpp"
#include "cuda/trace_buffer.hpp"

namespace warpsim::cuda {

namespace {

// Arithmetic helpers. s32 arithmetic goes through unsigned so overflow wraps (in C++ it would be
// undefined). f32 arithmetic uses the _rn intrinsics: each IR instruction rounds once, and the
// compiler may not contract a mul and an add into an fma (or use approximate division) whatever
// the compile flags.
constexpr const char* kHelpers = R"(// ---- warpsim prelude: exact IR semantics (docs/ir.md, "Edge cases") ----
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
)";

// The recorder of instrumented mode. Only the first active lane writes; it takes its slot with an
// atomic because the diverged parts of one warp may run interleaved (independent thread
// scheduling), so the records of a warp are in the order the hardware ran them.
constexpr const char* kRecorder = R"(
// ---- warpsim trace recorder (instrumented mode; layout in cuda/trace_buffer.hpp) ----
struct ws_trace_t {
  unsigned char* warp_base;
  unsigned capacity;
};
WS_DEVICE ws_trace_t ws_trace_begin(unsigned long long buffer, unsigned capacity) {
  const unsigned long long block_linear =
      blockIdx.x + (unsigned long long)blockIdx.y * gridDim.x + (unsigned long long)blockIdx.z * gridDim.x * gridDim.y;
  const unsigned long long warp = block_linear * ws_nwarpid() + ws_warpid();
  ws_trace_t t;
  t.warp_base = (unsigned char*)buffer + warp * ({header}ull + {record}ull * capacity);
  t.capacity = capacity;
  return t;
}
// Appends {block, lanes, clock64, smid} once for the lanes `lanes` (which include the caller).
WS_DEVICE void ws_record_lanes(const ws_trace_t& t, unsigned block, unsigned lanes) {
  const long long now = clock64();
  if (ws_laneid() != (unsigned)(__ffs(lanes) - 1)) return;
  const unsigned slot = atomicAdd((unsigned*)t.warp_base, 1u);
  if (slot >= t.capacity) return;
  unsigned char* r = t.warp_base + {header}ull + {record}ull * slot;
  *(unsigned long long*)r = (unsigned long long)now;
  *(unsigned*)(r + 8) = block;
  *(unsigned*)(r + 12) = lanes;
  *(unsigned*)(r + 16) = ws_smid();
}
WS_DEVICE void ws_record(const ws_trace_t& t, unsigned block) { ws_record_lanes(t, block, __activemask()); }
#define WS_EXIT 0xffffffffu
// A conditional branch's condition, hidden from the optimizer: it cannot compute trip counts (so
// it does not unroll loops) nor fold, thread or if-convert branches; each IR branch stays one
// hardware branch (docs/cuda.md, "Keeping the control flow as written").
WS_DEVICE bool ws_branch(bool p) {
  unsigned v = p;
  asm volatile("" : "+r"(v));
  return v != 0u;
}
)";

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

}  // namespace

std::string cuda_prelude(EmitMode mode) {
  std::string out = kHelpers;
  if (mode == EmitMode::Instrumented) {
    std::string recorder = kRecorder;
    replace_all(recorder, "{header}", std::to_string(kTraceHeaderBytes));
    replace_all(recorder, "{record}", std::to_string(kTraceRecordBytes));
    out += recorder;
  }
  out += "// ---- end of prelude ----\n";
  return out;
}

}  // namespace warpsim::cuda
