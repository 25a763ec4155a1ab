// Rules the verifier enforces, each with the exact message a person sees. Kernels that the parser
// would reject are made by parsing a good kernel and then breaking it in code, since the verifier
// must also stand alone for kernels built in code.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "isa/parser.hpp"
#include "tests/isa/isa_helpers.hpp"
#include "isa/verifier.hpp"

using namespace warpsim::isa;

namespace {

Module module_of(std::string_view text) {
  ParseResult result = parse(text, "test.kir");
  INFO(warpsim::isa::test::all_messages(result));
  REQUIRE(result.ok());
  return result.module;
}

using warpsim::isa::test::kernel_of;

std::vector<std::string> messages(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics) out.push_back(d.message);
  return out;
}

using Messages = std::vector<std::string>;

// Registers: n (param, u32), out (param, ptr.u32 = u64), i, x (f32), pa (u64), p (pred).
constexpr const char* kGood = R"(
kernel good(u32 n, ptr.u32 out) {
    reg u32 i
    reg f32 x
    reg u64 pa
    reg pred p
    shared u32 tile[32]
    mov.u32 i, %tid.x                 // 0
    setp.lt.u32 p, i, n               // 1
    @!p bra done                      // 2
    mul.wide.u32 pa, i, 4             // 3
    add.u64 pa, out, pa               // 4
    st.global.u32 [pa], i             // 5
    st.shared.u32 [tile+4], i         // 6
    cvt.f32.u32 x, i                  // 7
    add.u32 i, i, 1                   // 8
done:
    exit                              // 9
}
)";

}  // namespace

TEST_CASE("a well-formed kernel verifies without diagnostics", "[verifier]") {
  const Kernel k = kernel_of(kGood);
  CHECK(verify(k).empty());
}

TEST_CASE("a register read before any path defines it is an error at the read", "[verifier][registers]") {
  const std::string text = R"(kernel k(ptr.u32 out) {
    reg u32 t
    st.global.u32 [out], t
    exit
}
)";
  const Module m = module_of(text);
  const std::vector<Diagnostic> d = verify(m, text);
  REQUIRE(d.size() == 1);
  CHECK(d[0].severity == Severity::Error);
  CHECK(d[0].message == "register 't' is used before it is defined on every path");
  CHECK(d[0].file == "test.kir");
  CHECK(d[0].loc.line == 3);
  CHECK(d[0].loc.column == 26);
  CHECK(d[0].source_line == "    st.global.u32 [out], t");
  CHECK(d[0].length == 1);
}

TEST_CASE("each undefined register is reported once, at its first read", "[verifier][registers]") {
  const Kernel k = kernel_of(R"(kernel k(ptr.u32 out) {
    reg u32 a, b
    add.u32 a, b, b
    add.u32 a, a, b
    st.global.u32 [out], a
    exit
}
)");
  const std::vector<Diagnostic> d = verify(k);
  CHECK(messages(d) == Messages{"register 'b' is used before it is defined on every path"});
  REQUIRE(d.size() == 1);
  CHECK(d[0].loc.line == 3);
}

TEST_CASE("a register defined on some path to a read is accepted", "[verifier][registers]") {
  // Defined on one side of a branch only, or by a guarded instruction, or later in a loop body
  // (reaching the read through the back edge): each is a path that defines it.
  const Kernel one_side = kernel_of(R"(kernel k(ptr.u32 out) {
    reg u32 t
    reg pred p
    setp.eq.u32 p, %laneid, 0
    @p bra skip
    mov.u32 t, 1
skip:
    st.global.u32 [out], t
    exit
}
)");
  CHECK(verify(one_side).empty());
  const Kernel guarded = kernel_of(R"(kernel k(ptr.u32 out) {
    reg u32 t
    reg pred p
    setp.eq.u32 p, %laneid, 0
    @p mov.u32 t, 1
    st.global.u32 [out], t
    exit
}
)");
  CHECK(verify(guarded).empty());
  const Kernel loop = kernel_of(R"(kernel k(ptr.u32 out) {
    reg u32 i, last
    reg pred more
    mov.u32 i, 0
top:
    setp.eq.u32 more, i, 0
    @!more st.global.u32 [out], last
    mov.u32 last, i
    add.u32 i, i, 1
    setp.lt.u32 more, i, 4
    @more bra top
    exit
}
)");
  CHECK(verify(loop).empty());
}

