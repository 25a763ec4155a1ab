// Rules for the canonical text form: printing then parsing gives back the same module, and
// canonical text prints back unchanged.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <random>

#include "isa/parser.hpp"
#include "tests/isa/isa_helpers.hpp"
#include "isa/printer.hpp"

using namespace warpsim::isa;

namespace {

using warpsim::isa::test::all_messages;

// Canonical text that uses every opcode in the table at least once.
const char* kEveryOpcode = R"(kernel every_opcode(ptr.f32 fp, ptr.u32 up, u32 n, s32 sn, u64 wn, f32 fn, ptr.u8 bp, f64 dn, s64 ln) {
    reg pred p, q
    reg u32 a, b, c
    reg s32 s, t
    reg u64 w, v
    reg f32 x, y, z
    reg u32 late
    reg s64 l
    reg f64 d
    reg u16 h
    reg s16 hs
    reg b16 hb
    reg b32 bb
    reg b64 wb
    shared f32 tile[64]
    shared u32 counts[5]
    local u32 buf[8]

top:
    mov.u32 a, %tid.x
    mov.pred p, 1
    mov.u64 w, %clock64
    mov.u32 b, tile
    mov.s32 t, sn
    mov.f32 z, fn
    add.u32 a, a, 4294967295
    add.s32 s, s, -7
    add.u64 w, w, wn
    add.f32 x, x, 1.5
    sub.f32 x, x, -0.0
    sub.u32 a, a, n
    mul.s32 s, s, -2147483648
    mul.f32 x, x, 3.4028235e+38
    mul.wide.u32 w, a, 4
    mul.wide.s32 w, s, -4
    mad.u32 a, %ctaid.x, %ntid.x, %tid.x
    mad.f32 x, x, y, z
    div.u32 a, a, 0
    div.f32 x, x, 0f7fc00000
    rem.s32 s, s, 3
    min.f32 x, x, 1e-45
    max.u64 w, w, v
    neg.s32 s, s
    abs.f32 x, x
    and.pred p, p, q
    or.u32 a, a, 255
    xor.u64 w, w, v
    not.pred q, p
    shl.u32 a, a, 3
    shr.s32 s, s, b
    sqrt.f32 x, x
    cvt.f32.u32 x, a
    cvt.s32.f32 s, x
    cvt.u64.u32 w, a
    setp.lt.s32 p, s, 0
    setp.ne.f32 q, x, 0.1
    selp.f32 x, y, z, p
    ld.global.f32 x, [fp]
    ld.global.f32 y, [fp+4]
    ld.global.u32 a, [up-8]
    ld.shared.f32 z, [tile+12]
    ld.shared.u32 a, [b-4]
    st.global.f32 [fp+16], x
    st.shared.u32 [counts+16], a
    atom.add.global.f32 x, [fp], 1.0
    atom.min.shared.s32 s, [b], -1
    atom.max.global.u32 a, [up+4], 9
    atom.exch.shared.f32 x, [tile], y
    atom.cas.global.u64 w, [w], v, 0
    atom.inc.shared.u32 a, [counts], 15
    atom.dec.global.u32 a, [w], 3
    atom.and.shared.b32 a, [counts], b
    atom.or.global.b64 w, [w], v
    atom.xor.shared.b32 bb, [counts+4], a
    add.s64 l, l, -9223372036854775808
    mul.f64 d, d, 0d3ff8000000000000
    mad.f64 d, d, dn, d
    sqrt.f64 d, d
    setp.ge.s64 p, l, ln
    cvt.f64.s64 d, l
    cvt.s16.f32 hs, x
    cvt.u8.u32 a, a
    mul.wide.u16 a, h, 65535
    mul.wide.s16 s, hs, -1
    shr.s16 hs, hs, 2
    and.b16 hb, hb, h
    mov.b32 bb, x
    xor.b64 wb, wb, w
    ld.global.u8 a, [bp]
    ld.global.s8 s, [bp+1]
    ld.global.u16 h, [bp+2]
    st.global.u8 [bp+3], a
    ld.global.f64 d, [bp+8]
    st.shared.b64 [tile], wb
    atom.add.global.f64 d, [bp], 0d3ff0000000000000
    atom.exch.global.b32 bb, [up], bb
    atom.cas.shared.b64 wb, [b], wb, 0
    atom.min.global.s64 l, [bp], ln
    mul.hi.u32 a, a, 3
    mul.hi.s64 l, l, ln
    bfe.s32 s, s, 4, b
    bfe.u64 w, w, a, 12
    bfi.b32 bb, bb, a, 8, 8
    bfi.b64 wb, wb, w, a, b
    popc.b64 a, wb
    clz.b32 a, bb
    brev.b64 wb, wb
    prmt.b32 bb, bb, a, 12816
    fma.rn.f32 x, x, y, z
    fma.rm.ftz.sat.f32 x, x, y, 0.5
    add.rz.f32 x, x, y
    add.sat.s32 s, s, t
    mul.rp.f64 d, d, dn
    div.approx.f32 x, x, y
    div.full.f32 x, x, y
    sqrt.rn.f32 x, x
    rcp.approx.ftz.f32 x, x
    rcp.rn.f64 d, d
    rsqrt.approx.f32 x, x
    ex2.approx.ftz.f32 x, x
    lg2.approx.f32 x, x
    sin.approx.f32 x, x
    cos.approx.f32 x, x
    cvt.rni.s32.f32 s, x
    cvt.rmi.f32.f32 x, x
    cvt.sat.f32.f32 x, x
    cvt.rz.f32.f64 x, d
    cvt.rn.f32.s32 x, s
    ld.global.nc.f32 x, [fp+4]
    bar.sync
    membar.cta
    membar.gl
    vote.any.pred p, q
    vote.all.pred q, p
    vote.ballot.u32 a, p
    activemask.u32 c
    shfl.down.f32 x, x, 16
    shfl.up.s32 s, s, 1
    shfl.xor.u32 a, a, b
    shfl.idx.f32 y, y, 0
    shfl.down.f32 x, x, 16, a
    vote.ballot.u32 a, p, 4294967295
    bar.warp.sync c
    bar.warp.sync
    ld.global.nc.v2.f32 {x, y}, [fp+8]
    ld.shared.v4.u32 {a, b, c, late}, [counts]
    st.shared.v2.u32 [counts+8], {a, b}
    ld.local.u32 a, [buf+4]
    st.local.v4.u32 [b], {a, b, c, late}
    mov.b64 {a, b}, wb
    mov.b64 wb, {a, b}
    mov.b32 {hb, h}, bb
    mov.b32 bb, {hb, h}
    mov.u32 late, a
    @p bra top
    @!q bra done
    bra done
    ret
done:
    exit
}

