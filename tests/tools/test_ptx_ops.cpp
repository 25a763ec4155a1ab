// PTX instructions the importer maps one to one onto the IR's newer opcodes and qualifiers (bit
// operations, rounding, .sat, .ftz, the approximate functions, ld.global.nc): small hand-written
// PTX kernels imported, run on the simulator and checked lane by lane against host references
// written here, independently of the simulator's lane code.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "device/errors.hpp"
#include "frontend/import.hpp"
#include "sim/gpu.hpp"
#include "tests/tools/cli_helpers.hpp"
#include "tools/file_run.hpp"

namespace {

using warpsim::kernels::Outcome;

// One kernel `k(in, out)` over one block of 64 threads: thread t reads in[t] (4 bytes) into %r2
// and %f1 and writes `slots` 4-byte results at out[t * slots + i], each from the body's %r10+i.
std::string kernel_ptx(const std::string& body, unsigned slots) {
  std::string stores;
  for (unsigned i = 0; i < slots; ++i) stores += " st.global.u32 [%rd7+" + std::to_string(4 * i) + "], %r" + std::to_string(10 + i) + ";\n";
  return ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n .param .u64 k_param_0,\n"
         " .param .u64 k_param_1\n)\n{\n .reg .pred %p<4>;\n .reg .b32 %r<40>;\n .reg .f32 %f<40>;\n .reg .b64 %rd<10>;\n"
         " ld.param.u64 %rd1, [k_param_0];\n ld.param.u64 %rd2, [k_param_1];\n cvta.to.global.u64 %rd3, %rd1;\n"
         " cvta.to.global.u64 %rd4, %rd2;\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd5, %r1, 4;\n add.s64 %rd6, %rd3, %rd5;\n"
         " ld.global.nc.u32 %r2, [%rd6];\n mov.b32 %f1, %r2;\n mul.wide.u32 %rd8, %r1, " + std::to_string(4 * slots) +
         ";\n add.s64 %rd7, %rd4, %rd8;\n" + body + stores + " ret;\n}\n";
}

using warpsim::test::write_temp;

// Runs `body` on 64 inputs from `init` and returns (input, out) as 32-bit words.
std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>> run_body(const std::string& name, const std::string& body,
                                                                           unsigned slots, const std::string& init) {
  warpsim::cli::FileRun r;
  r.path = write_temp(name, kernel_ptx(body, slots));
  r.grid = {1, 1, 1};
  r.block = {64, 1, 1};
  r.buffers.push_back(warpsim::cli::parse_buffer_spec("param_0=" + init));
  r.buffers.push_back(warpsim::cli::parse_buffer_spec("param_1=u32[" + std::to_string(64 * slots) + "]:zeros"));
  warpsim::sim::Gpu gpu;
  warpsim::kernels::RunOptions options;
  options.read_all_buffers = true;
  const Outcome o = warpsim::cli::run_file(gpu, r, options);
  auto words = [&](const std::string& label) {
    for (const auto& b : o.outputs)
      if (b.label == label) {
        std::vector<std::uint32_t> v(b.bytes.size() / 4);
        std::memcpy(v.data(), b.bytes.data(), v.size() * 4);
        return v;
      }
    FAIL("no output " << label);
    return std::vector<std::uint32_t>{};
  };
  return {words("param_0"), words("param_1")};
}

float as_float(std::uint32_t w) { return std::bit_cast<float>(w); }

// a * b + c computed exactly in double (f32 operands of these sizes fit), then rounded down to f32.
float fma_round_down(float a, float b, float c) {
  const double exact = double(a) * double(b) + double(c);
  float f = static_cast<float>(exact);
  if (double(f) > exact) f = std::nextafter(f, -INFINITY);
  return f;
}

}  // namespace