TEST_CASE("parameters are defined at entry and reading them is fine", "[verifier][registers]") {
  const Kernel k = kernel_of(R"(kernel k(u32 n, ptr.u32 out) {
    st.global.u32 [out], n
    exit
}
)");
  CHECK(verify(k).empty());
}

TEST_CASE("falling off the end of the code is an error at the last instruction", "[verifier][paths]") {
  const std::string text = R"(kernel k(ptr.u32 out) {
    reg u32 t
    mov.u32 t, 1
    st.global.u32 [out], t
}
)";
  const std::vector<Diagnostic> d = verify(module_of(text), text);
  REQUIRE(d.size() == 1);
  CHECK(d[0].message == "execution falls off the end of the kernel here; every path must end in exit or ret");
  CHECK(d[0].loc.line == 4);
  CHECK(d[0].source_line == "    st.global.u32 [out], t");
}

TEST_CASE("a guarded exit or a conditional branch as the last instruction falls off the end", "[verifier][paths]") {
  for (const char* last : {"@p exit", "@p ret", "@p bra top"}) {
    const std::string text = std::string(R"(kernel k() {
    reg pred p
top:
    setp.eq.u32 p, %laneid, 0
    )") + last + "\n}\n";
    INFO(last);
    const std::vector<Diagnostic> d = verify(module_of(text), text);
    CHECK(messages(d) == Messages{"execution falls off the end of the kernel here; every path must end in exit or ret"});
    REQUIRE(d.size() == 1);
    CHECK(d[0].loc.line == 5);
  }
}

TEST_CASE("a branch back as the last instruction does not fall off the end", "[verifier][paths]") {
  const Kernel k = kernel_of(R"(kernel k() {
top:
    bra top
}
)");
  CHECK(verify(k).empty());
}

TEST_CASE("unreachable code is a warning at the first instruction of each unreachable block", "[verifier][paths]") {
  const std::string text = R"(kernel k() {
    reg u32 t
    exit
    mov.u32 t, 1
    exit
}
)";
  const std::vector<Diagnostic> d = verify(module_of(text), text);
  REQUIRE(d.size() == 1);
  CHECK(d[0].severity == Severity::Warning);
  CHECK(d[0].message == "unreachable code: no path from the kernel's entry reaches this instruction");
  CHECK(d[0].loc.line == 4);
  CHECK(d[0].source_line == "    mov.u32 t, 1");
  CHECK_FALSE(has_errors(d));
}

TEST_CASE("a kernel with no instructions is an error", "[verifier][paths]") {
  Kernel k;
  k.name = "empty";
  CHECK(messages(verify(k)) == Messages{"kernel 'empty' has no instructions; it must end in exit or ret"});
}

TEST_CASE("a guard must be a pred register", "[verifier][types]") {
  Kernel k = kernel_of(kGood);
  k.code[2].guard = static_cast<std::uint32_t>(k.find_register("i"));
  CHECK(messages(verify(k)) == Messages{"guard 'i' is u32; a guard must be a pred register"});
}

TEST_CASE("a parameter cannot be written", "[verifier][types]") {
  Kernel k = kernel_of(kGood);
  k.code[8].operands[0].index = static_cast<std::uint32_t>(k.find_register("n"));  // add.u32 n, i, 1
  CHECK(messages(verify(k)) == Messages{"cannot write to parameter 'n'; parameters are read-only"});
}

