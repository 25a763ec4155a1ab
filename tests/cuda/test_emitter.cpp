#include <catch2/catch.hpp>

#include "all_opcodes.hpp"
#include "cuda/emitter.hpp"
#include "kir.hpp"

using namespace warpsim;
using cuda::EmitMode;

namespace {

std::string emit(const std::string& kir, EmitMode mode = EmitMode::Plain) {
  auto m = test::parse_kir(kir);
  return cuda::emit_kernel(m.module.kernels.at(0), m.analyses.at(0), mode);
}

constexpr const char* kSmall = R"(
kernel small(ptr.f32 a, u32 n) {
    shared f32 tile[32]
    reg u32 i, q
    reg u64 pa
    reg f32 x, y
    reg pred inside
    mov.u32 i, %tid.x
    setp.lt.u32 inside, i, n
    @!inside bra done
    div.u32 q, n, i
    mul.wide.u32 pa, i, 4
    add.u64 pa, a, pa
    ld.global.f32 x, [pa+4]
    mad.f32 y, x, x, 1.5
    add.f32 x, x, y
    st.shared.f32 [tile+8], x
    @inside shfl.down.f32 y, x, 16
done:
    exit
}
)";

}  // namespace

TEST_CASE("the emitted kernel keeps the IR's name, parameters and registers", "[cuda][emitter]") {
  const std::string code = emit(kSmall);
  CHECK_THAT(code, Catch::Contains(
                       "extern \"C\" __global__ void small(const unsigned long long r_a /* ptr.f32 */, const unsigned r_n) {"));
  CHECK_THAT(code, Catch::Contains("unsigned r_i = 0u, r_q = 0u;"));
  CHECK_THAT(code, Catch::Contains("__shared__ __align__(16) unsigned char smem[128];"));
  CHECK_THAT(code, Catch::Contains("const unsigned s_tile = 0u;  // shared f32 tile[32]"));
}

TEST_CASE("opcodes with edge cases go through the prelude's exact helpers", "[cuda][emitter]") {
  const std::string code = emit(kSmall);
  CHECK_THAT(code, Catch::Contains("r_q = ws_div(r_n, r_i);"));
  CHECK_THAT(code, Catch::Contains("r_y = __fmaf_rn(r_x, r_x, 1.5f);"));
  CHECK_THAT(code, Catch::Contains("r_x = __fadd_rn(r_x, r_y);"));
  CHECK_THAT(code, Catch::Contains("r_pa = (unsigned long long)r_i * 4u;"));
  CHECK_THAT(code, Catch::Contains("r_x = *((float*)(r_pa + 4ull));"));
  CHECK_THAT(code, Catch::Contains("*((float*)(smem + (s_tile + 8u))) = r_x;"));
}

TEST_CASE("a shared or local access through a register adds its offset to the pointer, not to the u32 address",
          "[cuda][emitter]") {
  // smem + (u32)(a + 8) made NVRTC keep a 64-bit pointer per offset live across a loop (set25's
  // matmul_rect: 93 registers, 32 with this form); the IR's shared addresses do not wrap, so the
  // two forms agree on every access that does not fault.
  const std::string code = emit(R"(kernel offs(ptr.f32 out) {
    shared f32 tile[64]
    local f32 spill[4]
    reg u32 a, l
    reg f32 x, y
    mul.u32 a, %tid.x, 4
    ld.shared.f32 x, [a+8]
    ld.shared.f32 y, [a-4]
    mov.u32 l, 4
    st.local.f32 [l+4], x
    st.shared.f32 [a], y
    exit
}
)");
  CHECK_THAT(code, Catch::Contains("r_x = *((float*)(smem + (r_a) + 8));"));
  CHECK_THAT(code, Catch::Contains("r_y = *((float*)(smem + (r_a) - 4));"));
  CHECK_THAT(code, Catch::Contains("*((float*)(smem + (r_a))) = r_y;"));
  CHECK_THAT(code, Catch::Contains("lmem + (r_l) + 4)"));
}

TEST_CASE("a vector access is one access of CUDA's vector type, not element by element", "[cuda][emitter]") {
  // Element by element through a float pointer, NVRTC cannot prove a generic pointer 16-byte aligned
  // and issues four scalar loads (set28's batch_mm4: 32 LD.E where float4 code runs 8 LDG.E.128);
  // a PTX .v4 access is aligned to its size, which the cast to float4 tells NVVM.
  const std::string code = emit(R"(kernel vec(ptr.f32 in, ptr.u32 out) {
    reg u64 p, q
    reg f32 a, b, c, d
    reg u32 x, y
    mov.u64 p, in
    ld.global.v4.f32 {a, b, c, d}, [p+16]
    ld.global.nc.v2.u32 {x, y}, [p]
    mov.u64 q, out
    st.global.v2.u32 [q+8], {y, x}
    exit
}
)");
  CHECK_THAT(code, Catch::Contains("const float4 ws_v = *(const float4*)((float*)(r_p + 16ull)); "
                                   "r_a = ws_v.x; r_b = ws_v.y; r_c = ws_v.z; r_d = ws_v.w;"));
  CHECK_THAT(code, Catch::Contains("const uint2 ws_v = __ldg((const uint2*)"));
  CHECK_THAT(code, Catch::Contains("uint2 ws_v = {(unsigned)(r_y), (unsigned)(r_x)}; *(uint2*)"));
  CHECK_THAT(code, !Catch::Contains("ws_p[1]"));
}