TEST_CASE("PTX's bit operations import as the IR's and give the PTX ISA's results") {
  const std::string body =
      " mul.hi.u32 %r10, %r2, 0x9E3779B1;\n"
      " mul.hi.s32 %r11, %r2, -7;\n"
      " bfe.u32 %r12, %r2, 3, 5;\n"
      " bfe.s32 %r13, %r2, 4, 7;\n"
      " bfi.b32 %r14, %r1, %r2, 8, 4;\n"
      " popc.b32 %r15, %r2;\n"
      " clz.b32 %r16, %r2;\n"
      " brev.b32 %r17, %r2;\n"
      " prmt.b32 %r18, %r2, %r1, 0x3715;\n";
  const auto [in, out] = run_body("warpsim-bits.ptx", body, 9, "u32[64]:random");
  for (std::uint32_t t = 0; t < 64; ++t) {
    const std::uint32_t x = in[t];
    const std::uint32_t* d = &out[t * 9];
    INFO("thread " << t << " x = " << x);
    CHECK(d[0] == static_cast<std::uint32_t>((std::uint64_t{x} * 0x9E3779B1u) >> 32));
    CHECK(d[1] == static_cast<std::uint32_t>(static_cast<std::uint64_t>(std::int64_t{std::int32_t(x)} * -7) >> 32));
    CHECK(d[2] == ((x >> 3) & 31u));
    const std::uint32_t field = (x >> 4) & 0x7f;
    CHECK(d[3] == (field & 0x40 ? field | ~0x7fu : field));  // sign-extended from bit 6
    CHECK(d[4] == ((x & ~0xf00u) | ((t & 0xfu) << 8)));
    CHECK(d[5] == static_cast<std::uint32_t>(std::popcount(x)));
    CHECK(d[6] == static_cast<std::uint32_t>(std::countl_zero(x)));
    std::uint32_t reversed = 0;
    for (int i = 0; i < 32; ++i) reversed |= ((x >> i) & 1u) << (31 - i);
    CHECK(d[7] == reversed);
    // Selector 0x3715 over the bytes {x0..x3, t0..t3}, nibbles from the lowest: 5 (t's byte 1),
    // 1 (x's byte 1), 7 (t's byte 3), 3 (x's byte 3); no nibble has the sign-replication bit.
    const std::uint64_t bytes = (std::uint64_t{t} << 32) | x;
    auto byte = [&](unsigned i) { return static_cast<std::uint32_t>((bytes >> (8 * i)) & 0xff); };
    CHECK(d[8] == (byte(5) | byte(1) << 8 | byte(7) << 16 | byte(3) << 24));
  }
}

TEST_CASE("PTX's rounding, .sat, .ftz and approximate functions import with their qualifiers and their results") {
  // -6 in steps of 0.25: halves (for round-half-even), negatives, values above 1.
  const std::string body =
      " fma.rm.f32 %f10, %f1, 0f3DCCCCCD, 0f3F800000;\n mov.b32 %r10, %f10;\n"
      " fma.rp.f32 %f11, %f1, 0f3DCCCCCD, 0f3F800000;\n mov.b32 %r11, %f11;\n"
      " cvt.sat.f32.f32 %f12, %f1;\n mov.b32 %r12, %f12;\n"
      " cvt.rni.s32.f32 %r13, %f1;\n"
      " cvt.rmi.f32.f32 %f14, %f1;\n mov.b32 %r14, %f14;\n"
      " ex2.approx.ftz.f32 %f15, %f1;\n mov.b32 %r15, %f15;\n"
      " add.sat.f32 %f16, %f1, 0f3F000000;\n mov.b32 %r16, %f16;\n"
      " div.rn.f32 %f17, %f1, 0f40400000;\n mov.b32 %r17, %f17;\n"
      " sqrt.approx.f32 %f18, %f1;\n mov.b32 %r18, %f18;\n";
  // Unnamed PTX pointers are ptr.u32 (no .cu to name them): the f32 inputs go in as their bits.
  std::vector<std::uint32_t> bits(64);
  for (std::uint32_t t = 0; t < 64; ++t) bits[t] = std::bit_cast<std::uint32_t>(-6.0f + 0.25f * float(t));
  const auto input = std::filesystem::temp_directory_path() / "warpsim-float-qualifiers.bin";
  std::ofstream(input, std::ios::binary).write(reinterpret_cast<const char*>(bits.data()), 64 * 4);
  const auto [in, out] = run_body("warpsim-float-qualifiers.ptx", body, 9, "u32:file:" + input.string());
  for (std::uint32_t t = 0; t < 64; ++t) {
    const float x = as_float(in[t]);
    REQUIRE(x == -6.0f + 0.25f * float(t));
    const std::uint32_t* d = &out[t * 9];
    INFO("thread " << t << " x = " << x);
    const float down = fma_round_down(x, 0.1f, 1.0f);
    CHECK(as_float(d[0]) == down);
    const double exact = double(x) * double(0.1f) + 1.0;
    CHECK(as_float(d[1]) == (double(down) == exact ? down : std::nextafter(down, INFINITY)));
    CHECK(as_float(d[2]) == (x < 0 ? 0.0f : x > 1 ? 1.0f : x));
    CHECK(static_cast<std::int32_t>(d[3]) == static_cast<std::int32_t>(std::nearbyint(x)));  // half to even
    CHECK(as_float(d[4]) == std::floor(x));
    CHECK(as_float(d[5]) == Approx(std::exp2(double(x))).epsilon(1e-6));
    const float sum = x + 0.5f;
    CHECK(as_float(d[6]) == (sum < 0 ? 0.0f : sum > 1 ? 1.0f : sum));
    CHECK(as_float(d[7]) == x / 3.0f);
    if (x >= 0) CHECK(as_float(d[8]) == Approx(std::sqrt(double(x))).epsilon(1e-6));
    else CHECK(std::isnan(as_float(d[8])));
  }
}

