// The textbook and everyday kernels in plain CUDA C (tests/data/cuda/*.cu with their committed
// NVRTC .ptx): each imported, run on the simulator and checked against a host reference; the
// textbook ones also compared in divergence with their hand-written .kir scenarios.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>

#include "sim/gpu.hpp"
#include "tests/tools/file_run_helpers.hpp"
#include "tools/file_run.hpp"

namespace {

using warpsim::test::cuda_data;
using warpsim::test::run_file;

using warpsim::Dim3;
using warpsim::kernels::Outcome;
using Args = std::vector<std::pair<std::string, std::string>>;

std::string kir(const std::string& name) { return std::string(WARPSIM_KERNELS_DIR) + "/" + name; }

template <typename T>
std::vector<T> values(const Outcome& o, const std::string& name) {
  for (const auto& b : o.outputs)
    if (b.label == name) {
      std::vector<T> v(b.bytes.size() / sizeof(T));
      std::memcpy(v.data(), b.bytes.data(), v.size() * sizeof(T));
      return v;
    }
  FAIL("no output " << name);
  return {};
}


// Divergent branch executions over every branch of the launch, and the branches that diverged.
struct Divergence {
  std::uint64_t divergent = 0;
  std::size_t branches_that_diverge = 0;
};
Divergence divergence(const Outcome& o) {
  Divergence d;
  for (const auto& b : o.launches.at(0).result.stats.branches) {
    d.divergent += b.divergent_executions;
    d.branches_that_diverge += b.divergent_executions > 0;
  }
  return d;
}

// Divergent executions of the branches that `where` picks (by CUDA line or target label).
template <typename Where>
std::uint64_t divergent_where(const Outcome& o, Where where) {
  std::uint64_t n = 0;
  for (const auto& b : o.launches.at(0).result.stats.branches)
    if (where(b)) n += b.divergent_executions;
  return n;
}
auto at_line(const std::string& source) {
  return [source](const warpsim::BranchStats& b) { return b.source == source; };
}
auto to_label(const std::string& target) {
  return [target](const warpsim::BranchStats& b) { return b.target == target; };
}

// A temporary binary file for a file:PATH buffer.
template <typename T>
std::string write_file(const std::string& name, const std::vector<T>& v) {
  const auto path = (std::filesystem::temp_directory_path() / ("warpsim-cuda-" + name + ".bin")).string();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
  return path;
}

}  // namespace

TEST_CASE("PMPP grey on unsigned char pixels matches the host and the gray.kir scenario's divergence") {
  const int width = 37, height = 21;
  const auto out = run_file(cuda_data("grey.ptx"), {3, 2, 1}, {16, 16, 1}, {{"width", "37"}, {"height", "21"}},
                       {"Pin=u8[2331]:random:256", "Pout=u8[777]:zeros"});
  const auto in = values<std::uint8_t>(out, "Pin");
  const auto grey = values<std::uint8_t>(out, "Pout");
  for (int p = 0; p < width * height; ++p) {
    const float r = in[3 * p], g = in[3 * p + 1], b = in[3 * p + 2];
    const float sum = 0.21f * r + 0.71f * g + 0.07f * b;
    REQUIRE(grey[p] == static_cast<std::uint8_t>(sum));
  }
  const auto reference = run_file(kir("gray.kir"), {3, 2, 1}, {16, 16, 1}, {{"width", "37"}, {"height", "21"}},
                             {"rgb=u32[2331]:random:256", "grey=u32[777]:zeros"});
  // gray.kir tests both bounds with one and.pred and one branch; the totals are compared.
  CHECK(divergence(out).divergent == divergence(reference).divergent);
}