TEST_CASE("every operand's type agrees with its role in the opcode table", "[verifier][types]") {
  Kernel k = kernel_of(kGood);
  const auto x = static_cast<std::uint32_t>(k.find_register("x"));
  const auto i = static_cast<std::uint32_t>(k.find_register("i"));
  SECTION("a register source") {
    k.code[8].operands[1].index = x;  // add.u32 i, x, 1
    CHECK(messages(verify(k)) == Messages{"register 'x' is f32, but operand 2 of 'add.u32' must be u32"});
  }
  SECTION("a destination") {
    k.code[7].operands[0].index = i;  // cvt.f32.u32 i, i
    CHECK(messages(verify(k)) == Messages{"register 'i' is u32, but operand 1 of 'cvt.f32.u32' must be f32"});
  }
  SECTION("the source type of cvt") {
    k.code[7].source_type = Type::F32;  // cvt.f32.f32 x, i
    CHECK(messages(verify(k)) == Messages{"register 'i' is u32, but operand 2 of 'cvt.f32.f32' must be f32"});
  }
  SECTION("a pred destination") {
    k.code[1].operands[0].index = i;  // setp.lt.u32 i, i, n
    CHECK(messages(verify(k)) == Messages{"register 'i' is u32, but operand 1 of 'setp.lt.u32' must be pred",
                                          "register 'p' is used before it is defined on every path"});
  }
  SECTION("the u64 destination of mul.wide") {
    k.code[3].operands[0].index = i;  // mul.wide.u32 i, i, 4
    CHECK(messages(verify(k)) == Messages{"register 'i' is u32, but operand 1 of 'mul.wide.u32' must be u64",
                                          "register 'pa' is used before it is defined on every path"});
  }
  SECTION("a special register") {
    k.code[0].operands[1].special = Special::Clock64;  // mov.u32 i, %clock64
    CHECK(messages(verify(k)) == Messages{"'%clock64' is u64, but operand 2 of 'mov.u32' must be u32"});
  }
  SECTION("a shared array's address is u32") {
    k.code[4].operands[2] = Operand{};
    k.code[4].operands[2].kind = OperandKind::SharedAddress;  // add.u64 pa, out, tile
    CHECK(messages(verify(k)) ==
          Messages{"shared array 'tile' stands for a u32 address, but operand 3 of 'add.u64' must be u64"});
  }
  SECTION("an immediate in range") {
    k.code[8].operands[2].bits = 0x100000000u;  // add.u32 i, i, 2^32
    CHECK(messages(verify(k)) == Messages{"immediate 0x100000000 does not fit operand 3 of 'add.u32', which is u32"});
  }
  SECTION("a destination must be a register") {
    k.code[8].operands[0] = k.code[8].operands[2];  // add.u32 1, i, 1
    CHECK(messages(verify(k)) == Messages{"operand 1 of 'add.u32' must be a register"});
  }
  SECTION("the instruction type") {
    k.code[8].op = Opcode::Sqrt;  // sqrt.u32 with three operands
    k.code[8].operand_count = 2;
    CHECK(messages(verify(k)) == Messages{"'sqrt' does not accept type u32"});
  }
  SECTION("the operand count") {
    k.code[8].operand_count = 2;
    CHECK(messages(verify(k)) == Messages{"'add.u32' takes 3 operands, not 2"});
  }
  SECTION("a register index that names no register") {
    k.code[8].operands[1].index = 99;
    CHECK(messages(verify(k)) == Messages{"operand 2 of 'add.u32' names register #99, which does not exist"});
  }
}

