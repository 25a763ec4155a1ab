// Rules for reading .kir text: what parses into what, and the exact diagnostics for bad input.
#include <catch2/catch.hpp>

#include <bit>
#include <random>

#include "isa/parser.hpp"
#include "tests/isa/isa_helpers.hpp"

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

using warpsim::isa::test::all_messages;
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

namespace {
// Every error test wraps its lines in this kernel; its body starts at line 7.
const char* kPrelude = R"(kernel k(ptr.f32 a, u32 n) {
    reg u32 i, j
    reg f32 x
    reg pred p
    reg u64 addr
    shared f32 tile[64]
)";

ParseResult in_kernel(const std::string& body) { return parse(kPrelude + body + "    exit\n}\n", "t.kir"); }

// The one diagnostic a body produces: "line:column: message".
std::string only_error(const std::string& body) {
  ParseResult r = in_kernel(body);
  INFO(all_messages(r));
  REQUIRE(r.diagnostics.size() == 1);
  const Diagnostic& d = r.diagnostics[0];
  return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + ": " + d.message;
}
}  // namespace

TEST_CASE("an unknown opcode is reported at its line and column") {
  CHECK(only_error("    ad.u32 i, i, 1\n") == "7:5: unknown opcode 'ad.u32'");
  CHECK(only_error("    shfl.u32 i, i, 1\n") == "7:5: unknown opcode 'shfl.u32'");
}

TEST_CASE("a diagnostic shows the source line with a caret under the whole token") {
  ParseResult r = in_kernel("    ad.u32 i, i, 1\n");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].format() ==
        "t.kir:7:5: error: unknown opcode 'ad.u32'\n"
        "        ad.u32 i, i, 1\n"
        "        ^~~~~~\n");
}

TEST_CASE("the operand count must match the opcode's arity") {
  CHECK(only_error("    add.u32 i, i\n") == "7:5: 'add.u32' takes 3 operands, found 2");
  CHECK(only_error("    bra\n") == "7:5: 'bra' takes 1 operand, found 0");
  CHECK(only_error("    bar.sync 0\n") == "7:5: 'bar.sync' takes 0 operands, found 1");
}

TEST_CASE("a source operand must have the instruction's type") {
  CHECK(only_error("    add.u32 i, x, 1\n") == "7:16: operand 2 of 'add.u32' must be u32, register 'x' is f32");
  CHECK(only_error("    add.u32 i, i, a\n") == "7:19: operand 3 of 'add.u32' must be u32, parameter 'a' is u64");
  CHECK(only_error("    mov.u32 i, %clock64\n") ==
        "7:16: operand 2 of 'mov.u32' must be u32, special register '%clock64' is u64");
  CHECK(only_error("    mov.f32 x, tile\n") ==
        "7:16: operand 2 of 'mov.f32' must be f32, shared array 'tile' is a u32 address");
  CHECK(only_error("    selp.u32 i, i, j, i\n") ==
        "7:23: operand 4 of 'selp.u32' must be a pred register, register 'i' is u32");
  CHECK(only_error("    add.u32 i, [addr], 1\n") ==
        "7:16: operand 2 of 'add.u32' must be u32, found memory operand '[addr]'");
}

TEST_CASE("a destination must be a writable register of the right type") {
  CHECK(only_error("    add.u32 n, i, 1\n") == "7:13: operand 1 of 'add.u32' must be a u32 register, parameter 'n' is read-only");
  CHECK(only_error("    add.u32 x, i, 1\n") == "7:13: operand 1 of 'add.u32' must be a u32 register, register 'x' is f32");
  CHECK(only_error("    mov.u32 %tid.x, i\n") ==
        "7:13: operand 1 of 'mov.u32' must be a u32 register, special register '%tid.x' is read-only");
  CHECK(only_error("    mov.u32 5, i\n") == "7:13: operand 1 of 'mov.u32' must be a u32 register, found immediate '5'");
  CHECK(only_error("    setp.lt.u32 i, i, 1\n") ==
        "7:17: operand 1 of 'setp.lt.u32' must be a pred register, register 'i' is u32");
}