TEST_CASE("ECE408 naive and improved reductions sum each block's 512 values, and divergence as the .kir scenarios") {
  for (const std::string name : {"reduce_ece408_naive", "reduce_ece408_improved"}) {
    const auto out = run_file(cuda_data(name + ".ptx"), {2, 1, 1}, {256, 1, 1}, {{"n", "1000"}},
                         {"input=f32[1000]:iota", "out=f32[2]:zeros"});
    const auto sums = values<float>(out, "out");
    CHECK(sums[0] == 511.0f * 512.0f / 2.0f);                      // 0 + ... + 511, exact
    CHECK(sums[1] == (999.0f * 1000.0f - 511.0f * 512.0f) / 2.0f);  // 512 + ... + 999
    const auto reference = run_file(kir(name + ".kir"), {2, 1, 1}, {256, 1, 1}, {{"n", "1000"}},
                               {"input=f32[1000]:iota", "out=f32[2]:zeros"});
    INFO(name);
    // The .kir loads with a guarded ld; NVRTC branches around the load of input[start +
    // blockDim.x + t] (line 9), which diverges once, in block 1's warp holding element 999.
    // Every other branch diverges as the .kir's.
    std::uint64_t at_load = 0;
    for (const auto& b : out.launches.at(0).result.stats.branches)
      if (b.source == name + ".cu:9") at_load += b.divergent_executions;
    CHECK(at_load == 1);
    CHECK(divergence(out).divergent - at_load == divergence(reference).divergent);
    CHECK(divergence(reference).divergent > 0);
  }
}

TEST_CASE("PMPP's coarsened reduction sums each block's 2048 values, and diverges as reduce_coarsened.kir") {
  // 2 blocks of 256 threads, COARSE_FACTOR 4: 2048 values per block; n = 4010 ends inside block 1's
  // last tile (t < 162), so one warp of it splits at the bound check.
  const unsigned n = 4010, per_block = 2048;
  const std::vector<std::string> buffers{"input=f32[4010]:iota", "out=f32[2]:zeros"};
  const auto out = run_file(cuda_data("reduce_coarsened.ptx"), {2, 1, 1}, {256, 1, 1}, {{"n", "4010"}}, buffers);
  const auto input = values<float>(out, "input");
  const auto sums = values<float>(out, "out");
  for (unsigned b = 0; b < 2; ++b) {
    double want = 0;  // integers: every partial sum is below 2^24, so exact in f32 in any order
    for (unsigned i = b * per_block; i < std::min(n, (b + 1) * per_block); ++i) want += input[i];
    CHECK(sums[b] == want);
  }
  const auto reference =
      run_file(kir("reduce_coarsened.kir"), {2, 1, 1}, {256, 1, 1}, {{"n", "4010"}, {"coarse", "4"}}, buffers);
  CHECK(values<float>(reference, "out") == sums);
  // NVRTC unrolls the serial loop into 8 bound checks, each a branch around its load (line 16);
  // the .kir has one check in a loop (to `skip`). Either way one execution splits: the warp and
  // tile where n falls. The tree (line 20, `next`) splits warp 0 of each block at strides 16..1,
  // and t == 0 (line 22, `done`) once per block.
  CHECK(divergent_where(out, at_line("reduce_coarsened.cu:16")) == 1);
  CHECK(divergent_where(reference, to_label("skip")) == 1);
  CHECK(divergent_where(out, at_line("reduce_coarsened.cu:20")) == divergent_where(reference, to_label("next")));
  CHECK(divergent_where(reference, to_label("next")) == 2 * 5);
  CHECK(divergent_where(out, at_line("reduce_coarsened.cu:22")) == divergent_where(reference, to_label("done")));
  CHECK(divergence(out).divergent == divergence(reference).divergent);
}