kernel second() {
    exit
}
)";

// Parses text that must be valid.
Module read(const std::string& text, const std::string& file = "t.kir") {
  ParseResult r = parse(text, file);
  INFO(all_messages(r));
  REQUIRE(r.ok());
  return std::move(r.module);
}

void require_round_trip(const Module& m) {
  const std::string text = print(m);
  ParseResult again = parse(text, "printed.kir");
  INFO(text);
  INFO(all_messages(again));
  REQUIRE(again.ok());
  CHECK(again.module.same(m));
}

}  // namespace

TEST_CASE("canonical text prints back unchanged") {
  CHECK(print(read(kEveryOpcode)) == kEveryOpcode);
}

TEST_CASE("the every-opcode kernel really uses every opcode in the table") {
  const Module m = read(kEveryOpcode);
  for (const OpcodeInfo& info : all_opcodes()) {
    INFO(info.mnemonic);
    CHECK(std::any_of(m.kernels[0].code.begin(), m.kernels[0].code.end(),
                      [&](const Instruction& in) { return in.op == info.opcode; }));
  }
}

TEST_CASE("printing then parsing gives back the same module") {
  require_round_trip(read(kEveryOpcode));
  // Non-canonical spelling: hex, spaces in memory operands, declarations between statements.
  require_round_trip(read(R"(kernel k(ptr.s32 g, u32 n) {
  reg u32 i
  mov.u32 i, 0x10
  reg u64 addr
  reg s32 v
  add.u64 addr, g, 4
  ld.global.s32 v, [ addr - 0x20 ]
  shared s32 buf[3]
  reg pred done, more
  setp.ge.u32 done, i, n
  @done bra end
  st.shared.s32 [buf + 8], -5
end:
  exit
})"));
}

