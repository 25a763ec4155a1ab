// Rules for reading .kir text: what parses into what, and the exact diagnostics for bad input.
#include <catch2/catch.hpp>

#include <bit>

#include "isa/parser.hpp"

using namespace warpsim::isa;

namespace {
const char* kVecadd = R"(// c[i] = a[i] + b[i] for i < n
kernel vecadd(ptr.f32 a, ptr.f32 b, ptr.f32 c, u32 n) {
    reg u32 i
    reg u64 off, pa, pb, pc
    reg f32 x, y
    reg pred inside

    mad.u32 i, %ctaid.x, %ntid.x, %tid.x
    setp.lt.u32 inside, i, n
    @!inside bra done
    mul.wide.u32 off, i, 4
    add.u64 pa, a, off
    ld.global.f32 x, [pa]
    add.u64 pb, b, off
    ld.global.f32 y, [pb]
    add.f32 x, x, y
    add.u64 pc, c, off
    st.global.f32 [pc], x
done:
    exit
}
)";

std::string all_messages(const ParseResult& r) {
  std::string out;
  for (const auto& d : r.diagnostics) out += d.format();
  return out;
}
}  // namespace

TEST_CASE("the vecadd example of docs/ir.md parses") {
  ParseResult r = parse(kVecadd, "vecadd.kir");
  INFO(all_messages(r));
  REQUIRE(r.ok());
  REQUIRE(r.module.kernels.size() == 1);
  const Kernel& k = r.module.kernels[0];
  CHECK(k.name == "vecadd");
  CHECK(k.params.size() == 4);
  CHECK(k.registers.size() == 4 + 1 + 4 + 2 + 1);
  CHECK(k.registers[0].type == Type::U64);
  CHECK(k.registers[0].pointee == Type::F32);
  CHECK(k.code.size() == 12);
  REQUIRE(k.labels.size() == 1);
  CHECK(k.labels[0].position == 11);
  const Instruction& branch = k.code[2];
  CHECK(branch.op == Opcode::Bra);
  CHECK(branch.guarded);
  CHECK(branch.guard_negated);
  CHECK(branch.operands[0].kind == OperandKind::Label);
  CHECK(branch.operands[0].index == 0);
  CHECK(k.code[3].op == Opcode::MulWide);
  CHECK(k.code[3].type == Type::U32);
  CHECK(k.code[3].operands[2].kind == OperandKind::Immediate);
  CHECK(k.code[3].operands[2].bits == 4);
}