TEST_CASE("threadFenceReduction sums the array in one launch, and diverges as reduce_last_block.kir but at the load") {
  // 4 blocks of 256 over n = 1000: block 3 holds 232 values, so its warp 7 splits at the bound.
  const unsigned n = 1000, block = 256;
  const std::vector<std::string> buffers{"input=f32[1000]:iota", "partial=f32[4]:zeros", "out=f32[1]:zeros",
                                         "counter=u32[1]:zeros"};
  const auto out = run_file(cuda_data("reduce_last_block.ptx"), {4, 1, 1}, {block, 1, 1}, {{"n", "1000"}}, buffers);
  const auto input = values<float>(out, "input");
  const auto partial = values<float>(out, "partial");
  double total = 0;  // integers below 2^24: exact in f32 in any order
  for (unsigned b = 0; b < 4; ++b) {
    double want = 0;
    for (unsigned i = b * block; i < std::min(n, (b + 1) * block); ++i) want += input[i];
    CHECK(partial[b] == want);
    total += want;
  }
  CHECK(values<float>(out, "out").at(0) == total);
  CHECK(values<std::uint32_t>(out, "counter").at(0) == 0);  // reset by the last block
  const auto reference = run_file(kir("reduce_last_block.kir"), {4, 1, 1}, {block, 1, 1}, {{"n", "1000"}}, buffers);
  CHECK(values<float>(reference, "out") == values<float>(out, "out"));
  // The .kir loads input[i] with a guarded ld; NVRTC branches around the load (line 13), which
  // splits block 3's warp 7 once. The gather loop over the partials is a guard and a bottom-tested
  // loop in NVRTC's PTX (line 27) and a top-tested loop in the .kir (to `gathered`): each splits the
  // last block's warp 0 once (lanes 0-3 read a partial). Every other branch diverges as the .kir's.
  const auto at_load = divergent_where(out, at_line("reduce_last_block.cu:13"));
  CHECK(at_load == 1);
  CHECK(divergent_where(out, at_line("reduce_last_block.cu:27")) == 1);
  CHECK(divergent_where(reference, to_label("gathered")) == 1);
  CHECK(divergent_where(out, at_line("reduce_last_block.cu:16")) == divergent_where(reference, to_label("next")));
  CHECK(divergent_where(out, at_line("reduce_last_block.cu:31")) == divergent_where(reference, to_label("next2")));
  CHECK(divergence(out).divergent - at_load == divergence(reference).divergent);
  CHECK(divergence(reference).divergent > 0);
}

TEST_CASE("vector add, the divergent loop and the PMPP reductions diverge as their .kir scenarios") {
  SECTION("vector add, n = 1003 in 64-thread blocks: the one bounds check splits the last warp only") {
    const auto cu = run_file(cuda_data("vecadd.ptx"), {16, 1, 1}, {64, 1, 1}, {{"n", "1003"}},
                             {"a=f32[1024]:iota", "b=f32[1024]:iota", "c=f32[1024]:zeros"});
    const auto ir = run_file(kir("vecadd.kir"), {16, 1, 1}, {64, 1, 1}, {{"n", "1003"}},
                             {"a=f32[1024]:iota", "b=f32[1024]:iota", "c=f32[1024]:zeros"});
    CHECK(divergence(cu).divergent == divergence(ir).divergent);
    CHECK(divergence(cu).divergent == 1);
  }
  SECTION("the divergent loop: trips 6, 7, 8 by lane") {
    const auto cu = run_file(cuda_data("divergent_loop.ptx"), {2, 1, 1}, {64, 1, 1}, {}, {"out=u32[128]:zeros"});
    const auto ir = run_file(kir("divergent_loop.kir"), {2, 1, 1}, {64, 1, 1}, {}, {"out=u32[128]:zeros"});
    // The .kir's loop splits each of the 4 warps twice (lanes of 6 trips leave at the 7th test,
    // lanes of 7 at the 8th).
    CHECK(divergence(ir).divergent == 2 * 4);
    // NVRTC unrolls it by 4 with a remainder loop (line 6 in the PTX: $L__BB0_1 the unrolled body,
    // $L__BB0_4 skipping the remainder, $L__BB0_3 the remainder): 4, 4, 8 trips in the body (one
    // split), 2, 3, 0 in the remainder (one split at the skip, one at its exit), per warp.
    CHECK(divergent_where(cu, to_label("_L__BB0_1")) == 4);
    CHECK(divergent_where(cu, to_label("_L__BB0_4")) == 4);
    CHECK(divergent_where(cu, to_label("_L__BB0_3")) == 4);
    CHECK(divergence(cu).divergent == 3 * 4);
  }
  SECTION("Fig 5.13 and Fig 5.15 on one block: the book's (global, 512 values by 256 threads) and the .kir's") {
    // The .cu files are the book's figures; the .kir scenarios sum blockDim.x values in shared
    // memory, one round fewer. The rounds that split a warp are the same: 47 divergent executions
    // at Fig 5.13's test, 5 at Fig 5.15's (strides 16..1), 1 at the final t == 0 in both.
    const std::vector<std::tuple<std::string, std::string, std::string, std::uint64_t>> cases{
        {"reduce_fig5_13", "reduce_fig5_13.cu:6", "next", 47}, {"reduce_fig5_15", "reduce_fig5_15.cu:5", "next", 5}};
    for (const auto& [name, cu_line, ir_label, splits] : cases) {
      INFO(name);
      const auto cu = run_file(cuda_data(name + ".ptx"), {1, 1, 1}, {256, 1, 1}, {},
                               {"input=f32[512]:const:1", "output=f32[1]:zeros"});
      const auto ir = run_file(kir(name + ".kir"), {1, 1, 1}, {256, 1, 1}, {{"n", "256"}},
                               {"input=f32[256]:const:1", "out=f32[1]:zeros"});
      CHECK(divergent_where(cu, at_line(cu_line)) == splits);
      CHECK(divergent_where(ir, to_label(ir_label)) == splits);
      CHECK(divergent_where(ir, to_label("done")) == 1);
      CHECK(divergence(cu).divergent == divergence(ir).divergent);
    }
  }
}