TEST_CASE("registers must be declared before their first use in the text") {
  CHECK(only_error("    add.u32 i, q, 1\n") == "7:16: unknown register 'q'");
  CHECK(only_error("    add.u32 i, late, 1\n    reg u32 late\n") == "7:16: unknown register 'late'");
  CHECK(only_error("    @q bra L\nL:\n") == "7:6: unknown register 'q'");
  CHECK(only_error("    ld.global.f32 x, [q+4]\n") == "7:23: unknown register 'q'");
  CHECK(only_error("    mov.u32 i, %tid.w\n") == "7:16: unknown special register '%tid.w'");
}

TEST_CASE("labels may be used before their definition but must be defined in the kernel") {
  ParseResult r = in_kernel("    bra later\nlater:\n");
  INFO(all_messages(r));
  CHECK(r.ok());
  CHECK(only_error("    bra loop2\nloop:\n") == "7:9: unknown label 'loop2'");
  CHECK(only_error("done:\n    mov.u32 i, 1\ndone:\n") == "9:1: duplicate label 'done' (first defined at 7:1)");
  CHECK(only_error("    bra 5\n") == "7:9: operand 1 of 'bra' must be a label, found immediate '5'");
}

TEST_CASE("a malformed number is reported as a bad number") {
  CHECK(only_error("    add.u32 i, i, 12z\n") == "7:19: bad number '12z'");
  CHECK(only_error("    add.f32 x, x, 1.5.2\n") == "7:19: bad number '1.5.2'");
  CHECK(only_error("    add.f32 x, x, 0f3f80\n") == "7:19: bad number '0f3f80'");
}

TEST_CASE("an immediate must fit the operand's type") {
  CHECK(only_error("    add.u32 i, i, 4294967296\n") == "7:19: operand 3 of 'add.u32': 4294967296 is out of range for u32");
  CHECK(only_error("    add.u32 i, i, -1\n") == "7:19: operand 3 of 'add.u32': -1 is out of range for u32");
  CHECK(only_error("    add.u32 i, i, 99999999999999999999\n") ==
        "7:19: operand 3 of 'add.u32': 99999999999999999999 is out of range for u32");
  CHECK(only_error("    add.u32 i, i, 1.5\n") == "7:19: operand 3 of 'add.u32' must be u32, found float literal '1.5'");
  CHECK(only_error("    add.f32 x, x, 16777217\n") ==
        "7:19: operand 3 of 'add.f32': 16777217 is not exactly representable as f32");
  CHECK(only_error("    add.f32 x, x, 1e39\n") == "7:19: operand 3 of 'add.f32': 1e39 is out of range for f32");
  CHECK(only_error("    mov.pred p, 2\n") == "7:17: operand 2 of 'mov.pred': a pred immediate must be 0 or 1, found '2'");
}

TEST_CASE("a type suffix must be one the opcode accepts") {
  CHECK(only_error("    rem.f32 x, x, x\n") == "7:5: 'rem' does not take type f32 (accepted: u16, s16, u32, s32, u64, s64)");
  CHECK(only_error("    add i, i, 1\n") == "7:5: 'add': expected a type (.u16, .s16, .u32, .s32, .u64, .s64, .f32, .f64) after 'add', found nothing");
  CHECK(only_error("    ld.f32 x, [addr]\n") ==
        "7:5: 'ld.f32': expected a memory space (.global, .shared or .local) after 'ld', found '.f32'");
  CHECK(only_error("    setp.u32 p, i, j\n") ==
        "7:5: 'setp.u32': expected a comparison (.eq, .ne, .lt, .le, .gt or .ge) after 'setp', found '.u32'");
  CHECK(only_error("    cvt.f32 x, i\n") ==
        "7:5: 'cvt.f32': expected a source type (.u8, .s8, .u16, .s16, .u32, .s32, .u64, .s64, .f32, .f64) after 'cvt.f32', "
        "found nothing");
  CHECK(only_error("    exit.u32\n") == "7:5: 'exit.u32': unexpected suffix '.u32' after 'exit'");
}