TEST_CASE("guards become if statements, a guarded warp op names the lanes whose guard holds", "[cuda][emitter]") {
  const std::string code = emit(kSmall);
  CHECK_THAT(code, Catch::Contains("if (!r_inside) goto L_done;"));
  CHECK_THAT(code, Catch::Contains("{ const unsigned ws_lanes = __ballot_sync(__activemask(), r_inside); if (r_inside) "
                                   "r_y = ws_shfl_down(ws_lanes, r_x, 16u); }"));
  CHECK_THAT(code, Catch::Contains("L_done: ;"));
  CHECK_THAT(code, Catch::Contains("  return;  // 20: exit"));
}

TEST_CASE("instrumented mode records every block entry and exit and hides branch conditions", "[cuda][emitter]") {
  const std::string code = emit(kSmall, EmitMode::Instrumented);
  CHECK_THAT(code, Catch::Contains("const unsigned long long ws_trace, const unsigned ws_trace_capacity) {"));
  CHECK_THAT(code, Catch::Contains("const ws_trace_t ws_t = ws_trace_begin(ws_trace, ws_trace_capacity);"));
  CHECK_THAT(code, Catch::Contains("  // block 0\n  ws_record(ws_t, 0u);"));
  CHECK_THAT(code, Catch::Contains("  // block 1\n  ws_record(ws_t, 1u);"));
  CHECK_THAT(code, Catch::Contains("L_done: ;\n  ws_record(ws_t, 2u);"));
  CHECK_THAT(code, Catch::Contains("if (ws_branch(!r_inside)) goto L_done;"));
  CHECK_THAT(code, Catch::Contains("{ ws_record(ws_t, WS_EXIT); return; }"));
}

TEST_CASE("immediates are exact C literals", "[cuda][emitter]") {
  const std::string code = emit(R"(
kernel lits(s32 k, f32 z) {
    reg s32 x
    reg f32 f
    reg u64 w
    mov.s32 x, -2147483648
    add.s32 x, x, k
    mov.f32 f, 0f7fc00000
    mov.f32 f, 0.1
    add.f32 f, f, z
    mov.u64 w, 0xffffffffffffffff
    exit
}
)");
  CHECK_THAT(code, Catch::Contains("r_x = (-2147483647 - 1);"));
  CHECK_THAT(code, Catch::Contains("r_x = ws_add(r_x, r_k);"));
  CHECK_THAT(code, Catch::Contains("r_f = __int_as_float(0x7fc00000);"));
  CHECK_THAT(code, Catch::Contains("r_f = 0.1f;"));
  CHECK_THAT(code, Catch::Contains("r_w = 18446744073709551615ull;"));
}

TEST_CASE("every opcode of the table has an emission", "[cuda][emitter]") {
  auto m = test::parse_kir(test::kAllOpcodesKir);
  const auto& k = m.module.kernels.at(0);
  std::vector<bool> used(isa::all_opcodes().size(), false);
  for (const auto& in : k.code) used[static_cast<std::size_t>(in.op)] = true;
  for (const auto& info : isa::all_opcodes()) {
    INFO(info.mnemonic);
    CHECK(used[static_cast<std::size_t>(info.opcode)]);
  }
  for (auto mode : {EmitMode::Plain, EmitMode::Instrumented}) {
    const std::string code = cuda::emit_cuda(k, m.analyses.at(0), mode);
    CHECK_THAT(code, !Catch::Contains("= ;"));
    CHECK_THAT(code, Catch::Contains("atomicInc(((unsigned*)(smem + (s_words + 16u))), 15u)"));
    CHECK_THAT(code, Catch::Contains("ws_shfl_idx(__activemask(), r_b, 40u)"));
  }
}

TEST_CASE("a kernel named like a C++ keyword is refused with a clear message", "[cuda][emitter]") {
  CHECK_THROWS_WITH(emit("kernel float() {\n    exit\n}\n"), Catch::Contains("reserved"));
  CHECK_THROWS_WITH(emit("kernel min() {\n    exit\n}\n"), Catch::Contains("reserved"));
}