TEST_CASE("reportClocks: every warp's lanes read one clock value, as report_clocks.kir") {
  const auto out = run_file(cuda_data("report_clocks.ptx"), {4, 1, 1}, {14, 8, 1}, {}, {"out=u32[448]:zeros"});
  const auto clocks = values<std::uint32_t>(out, "out");
  std::set<std::uint32_t> distinct;
  for (std::size_t t = 0; t < clocks.size(); ++t) {
    const std::size_t block = t / 112, lane0 = block * 112 + (t % 112) / 32 * 32;
    REQUIRE(clocks[t] == clocks[lane0]);
    distinct.insert(clocks[t]);
  }
  CHECK(distinct.size() > 1);
  CHECK(divergence(out).divergent == 0);
}

TEST_CASE("naive, tiled and coarsened matrix multiply match the host product, and diverge as the .kir scenarios") {
  const unsigned rows = 37, inner = 29, cols = 41;
  const Args args{{"rows", "37"}, {"inner", "29"}, {"cols", "41"}};
  const std::vector<std::string> buffers{"M=f32[1073]:random", "N=f32[1189]:random", "P=f32[1517]:zeros"};
  struct Case {
    std::string ptx, kir;
    Dim3 grid;
  };
  for (const auto& c : {Case{"matmul_naive.ptx", "matmul_naive.kir", {3, 3, 1}},
                        Case{"matmul_tiled.ptx", "matmul_tiled.kir", {3, 3, 1}},
                        Case{"matmul_coarsened.ptx", "matmul_coarsened_c4.kir", {1, 3, 1}}}) {
    INFO(c.ptx);
    const auto out = run_file(cuda_data(c.ptx), c.grid, {16, 16, 1}, args, buffers);
    const auto m = values<float>(out, "M"), n = values<float>(out, "N"), p = values<float>(out, "P");
    for (unsigned r = 0; r < rows; ++r)
      for (unsigned col = 0; col < cols; ++col) {
        float sum = 0;
        for (unsigned k = 0; k < inner; ++k) sum = std::fma(m[r * inner + k], n[k * cols + col], sum);
        REQUIRE(p[r * cols + col] == Approx(sum).epsilon(1e-5));
      }
    const auto reference = run_file(kir(c.kir), c.grid, {16, 16, 1}, args, buffers);
    CHECK(divergence(out).divergent == divergence(reference).divergent);
    CHECK(divergence(reference).divergent > 0);  // the row < rows && col < cols check splits warps
  }
}