TEST_CASE("a memory operand's base must suit its memory space") {
  CHECK(only_error("    ld.global.f32 x, [i]\n") ==
        "7:23: memory base of 'ld.global.f32' must be a u64 register or parameter, register 'i' is u32");
  CHECK(only_error("    ld.global.f32 x, [tile]\n") ==
        "7:23: memory base of 'ld.global.f32' must be a u64 register or parameter, found shared array 'tile'");
  CHECK(only_error("    ld.shared.f32 x, [addr]\n") ==
        "7:23: memory base of 'ld.shared.f32' must be a u32 register or a shared array, register 'addr' is u64");
  CHECK(only_error("    ld.global.f32 x, addr\n") ==
        "7:22: operand 2 of 'ld.global.f32' must be a memory operand such as [base+offset], register 'addr' is u64");
  CHECK(only_error("    ld.global.f32 x, [addr+1.5]\n") == "7:28: a memory offset must be an integer, found '1.5'");
  CHECK(only_error("    ld.global.f32 x, [addr\n") == "7:27: expected ']' to close the memory operand, found end of line");
}

TEST_CASE("a guard must be a predicate register") {
  CHECK(only_error("    @i bra L\nL:\n") == "7:6: a guard must be a pred register, register 'i' is u32");
  CHECK(only_error("    @\n") == "7:6: expected a predicate register after '@', found end of line");
  CHECK(only_error("    @!\n") == "7:7: expected a predicate register after '@', found end of line");
}

TEST_CASE("declarations reject duplicates and non-constant shared sizes") {
  CHECK(only_error("    reg u32 x\n") == "7:13: duplicate register 'x' (first declared at 3:13)");
  CHECK(only_error("    reg f32 tile\n") == "7:13: duplicate shared array 'tile' (first declared at 6:16)");
  CHECK(only_error("    reg u8 y\n") == "7:9: expected a register type (pred, u16, s16, u32, s32, u64, s64, f32, f64, b16, b32 or b64), found 'u8'");
  CHECK(only_error("    reg u32 y z\n") == "7:15: expected ',' between register names, found 'z'");
  CHECK(only_error("    shared f32 s[0]\n") == "7:18: shared array size must be a positive constant");
  CHECK(only_error("    shared f32 s[n]\n") == "7:18: shared array size must be a positive constant");
  CHECK(only_error("    shared f32 s[]\n") == "7:18: shared array size must be a positive constant");
  CHECK(only_error("    shared f32 s[8589934592]\n") ==
        "7:18: shared array 's' does not fit in a 32-bit shared address space");
}

TEST_CASE("a kernel without its closing brace is reported at its name") {
  ParseResult r = parse("kernel k() {\n    exit\n", "t.kir");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message == "kernel 'k' is not terminated: expected '}' before end of file");
  CHECK(r.diagnostics[0].loc.line == 1);
  CHECK(r.diagnostics[0].loc.column == 8);

  r = parse("kernel k() {\n    exit\nkernel m() {\n    exit\n}\n", "t.kir");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message == "kernel 'k' is not terminated: expected '}' before the next kernel");
  CHECK(r.module.kernels.size() == 2);
}

TEST_CASE("text outside a kernel is an error") {
  ParseResult r = parse("add.u32 i, i, 1\n}\n", "t.kir");
  REQUIRE(r.diagnostics.size() == 1);  // the rest is skipped until the next `kernel`
  CHECK(r.diagnostics[0].message == "expected 'kernel', found 'add.u32'");
  r = parse("}\n", "t.kir");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message == "unexpected '}' outside a kernel");
}

TEST_CASE("a bad kernel header skips to the next kernel") {
  ParseResult r = parse("kernel k(u8 a) {\n    bogus\n}\nkernel m(u32 n) {\n    frob\n    exit\n}\n", "t.kir");
  INFO(all_messages(r));
  REQUIRE(r.diagnostics.size() == 2);
  CHECK(r.diagnostics[0].message == "expected a parameter type (u32, s32, u64, f32 or ptr.T), found 'u8'");
  CHECK(r.diagnostics[1].message == "unknown opcode 'frob'");
  CHECK(r.diagnostics[1].loc.line == 5);
}