TEST_CASE("a module-scope variable no kernel names is read past, and a kernel naming one is refused with its line") {
  const std::string head = ".version 9.0\n.target sm_90\n.address_size 64\n.global .align 1 .u8 _ZN6helper5__valE;\n"
                           ".global .align 4 .b8 table[8] = {1, 0, 0, 0, 2, 0, 0, 0};\n"
                           ".visible .entry k(\n .param .u64 k_param_0\n)\n{\n .reg .b64 %rd<3>;\n .reg .b32 %r<3>;\n";
  const auto unused = warpsim::frontend::import_ptx(head + " ret;\n}\n", "m.ptx", "", {});
  CHECK(unused.kernel == "k");
  try {
    warpsim::frontend::import_ptx(head + " mov.u64 %rd1, table;\n ld.global.u32 %r1, [%rd1];\n ret;\n}\n", "m.ptx", "", {});
    FAIL("imported");
  } catch (const warpsim::Error& e) {
    CHECK(std::string(e.what()).find("m.ptx:12: error: unsupported PTX") != std::string::npos);
    CHECK(std::string(e.what()).find("module-scope .global variable table (declared at line 5") != std::string::npos);
  }
}

TEST_CASE("a PTX qualifier the IR does not take on that instruction is refused with the PTX line") {
  const std::string ptx = kernel_ptx(" min.ftz.f32 %f10, %f1, %f1;\n mov.b32 %r10, %f10;\n", 1);
  try {
    warpsim::frontend::import_ptx(ptx, "q.ptx", "", {});
    FAIL("imported");
  } catch (const warpsim::Error& e) {
    CHECK(std::string(e.what()).find("q.ptx:24: error: unsupported PTX") != std::string::npos);
  }
}

TEST_CASE("PTX's atom.and, atom.or, atom.xor, atom.dec and red.xor import and apply once per lane") {
  const std::string body =
      " shl.b32 %r20, 1, %r1;\n"
      " atom.global.or.b32 %r10, [%rd3+4], %r20;\n"
      " atom.global.dec.u32 %r11, [%rd3+8], 5;\n"
      " red.global.xor.b32 [%rd3+12], %r1;\n"
      " not.b32 %r21, %r20;\n"
      " atom.global.and.b32 %r12, [%rd3+16], %r21;\n";
  std::vector<std::uint32_t> start(64, 0);
  start[2] = 3;
  start[4] = 0xffffffffu;
  const auto input = std::filesystem::temp_directory_path() / "warpsim-atomics.bin";
  std::ofstream(input, std::ios::binary).write(reinterpret_cast<const char*>(start.data()), 64 * 4);
  const auto [in, out] = run_body("warpsim-atomics.ptx", body, 3, "u32:file:" + input.string());
  CHECK(in[1] == 0xffffffffu);  // lanes 0-31 set their bit; shl by 32 and more gives 0 (PTX clamps)
  CHECK(in[3] == 0u);           // 0 ^ 1 ^ ... ^ 63
  CHECK(in[4] == 0u);           // lanes 0-31 clear their bit; the others clear none
  CHECK(in[2] == 5u);           // 64 decrements from 3, wrapping 0 -> 5: (3 - 64) mod 6
  std::vector<unsigned> dec_olds(6, 0);
  for (std::uint32_t t = 0; t < 64; ++t) {
    INFO("thread " << t);
    if (t < 32) {
      CHECK((out[3 * t] & (1u << t)) == 0);      // only lane t sets bit t: it was clear before
      CHECK((out[3 * t + 2] & (1u << t)) != 0);  // only lane t clears it: it was set before
    }
    REQUIRE(out[3 * t + 1] <= 5u);
    ++dec_olds[out[3 * t + 1]];
  }
  // 64 decrements cycle 3, 2, 1, 0, 5, 4, 3, ...: each value seen 10 or 11 times.
  for (unsigned v = 0; v < 6; ++v) CHECK(dec_olds[v] == (v <= 3 ? 11u : 10u));
}

