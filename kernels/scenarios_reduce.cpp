// Built-in reduction scenarios (TEXTBOOK.md section 4): Fig 5.13, Fig 5.15, the two ECE408
// kernels, the coarsened kernel, and whole-array sums by repeated launches or by the last block.
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "kernels/registry.hpp"

namespace warpsim::kernels {

namespace {

// Float sums differ from the double-precision reference by rounding only: allow n ulps of the
// magnitude summed (each input is in [0, 1)).
bool close_enough(double got, double want, std::uint64_t terms) {
  return std::fabs(got - want) <= 1e-6 * std::max(1.0, std::fabs(want)) * std::max<double>(1.0, std::log2(double(terms) + 1));
}

// n and block, the parameters every reduction takes.
std::vector<ParamSpec> reduction_params(std::uint64_t n, std::uint64_t block) {
  return {{"n", n, "elements to sum", 1, kMaxElements},
          {"block", block, "threads per block (power of two)", 1, kMaxBlockDim}};
}

void check_block(std::uint32_t block, std::uint32_t max_block) {
  if (block < 1 || block > max_block || !std::has_single_bit(block))
    throw Error(fmt::format("block = {}: the tree reductions need a power of two from 1 to {}", block, max_block));
}

// One launch; each block sums elements_per_block consecutive inputs into out[blockIdx.x].
class BlockReduction final : public Scenario {
 public:
  BlockReduction(std::string name, std::string description, std::string file, std::uint32_t per_thread,
                 std::uint64_t n, std::uint64_t block, bool coarse)
      : name_(std::move(name)), description_(std::move(description)), file_(std::move(file)),
        per_thread_(per_thread), n_(n), block_(block), coarse_(coarse) {}
  std::string_view name() const override { return name_; }
  std::string_view description() const override { return description_; }
  std::string_view kernel_file() const override { return file_; }
  std::vector<ParamSpec> params() const override {
    auto p = reduction_params(n_, block_);
    if (coarse_) p.push_back({"coarse", 4, "each thread first adds 2*coarse elements", 1, 1024});
    return p;
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    const auto n = p.at("n");
    const auto block = static_cast<std::uint32_t>(p.at("block"));
    const std::uint64_t coarse = coarse_ ? p.at("coarse") : 1;
    check_block(block, 1024);
    const std::uint64_t per_block = std::uint64_t{block} * per_thread_ * (coarse_ ? 2 * coarse : 1);
    const auto grid = ceil_div(n, per_block);
    const auto input = random_floats(n, options.seed);
    const auto din = s.upload("input", input), dout = s.zeros("out", std::uint64_t{grid} * 4);
    std::vector<std::uint64_t> args{din, dout, n};
    if (coarse_) args.push_back(coarse);
    s.launch(s.kernel(file_), Dim3{grid, 1, 1}, Dim3{block, 1, 1}, std::move(args));
    const auto got = s.download<float>(dout, grid);
    double total = 0;
    for (std::uint32_t b = 0; b < grid; ++b) {
      double want = 0;
      for (std::uint64_t i = b * per_block; i < std::min(n, (b + 1) * per_block); ++i) want += input[i];
      total += want;
      if (!close_enough(got[b], want, per_block)) {
        out.checked = true;
        out.check = fmt::format("block {} sum = {:.9g}, double-precision reference {:.9g}", b, got[b], want);
        return out;
      }
    }
    out.checked = out.passed = true;
    out.check = fmt::format("{} block sums match the double-precision reference (total {:.6f})", grid, total);
    return out;
  }