TEST_CASE("kernel headers are checked piece by piece") {
  auto first = [](const char* text) {
    ParseResult r = parse(text, "t.kir");
    REQUIRE(!r.diagnostics.empty());
    return std::to_string(r.diagnostics[0].loc.column) + ": " + r.diagnostics[0].message;
  };
  CHECK(first("kernel (u32 n) {\n}\n") == "8: expected a kernel name after 'kernel', found '('");
  CHECK(first("kernel k u32 n) {\n}\n") == "10: expected '(' after the kernel name, found 'u32'");
  CHECK(first("kernel k(u32 n u32 m) {\n}\n") == "16: expected ',' or ')' in the parameter list, found 'u32'");
  CHECK(first("kernel k(u32) {\n}\n") == "13: expected a parameter name, found ')'");
  CHECK(first("kernel k(u32 n, u32 n) {\n}\n") == "21: duplicate register 'n' (first declared at 1:14)");
  CHECK(first("kernel k(u32 n)\n}\n") == "16: expected '{' at the end of the kernel header, found end of line");
  CHECK(first("kernel k() {\n    exit\n}\nkernel k() {\n    exit\n}\n") ==
        "8: duplicate kernel 'k' (first defined at 1:1)");
}

TEST_CASE("one file with three distinct errors yields three diagnostics") {
  ParseResult r = in_kernel("    ad.u32 i, i, 1\n    add.u32 i, q, 1\n    bra nowhere\n");
  INFO(all_messages(r));
  REQUIRE(r.diagnostics.size() == 3);
  CHECK(r.diagnostics[0].loc.line == 7);
  CHECK(r.diagnostics[1].loc.line == 8);
  CHECK(r.diagnostics[2].message == "unknown label 'nowhere'");
  CHECK_FALSE(r.ok());
}

TEST_CASE("an unexpected character is reported and its line skipped") {
  CHECK(only_error("    add.u32 i, i, 1 # one\n") == "7:21: unexpected character '#'");
  CHECK(only_error("    mov.u32 i, \x01\n") == "7:16: unexpected character '\\x01'");
}

TEST_CASE("hostile input never crashes and always reports something sensible") {
  CHECK(parse("", "t.kir").ok());
  CHECK(parse("\n\n// only a comment\n", "t.kir").ok());
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk += static_cast<char>((i * 7919) % 256);
  ParseResult r = parse(junk, "junk");
  CHECK_FALSE(r.ok());
  CHECK(r.diagnostics.size() <= 101);
  std::string long_line = std::string(kPrelude) + "    add.u32 i, i" + std::string(100000, ',') + "\n}\n";
  CHECK_FALSE(parse(long_line).ok());
  for (const char* text : {"kernel", "kernel k", "kernel k(", "kernel k(ptr.", "kernel k(u32 n,", "kernel k() {\n@",
                           "kernel k() {\n[", "kernel k() {\n    ld.global.f32 [", "kernel k() {\n    mov.u32 -",
                           "kernel k() {\n    mov.f32 x, 0x", "kernel k() {\n:", "kernel k() {\n}}", "{}",
                           "kernel k() {\n    shared f32 s[99999999999999999999999]\n}"}) {
    INFO(text);
    CHECK_FALSE(parse(text).ok());
  }
  std::string many_errors;
  for (int i = 0; i < 1000; ++i) many_errors += "bogus\nkernel\n";
  CHECK(parse(many_errors).diagnostics.size() == 101);
}

TEST_CASE("immediates are stored in the operand's type") {
  ParseResult r = parse(R"(kernel k(s32 s) {
    reg s32 a
    reg f32 x
    reg u64 w
    add.s32 a, s, -2147483648
    add.s32 a, a, 0x7fffffff
    mov.f32 x, -1.5
    mov.f32 x, 2
    mov.f32 x, 0f7fc00000
    mov.f32 x, -2.0e-3
    mov.u64 w, 18446744073709551615
    exit
}
)");
  INFO(all_messages(r));
  REQUIRE(r.ok());
  const auto& code = r.module.kernels[0].code;
  CHECK(code[0].operands[2].bits == 0xffffffff80000000ull);
  CHECK(code[1].operands[2].bits == 0x7fffffffu);
  CHECK(code[2].operands[1].bits == std::bit_cast<std::uint32_t>(-1.5f));
  CHECK(code[3].operands[1].bits == std::bit_cast<std::uint32_t>(2.0f));
  CHECK(code[4].operands[1].bits == 0x7fc00000u);
  CHECK(code[5].operands[1].bits == std::bit_cast<std::uint32_t>(-2.0e-3f));
  CHECK(code[6].operands[1].bits == ~0ull);
}