TEST_CASE("PTX's vector accesses, local arrays, packing movs and membermasks import and give their results") {
  const std::string body =
      " .local .align 16 .b8 __local_depot0[16];\n .reg .b64 %SP;\n .reg .b64 %SPL;\n .reg .b64 %ra<6>;\n"
      " mov.u64 %SPL, __local_depot0;\n cvta.local.u64 %SP, %SPL;\n add.u64 %ra1, %SPL, 0;\n"
      " add.s32 %r20, %r2, 1;\n add.s32 %r21, %r2, 2;\n add.s32 %r22, %r2, 3;\n"
      " st.local.v4.u32 [%ra1], {%r2, %r20, %r21, %r22};\n"
      " and.b32 %r23, %r1, 3;\n mul.wide.u32 %ra2, %r23, 4;\n add.s64 %ra3, %SP, %ra2;\n"
      " ld.u32 %r10, [%ra3];\n"  // generic, through the local window
      " shr.u32 %r24, %r1, 1;\n mul.wide.u32 %ra4, %r24, 8;\n add.s64 %ra5, %rd3, %ra4;\n"
      " ld.global.v2.u32 {%r11, %r12}, [%ra5];\n"
      " mov.b64 %ra0, {%r2, %r1};\n mov.b64 {%r13, %r14}, %ra0;\n"
      " activemask.b32 %r25;\n shfl.sync.down.b32 %r15|%p1, %r2, 1, 31, %r25;\n"
      " setp.lt.u32 %p2, %r1, 40;\n vote.sync.ballot.b32 %r16, %p2, %r25;\n bar.warp.sync -1;\n";
  const auto [in, out] = run_body("warpsim-vector-local.ptx", body, 7, "u32[64]:random");
  for (std::uint32_t t = 0; t < 64; ++t) {
    const std::uint32_t* d = &out[t * 7];
    INFO("thread " << t);
    CHECK(d[0] == in[t] + (t & 3));
    CHECK(d[1] == in[t & ~1u]);
    CHECK(d[2] == in[t | 1u]);
    CHECK(d[3] == in[t]);
    CHECK(d[4] == t);
    CHECK(d[5] == (t % 32 < 31 ? in[t + 1] : in[t]));
    CHECK(d[6] == (t < 32 ? 0xffffffffu : 0xffu));
  }
}

TEST_CASE("a generic access whose base is neither shared nor local is refused with the PTX line") {
  const std::string ptx = kernel_ptx(" ld.u32 %r10, [%rd6];\n", 1);
  try {
    warpsim::frontend::import_ptx(ptx, "g.ptx", "", {});
    FAIL("imported");
  } catch (const warpsim::Error& e) {
    CHECK(std::string(e.what()).find("g.ptx:24: error: unsupported PTX") != std::string::npos);
    CHECK(std::string(e.what()).find("not provably the address of a shared or local variable") != std::string::npos);
  }
}

TEST_CASE("shared bytes aligned to 1 (a __shared__ bool, a char array) import as padded words and keep byte accesses") {
  // Thread 5 writes its input's low byte to `flag` and its second byte to bytes[5]; after the
  // barrier every thread reads both back, and bytes[4], which nobody wrote.
  const std::string body =
      " .shared .align 1 .u8 flag;\n .shared .align 1 .b8 bytes[6];\n .reg .b16 %rs<6>;\n"
      " setp.eq.u32 %p1, %r1, 5;\n cvt.u16.u32 %rs1, %r2;\n shr.u32 %r3, %r2, 8;\n cvt.u16.u32 %rs2, %r3;\n"
      " @%p1 st.shared.u8 [flag], %rs1;\n @%p1 st.shared.u8 [bytes+5], %rs2;\n bar.sync 0;\n"
      " ld.shared.u8 %rs3, [flag];\n cvt.u32.u16 %r10, %rs3;\n"
      " ld.shared.u8 %rs4, [bytes+5];\n cvt.u32.u16 %r11, %rs4;\n"
      " ld.shared.u8 %rs5, [bytes+4];\n cvt.u32.u16 %r12, %rs5;\n";
  const auto imported = warpsim::frontend::import_ptx(kernel_ptx(body, 3), "b.ptx", "", {});
  CHECK(imported.kir.find("shared u32 flag[1]") != std::string::npos);
  CHECK(imported.kir.find("shared u32 bytes[2]") != std::string::npos);
  const auto [in, out] = run_body("warpsim-shared-bytes.ptx", body, 3, "u32[64]:random");
  for (std::uint32_t t = 0; t < 64; ++t) {
    INFO("thread " << t);
    CHECK(out[t * 3] == (in[5] & 0xff));
    CHECK(out[t * 3 + 1] == ((in[5] >> 8) & 0xff));
    CHECK(out[t * 3 + 2] == 0);
  }
}