 private:
  std::string name_, description_, file_;
  std::uint32_t per_thread_;
  std::uint64_t n_, block_;
  bool coarse_;
};

// A whole-array sum against the double-precision sum of the input; `extra` is one more condition
// with its own words (empty when there is none).
void check_total(Outcome& out, float got, const std::vector<float>& input, const std::string& how, bool extra_ok = true,
                 const std::string& extra = {}) {
  double want = 0;
  for (float x : input) want += x;
  out.checked = true;
  out.passed = close_enough(got, want, input.size()) && extra_ok;
  out.check = fmt::format("sum of {} elements{} = {:.9g}, double-precision reference {:.9g}{}", input.size(), how, got,
                          want, extra);
}

// Whole-array sum by repeated launches of the Fig 5.15 kernel until one block remains.
class FullReduction final : public Scenario {
 public:
  std::string_view name() const override { return "reduce-full"; }
  std::string_view description() const override {
    return "whole-array sum: Fig 5.15 launched again on the block sums until one value is left";
  }
  std::string_view kernel_file() const override { return "reduce_fig5_15.kir"; }
  std::vector<ParamSpec> params() const override {
    return reduction_params(1 << 20, 512);
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    const auto n = p.at("n");
    const auto block = static_cast<std::uint32_t>(p.at("block"));
    check_block(block, 1024);
    const auto input = random_floats(n, options.seed);
    std::uint64_t in = s.upload("input", input), count = n;
    const auto& kernel = s.kernel(kernel_file());
    for (int round = 1;; ++round) {
      const auto grid = ceil_div(count, block);
      const auto partial = s.zeros(fmt::format("sums{}", round), std::uint64_t{grid} * 4);
      s.launch(kernel, Dim3{grid, 1, 1}, Dim3{block, 1, 1}, {in, partial, count});
      in = partial;
      count = grid;
      if (grid == 1) break;
    }
    const float got = s.download<float>(in, 1)[0];
    check_total(out, got, input, fmt::format(" in {} launch(es)", out.launches.size()));
    return out;
  }
};

// Whole-array sum in one launch: the last block to finish adds the block sums (threadFenceReduction).
class LastBlockReduction final : public Scenario {
 public:
  std::string_view name() const override { return "reduce-last-block"; }
  std::string_view description() const override {
    return "whole-array sum in one launch: the last block, found by an atomic ticket, adds the block sums";
  }
  std::string_view kernel_file() const override { return "reduce_last_block.kir"; }
  std::vector<ParamSpec> params() const override {
    return reduction_params(1 << 16, 256);
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    const auto n = p.at("n");
    const auto block = static_cast<std::uint32_t>(p.at("block"));
    check_block(block, 1024);
    const auto grid = ceil_div(n, block);
    const auto input = random_floats(n, options.seed);
    const auto din = s.upload("input", input), partial = s.zeros("partial", std::uint64_t{grid} * 4),
               result = s.zeros("out", 4), counter = s.zeros("counter", 4);
    s.launch(s.kernel(kernel_file()), Dim3{grid, 1, 1}, Dim3{block, 1, 1}, {din, partial, result, counter, n});
    const float got = s.download<float>(result, 1)[0];
    const auto left = s.download<std::uint32_t>(counter, 1)[0];
    check_total(out, got, input, "", left == 0, fmt::format("; counter reset to {}", left));
    return out;
  }
};

}  // namespace

void register_reduction_scenarios(std::vector<std::unique_ptr<Scenario>>& out) {
  out.push_back(std::make_unique<BlockReduction>(
      "reduce-fig5-13", "naive in-place sum, stride doubling, t % (2*stride) == 0 (PMPP Fig 5.13)",
      "reduce_fig5_13.kir", 1, 512, 512, false));
  out.push_back(std::make_unique<BlockReduction>(
      "reduce-fig5-15", "improved in-place sum, stride halving, t < stride (PMPP Fig 5.15)", "reduce_fig5_15.kir", 1,
      512, 512, false));
  out.push_back(std::make_unique<BlockReduction>(
      "reduce-ece408-naive", "naive sum, 2 elements per thread, t % stride == 0 (ECE408 lecture 15)",
      "reduce_ece408_naive.kir", 2, 2048, 1024, false));
  out.push_back(std::make_unique<BlockReduction>(
      "reduce-ece408-improved", "improved sum, 2 elements per thread, t < stride (ECE408 lecture 15)",
      "reduce_ece408_improved.kir", 2, 2048, 1024, false));
  out.push_back(std::make_unique<BlockReduction>(
      "reduce-coarsened", "thread coarsening: 2*coarse serial adds per thread, then the Fig 5.15 tree",
      "reduce_coarsened.kir", 1, 65536, 256, true));
  out.push_back(std::make_unique<FullReduction>());
  out.push_back(std::make_unique<LastBlockReduction>());
}

}  // namespace warpsim::kernels