TEST_CASE("the shortest float form is used, and exact bits where no decimal reads back the same") {
  const Module m = read("kernel k() {\n    reg f32 x\n    mov.f32 x, 0f3f800000\n    mov.f32 x, 0fff800000\n"
                        "    mov.f32 x, 0f7fc00001\n    mov.f32 x, 1e6\n    mov.f32 x, 2\n    exit\n}\n");
  const Kernel& k = m.kernels[0];
  CHECK(print(k, k.code[0]) == "mov.f32 x, 1.0");
  CHECK(print(k, k.code[1]) == "mov.f32 x, 0fff800000");
  CHECK(print(k, k.code[2]) == "mov.f32 x, 0f7fc00001");
  CHECK(print(k, k.code[3]) == "mov.f32 x, 1e+06");
  CHECK(print(k, k.code[4]) == "mov.f32 x, 2.0");
}

TEST_CASE("every f32 bit pattern reads back bit for bit") {
  Module m;
  Kernel k;
  k.name = "floats";
  k.registers.push_back({"x", Type::F32, false, Type::None, {}});
  std::vector<std::uint32_t> patterns = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu,
                                         0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u,
                                         0x7fc00000u, 0xffffffffu, 0x3dcccccdu, 0x4b800001u};
  std::mt19937 random(42);
  for (int i = 0; i < 20000; ++i) patterns.push_back(static_cast<std::uint32_t>(random()));
  for (std::uint32_t bits : patterns) {
    Instruction in;
    in.op = Opcode::Mov;
    in.type = Type::F32;
    in.operand_count = 2;
    in.operands[0].kind = OperandKind::Register;
    in.operands[1].kind = OperandKind::Immediate;
    in.operands[1].bits = bits;
    k.code.push_back(in);
  }
  k.code.push_back(Instruction{});  // exit
  m.kernels.push_back(k);
  require_round_trip(m);
}

TEST_CASE("one instruction prints as it appears in kernel text") {
  const Module m = read(kEveryOpcode);
  const Kernel& k = m.kernels[0];
  auto line_of = [&](Opcode op) {
    for (const Instruction& in : k.code)
      if (in.op == op) return print(k, in);
    return std::string();
  };
  CHECK(line_of(Opcode::AtomCas) == "atom.cas.global.u64 w, [w], v, 0");
  CHECK(line_of(Opcode::Cvt) == "cvt.f32.u32 x, a");
  CHECK(line_of(Opcode::Setp) == "setp.lt.s32 p, s, 0");
  CHECK(print(k, k.code[k.code.size() - 4]) == "@!q bra done");
}

TEST_CASE("every kernel in the kernels folder prints back to the same module") {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  if (fs::is_directory(WARPSIM_KERNELS_DIR))
    for (const auto& entry : fs::recursive_directory_iterator(WARPSIM_KERNELS_DIR))
      if (entry.is_regular_file() && entry.path().extension() == ".kir") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    INFO(file.string());
    ParseResult r = parse_file(file.string());
    INFO(all_messages(r));
    REQUIRE(r.ok());
    require_round_trip(r.module);
    CHECK(print(read(print(r.module))) == print(r.module));
  }
  // The folder may be empty; the inline kernels above are always checked.
  SUCCEED(files.size() << " kernel files checked");
}