TEST_CASE("memory operand bases: u64 for global, u32 or a shared array for shared", "[verifier][memory]") {
  Kernel k = kernel_of(kGood);
  const auto i = static_cast<std::uint32_t>(k.find_register("i"));
  const auto pa = static_cast<std::uint32_t>(k.find_register("pa"));
  SECTION("global with a u32 base") {
    k.code[5].operands[0].index = i;  // st.global.u32 [i], i
    CHECK(messages(verify(k)) ==
          Messages{"the base of a global memory operand must be a u64 register or parameter, but 'i' is u32"});
  }
  SECTION("global with a shared array base") {
    k.code[5].operands[0] = k.code[6].operands[0];  // st.global.u32 [tile+4], i
    CHECK(messages(verify(k)) ==
          Messages{"shared array 'tile' is not in global memory; a global memory operand needs a u64 base"});
  }
  SECTION("shared with a u64 base") {
    k.code[6].operands[0].kind = OperandKind::MemRegister;  // st.shared.u32 [pa+4], i
    k.code[6].operands[0].index = pa;
    CHECK(messages(verify(k)) == Messages{"the base of a shared memory operand must be a u32 register or a shared "
                                          "array, but 'pa' is u64"});
  }
  SECTION("shared with a u32 register base is fine") {
    k.code[6].operands[0].kind = OperandKind::MemRegister;  // st.shared.u32 [i+4], i
    k.code[6].operands[0].index = i;
    CHECK(verify(k).empty());
  }
  SECTION("a memory role needs a memory operand") {
    k.code[5].operands[0] = k.code[5].operands[1];  // st.global.u32 i, i
    CHECK(messages(verify(k)) ==
          Messages{"operand 1 of 'st.global.u32' must be a memory operand: [base], [base+offset] or [base-offset]"});
  }
}

TEST_CASE("branch targets must name a label that stands before an instruction", "[verifier][paths]") {
  Kernel k = kernel_of(kGood);
  SECTION("a label index out of range") {
    k.code[2].operands[0].index = 7;
    CHECK(messages(verify(k)) == Messages{"branch target label #7 does not exist"});
  }
  SECTION("a label at the very end") {
    k.labels.push_back(Label{"end", static_cast<std::uint32_t>(k.code.size()), {}});
    k.code[2].operands[0].index = static_cast<std::uint32_t>(k.labels.size() - 1);
    CHECK(messages(verify(k)) ==
          Messages{"branch target 'end' has no instruction after it; execution would fall off the end"});
  }
}

TEST_CASE("shared arrays have a positive size", "[verifier][declarations]") {
  Kernel k = kernel_of(kGood);
  k.shared[0].count = 0;
  CHECK(messages(verify(k)) == Messages{"shared array 'tile' has size 0; the size must be a positive constant"});
}

TEST_CASE("a kernel built in code verifies like a parsed one", "[verifier]") {
  Kernel k;
  k.name = "built";
  k.registers.push_back(Register{"t", Type::U32, false, Type::None, {}});
  Instruction mov;
  mov.op = Opcode::Mov;
  mov.type = Type::U32;
  mov.operand_count = 2;
  mov.operands[0].kind = OperandKind::Register;
  mov.operands[1].kind = OperandKind::Special;
  mov.operands[1].special = Special::LaneId;
  k.code.push_back(mov);
  CHECK(messages(verify(k)) ==
        Messages{"execution falls off the end of the kernel here; every path must end in exit or ret"});
  k.code.push_back(Instruction{});  // exit
  CHECK(verify(k).empty());
}

TEST_CASE("verifying a module checks every kernel and names the module's file", "[verifier]") {
  const std::string text = R"(kernel a() {
    exit
}
kernel b() {
    reg u32 t
    mov.u32 t, 1
}
)";
  const std::vector<Diagnostic> d = verify(module_of(text), text);
  REQUIRE(d.size() == 1);
  CHECK(d[0].file == "test.kir");
  CHECK(d[0].loc.line == 6);
  CHECK(d[0].format() ==
        "test.kir:6:5: error: execution falls off the end of the kernel here; every path must end in exit or ret\n"
        "        mov.u32 t, 1\n"
        "        ^\n");
}