TEST_CASE("everyday kernels in CUDA C match their host references") {
  SECTION("histogram of bytes with shared atomics") {
    const auto out = run_file(cuda_data("histogram.ptx"), {4, 1, 1}, {128, 1, 1}, {{"n", "5000"}},
                         {"data=u8[5000]:random:256", "histo=u32[256]:zeros"});
    const auto bytes = values<std::uint8_t>(out, "data");
    std::vector<std::uint32_t> expected(256);
    for (auto b : bytes) ++expected[b];
    CHECK(values<std::uint32_t>(out, "histo") == expected);
  }
  SECTION("transpose through a padded shared tile") {
    const unsigned rows = 45, cols = 70;
    const auto out = run_file(cuda_data("transpose.ptx"), {3, 2, 1}, {32, 32, 1}, {{"rows", "45"}, {"cols", "70"}},
                         {"in=f32[3150]:random", "out=f32[3150]:zeros"});
    const auto in = values<float>(out, "in"), t = values<float>(out, "out");
    for (unsigned r = 0; r < rows; ++r)
      for (unsigned c = 0; c < cols; ++c) REQUIRE(t[c * rows + r] == in[r * cols + c]);
  }
  SECTION("1D stencil of radius 3 with a halo in shared memory") {
    const auto out = run_file(cuda_data("stencil1d.ptx"), {8, 1, 1}, {128, 1, 1}, {{"n", "1000"}},
                         {"in=s32[1000]:random:100", "out=s32[1000]:zeros"});
    const auto in = values<std::int32_t>(out, "in"), o = values<std::int32_t>(out, "out");
    for (int g = 0; g < 1000; ++g) {
      int sum = 0;
      for (int k = g - 3; k <= g + 3; ++k) sum += k >= 0 && k < 1000 ? in[k] : 0;
      REQUIRE(o[g] == sum);
    }
  }
  SECTION("Kogge-Stone and Brent-Kung inclusive scans of each section") {
    struct Case {
      std::string file;
      Dim3 grid, block;
      unsigned section;
    };
    for (const auto& c : {Case{"scan_kogge_stone.ptx", {3, 1, 1}, {256, 1, 1}, 256},
                          Case{"scan_brent_kung.ptx", {2, 1, 1}, {256, 1, 1}, 512}}) {
      INFO(c.file);
      const auto out = run_file(cuda_data(c.file), c.grid, c.block, {{"n", "700"}}, {"x=f32[700]:iota", "y=f32[700]:zeros"});
      const auto y = values<float>(out, "y");
      float sum = 0;  // integers below 2^24: exact in any order
      for (unsigned i = 0; i < 700; ++i) {
        sum = i % c.section == 0 ? float(i) : sum + float(i);
        REQUIRE(y[i] == sum);
      }
    }
  }
  SECTION("SAXPY on f64") {
    const auto out = run_file(cuda_data("daxpy.ptx"), {4, 1, 1}, {256, 1, 1}, {{"n", "1000"}, {"a", "0.1"}},
                         {"x=f64[1024]:random", "y=f64[1024]:random"});
    const auto x = values<double>(out, "x"), y = values<double>(out, "y");
    // y was random like x but with another seed; recompute it from the same initialiser.
    const auto before = run_file(cuda_data("daxpy.ptx"), {1, 1, 1}, {1, 1, 1}, {{"n", "0"}, {"a", "0.1"}},
                            {"x=f64[1024]:random", "y=f64[1024]:random"});
    const auto y0 = values<double>(before, "y");
    for (std::size_t i = 0; i < 1024; ++i) REQUIRE(y[i] == (i < 1000 ? 0.1 * x[i] + y0[i] : y0[i]));
  }
  SECTION("one bitonic sort step") {
    for (const auto& [j, k] : {std::pair<unsigned, unsigned>{4, 8}, {1, 256}}) {
      const auto out = run_file(cuda_data("bitonic_step.ptx"), {2, 1, 1}, {128, 1, 1},
                           {{"j", std::to_string(j)}, {"k", std::to_string(k)}}, {"keys=u32[256]:random:1000"});
      const auto before = run_file(cuda_data("bitonic_step.ptx"), {1, 1, 1}, {1, 1, 1}, {{"j", "0"}, {"k", "1"}},
                              {"keys=u32[256]:random:1000"});
      auto expected = values<std::uint32_t>(before, "keys");
      for (unsigned i = 0; i < 256; ++i) {
        const unsigned partner = i ^ j;
        if (partner <= i) continue;
        const bool up = (i & k) == 0;
        if ((up && expected[i] > expected[partner]) || (!up && expected[i] < expected[partner]))
          std::swap(expected[i], expected[partner]);
      }
      CHECK(values<std::uint32_t>(out, "keys") == expected);
    }
  }
  SECTION("CSR sparse matrix-vector multiply with rows of different lengths") {
    const unsigned rows = 100;
    std::vector<std::uint32_t> row_ptr{0}, col_idx;
    std::vector<float> vals, x(64);
    for (unsigned r = 0; r < rows; ++r) {
      for (unsigned e = 0; e < (r * 7) % 13; ++e) {
        col_idx.push_back((r * 5 + e * 3) % 64);
        vals.push_back(float(e + 1) * 0.5f);
      }
      row_ptr.push_back(static_cast<std::uint32_t>(col_idx.size()));
    }
    for (unsigned i = 0; i < 64; ++i) x[i] = float(i % 9) - 4.0f;
    const auto out = run_file(cuda_data("spmv_csr.ptx"), {4, 1, 1}, {32, 1, 1}, {{"rows", "100"}},
                         {"row_ptr=u32:file:" + write_file("row_ptr", row_ptr), "col_idx=u32:file:" + write_file("col_idx", col_idx),
                          "values=f32:file:" + write_file("values", vals), "x=f32:file:" + write_file("x", x),
                          "y=f32[100]:zeros"});
    const auto y = values<float>(out, "y");
    for (unsigned r = 0; r < rows; ++r) {
      float sum = 0;
      for (unsigned e = row_ptr[r]; e < row_ptr[r + 1]; ++e) sum += vals[e] * x[col_idx[e]];
      REQUIRE(y[r] == sum);
    }
    CHECK(divergence(out).divergent > 0);
  }
  SECTION("softmax of each row (expf through ex2.approx.ftz, cvt.sat and fma.rm)") {
    const unsigned rows = 3, cols = 300;  // 300 = 2 x 128 + 44: the column loops diverge
    const auto out = run_file(cuda_data("softmax_row.ptx"), {rows, 1, 1}, {128, 1, 1}, {{"cols", std::to_string(cols)}},
                         {"in=f32[900]:random:8", "out=f32[900]:zeros"});
    const auto in = values<float>(out, "in"), y = values<float>(out, "out");
    for (unsigned r = 0; r < rows; ++r) {
      double m = -3.4e38, sum = 0, total = 0;
      for (unsigned c = 0; c < cols; ++c) m = std::max(m, double(in[r * cols + c]));
      for (unsigned c = 0; c < cols; ++c) sum += std::exp(double(in[r * cols + c]) - m);
      for (unsigned c = 0; c < cols; ++c) {
        // NVRTC's expf is within 2 ulp; the sums add in another order.
        REQUIRE(y[r * cols + c] == Approx(std::exp(double(in[r * cols + c]) - m) / sum).epsilon(1e-5));
        total += y[r * cols + c];
      }
      CHECK(total == Approx(1.0).epsilon(1e-5));
    }
    CHECK(divergence(out).divergent > 0);
  }
  SECTION("one BFS level: each unvisited neighbour of the frontier is claimed once with atomicCAS") {
    const unsigned vertices = 200;
    std::vector<std::uint32_t> row_ptr{0}, col_idx, level(vertices, 0xffffffffu), frontier;
    for (unsigned v = 0; v < vertices; ++v) {
      for (unsigned e = 0; e < (v * 11) % 7; ++e) col_idx.push_back((v * 37 + e * 53 + 1) % vertices);
      row_ptr.push_back(static_cast<std::uint32_t>(col_idx.size()));
    }
    for (unsigned v = 0; v < vertices; v += 3) {
      frontier.push_back(v);
      level[v] = 4;
    }
    const auto size = static_cast<unsigned>(frontier.size());
    const auto out = run_file(cuda_data("bfs_frontier.ptx"), {3, 1, 1}, {32, 1, 1},
                         {{"frontier_size", std::to_string(size)}, {"current", "4"}},
                         {"row_ptr=u32:file:" + write_file("bfs_row_ptr", row_ptr),
                          "col_idx=u32:file:" + write_file("bfs_col_idx", col_idx),
                          "level=u32:file:" + write_file("bfs_level", level),
                          "frontier=u32:file:" + write_file("bfs_frontier", frontier), "next=u32[200]:zeros",
                          "next_size=u32[1]:zeros"});
    std::set<std::uint32_t> expected;
    for (const auto v : frontier)
      for (auto e = row_ptr[v]; e < row_ptr[v + 1]; ++e)
        if (level[col_idx[e]] == 0xffffffffu) expected.insert(col_idx[e]);
    REQUIRE(!expected.empty());
    const auto next_size = values<std::uint32_t>(out, "next_size").at(0);
    CHECK(next_size == expected.size());
    const auto next = values<std::uint32_t>(out, "next");
    const std::set<std::uint32_t> claimed(next.begin(), next.begin() + std::min<std::size_t>(next_size, next.size()));
    CHECK(claimed == expected);  // each once: as many entries as distinct vertices
    const auto after = values<std::uint32_t>(out, "level");
    for (unsigned v = 0; v < vertices; ++v) CHECK(after[v] == (expected.count(v) ? 5u : level[v]));
    CHECK(divergence(out).divergent > 0);
  }
  SECTION("vector add through float4 (ld.global.nc.v4.f32, st.global.v4.f32)") {
    const unsigned n4 = 250;  // 1000 floats; the last warp of block 2 is partly past n4
    const auto out = run_file(cuda_data("vecadd4.ptx"), {3, 1, 1}, {96, 1, 1}, {{"n4", std::to_string(n4)}},
                              {"a=f32[1000]:random", "b=f32[1000]:random", "c=f32[1008]:const:-1"});
    const auto a = values<float>(out, "a"), b = values<float>(out, "b"), c = values<float>(out, "c");
    for (unsigned i = 0; i < 1000; ++i) REQUIRE(c[i] == a[i] + b[i]);
    for (unsigned i = 1000; i < 1008; ++i) REQUIRE(c[i] == -1.0f);
  }
  SECTION("per-thread insertion sort in a local array (ld.local, st.local)") {
    const unsigned k = 7, threads = 100;
    const auto out = run_file(cuda_data("local_sort.ptx"), {2, 1, 1}, {50, 1, 1}, {{"k", std::to_string(k)}},
                              {"in=s32[700]:random:1000", "out=s32[700]:zeros"});
    const auto in = values<std::int32_t>(out, "in"), o = values<std::int32_t>(out, "out");
    for (unsigned t = 0; t < threads; ++t) {
      std::vector<std::int32_t> expected(in.begin() + t * k, in.begin() + (t + 1) * k);
      std::sort(expected.begin(), expected.end());
      REQUIRE(std::vector<std::int32_t>(o.begin() + t * k, o.begin() + (t + 1) * k) == expected);
    }
    CHECK(divergence(out).divergent > 0);  // the insertion loop runs a different number of times per lane
  }
  SECTION("a partial-warp double sum with __activemask, __ballot_sync, __shfl_down_sync and __syncwarp") {
    const unsigned active = 20, warps = 6;
    std::vector<double> in(warps * 32);
    for (unsigned i = 0; i < in.size(); ++i) in[i] = (i % 3 == 0 ? -1.0 : 1.0) * (0.25 * i + 1.0);
    const auto out = run_file(cuda_data("warp_masked.ptx"), {2, 1, 1}, {96, 1, 1}, {{"active", std::to_string(active)}},
                              {"in=f64:file:" + write_file("warp_masked_in", in), "sums=f64[6]:zeros",
                               "positives=s32[6]:zeros"});
    const auto sums = values<double>(out, "sums");
    const auto positives = values<std::int32_t>(out, "positives");
    for (unsigned w = 0; w < warps; ++w) {
      double sum = 0;
      int count = 0;
      for (unsigned l = 0; l < active; ++l) {
        sum += in[w * 32 + l];
        count += in[w * 32 + l] > 0.0;
      }
      INFO("warp " << w);
      CHECK(sums[w] == Approx(sum).epsilon(1e-12));  // a tree, not left to right: the order differs
      CHECK(positives[w] == count);
    }
  }
}