TEST_CASE("mnemonics split into opcode, modifier, type and source type") {
  ParseResult r = parse(R"(kernel k(ptr.u32 g) {
    reg u32 i, old
    reg f32 x
    reg pred p
    shared u32 counts[3]
    shared f32 tile[4]
    shared u64 wide[2]
    setp.ge.u32 p, i, 10
    cvt.f32.u32 x, i
    atom.add.global.u32 old, [g-8], 1
    atom.inc.shared.u32 old, [counts+4], 7
    st.shared.f32 [tile], x
    mov.u32 i, wide
    bar.sync
    membar.gl
    exit
}
)");
  INFO(all_messages(r));
  REQUIRE(r.ok());
  const Kernel& k = r.module.kernels[0];
  CHECK(k.code[0].op == Opcode::Setp);
  CHECK(k.code[0].compare == Compare::Ge);
  CHECK(k.code[0].type == Type::U32);
  CHECK(k.code[1].op == Opcode::Cvt);
  CHECK(k.code[1].type == Type::F32);
  CHECK(k.code[1].source_type == Type::U32);
  CHECK(k.code[2].op == Opcode::AtomAdd);
  CHECK(k.code[2].space == Space::Global);
  CHECK(k.code[2].operands[1].kind == OperandKind::MemRegister);
  CHECK(k.code[2].operands[1].offset == -8);
  CHECK(k.code[3].operands[1].kind == OperandKind::MemShared);
  CHECK(k.code[3].operands[1].offset == 4);
  CHECK(k.code[5].operands[1].kind == OperandKind::SharedAddress);
  CHECK(k.code[5].operands[1].index == 2);
  CHECK(k.code[6].op == Opcode::BarSync);
  CHECK(k.code[7].op == Opcode::MembarGl);
  // Shared arrays are laid out in declaration order, each aligned to its element size.
  CHECK(k.shared[0].offset == 0);
  CHECK(k.shared[1].offset == 12);
  CHECK(k.shared[2].offset == 32);
  CHECK(k.shared_bytes() == 48);
}

TEST_CASE("a file that cannot be opened gives one diagnostic at 0:0") {
  ParseResult r = parse_file("/nonexistent/dir/x.kir");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].loc.line == 0);
  CHECK(r.diagnostics[0].message == "cannot read '/nonexistent/dir/x.kir': cannot open file");
  ParseResult dir = parse_file("/tmp");
  REQUIRE(dir.diagnostics.size() == 1);
  CHECK(dir.diagnostics[0].message == "cannot read '/tmp': is a directory, not a file");
}

TEST_CASE("randomly damaged kernels never crash the parser") {
  const std::string original = kVecadd;
  const std::string alphabet = "@!:,(){}[]+-.%0123456789xfe_abz \t\n\r/\x7f\x80";
  std::mt19937 random(7);
  for (int round = 0; round < 3000; ++round) {
    std::string text = original;
    for (int edit = 0; edit < 1 + round % 8; ++edit) {
      const std::size_t at = random() % (text.size() + 1);
      switch (random() % 3) {
        case 0: text.insert(at, 1, alphabet[random() % alphabet.size()]); break;
        case 1: if (at < text.size()) text.erase(at, 1 + random() % 6); break;
        default: if (at < text.size()) text[at] = alphabet[random() % alphabet.size()]; break;
      }
    }
    ParseResult r = parse(text, "damaged.kir");
    for (const Diagnostic& d : r.diagnostics) CHECK_FALSE(d.format().empty());
  }
}