TEST_CASE("a shuffle whose membermask names lanes on another path stops with an error, not a result") {
  // warp_masked with every lane active but its shuffles named by a mask of the lanes below `active`
  // is fine; the same kernel imported with the full mask instead would make lanes wait for others.
  std::ifstream file(cuda_data("warp_masked.ptx"));
  std::string ptx((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const auto at = ptx.find("activemask.b32");
  REQUIRE(at != std::string::npos);
  const auto end = ptx.find(';', at);
  const auto reg = ptx.substr(ptx.find('%', at), end - ptx.find('%', at));
  ptx.replace(at, end - at, "mov.u32 " + reg + ", -1");
  const auto path = (std::filesystem::temp_directory_path() / "warpsim-warp-masked-full.ptx").string();
  std::ofstream(path) << ptx;
  try {
    // Without the .cu beside it, the parameters have PTX's positions for names.
    run_file(path, {1, 1, 1}, {32, 1, 1}, {{"param_3", "20"}},
             {"param_0=u32[64]:zeros", "param_1=u32[2]:zeros", "param_2=u32[1]:zeros"});
    FAIL("ran");
  } catch (const std::exception& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find("names lanes 0xfff00000, which have not exited but are not executing") != std::string::npos);
    CHECK(std::string(e.what()).find("warp_masked.cu") != std::string::npos);
  }
}
