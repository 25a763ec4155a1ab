// Built-in scenarios that exercise the timing model: the grid-wide spin barrier (TEXTBOOK.md
// section 6), strided (uncoalesced) global access, shared-memory bank conflicts, and a kernel
// whose shared memory limits how many blocks fit on an SM.
#include <fmt/format.h>

#include "kernels/registry.hpp"

namespace warpsim::kernels {

namespace {

void verdict(Outcome& out, bool passed, std::string what) {
  out.checked = true;
  out.passed = passed;
  out.check = std::move(what);
}

class GridBarrier final : public Scenario {
 public:
  std::string_view name() const override { return "grid-barrier"; }
  std::string_view description() const override {
    return "a grid-wide spin barrier from atomics: finishes only when every block is resident (CUDA Handbook 7.3)";
  }
  std::string_view kernel_file() const override { return "grid_barrier.kir"; }
  std::vector<ParamSpec> params() const override {
    return {{"blocks", 64, "blocks in the grid", 1, kMaxGrid}, {"block", 128, "threads per block", 1, kMaxBlockDim}};
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    const auto blocks = static_cast<std::uint32_t>(p.at("blocks"));
    const auto counter = s.zeros("counter", 4);
    const auto result = s.zeros("out", std::size_t{blocks} * 4);
    s.launch(s.kernel(kernel_file()), Dim3{blocks, 1, 1}, Dim3{static_cast<std::uint32_t>(p.at("block")), 1, 1},
             {counter, result});
    const auto seen = s.download<std::uint32_t>(result, blocks);
    for (std::uint32_t b = 0; b < blocks; ++b)
      if (seen[b] < blocks) {
        verdict(out, false, fmt::format("block {} left the barrier having seen {} of {} blocks", b, seen[b], blocks));
        return out;
      }
    verdict(out, true, fmt::format("every one of {} blocks left the barrier after all had arrived", blocks));
    return out;
  }
};

class StridedCopy final : public Scenario {
 public:
  std::string_view name() const override { return "strided-copy"; }
  std::string_view description() const override {
    return "out[i] = in[i * stride]: coalesced at stride 1, one sector per lane from stride 8";
  }
  std::string_view kernel_file() const override { return "strided_copy.kir"; }
  std::vector<ParamSpec> params() const override {
    return {{"n", 1u << 16, "elements copied", 1, 1u << 24},
            {"stride", 1, "elements between two threads' loads", 1, 64},
            {"block", 256, "threads per block", 1, kMaxBlockDim}};
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    const auto n = p.at("n"), stride = p.at("stride"), block = p.at("block");
    const auto input = random_floats(n * stride, options.seed);
    const auto in = s.upload("in", input);
    const auto result = s.zeros("out", n * 4);
    s.launch(s.kernel(kernel_file()), Dim3{ceil_div(n, block), 1, 1}, Dim3{static_cast<std::uint32_t>(block), 1, 1},
             {in, result, n, stride});
    const auto got = s.download<float>(result, n);
    for (std::uint64_t i = 0; i < n; ++i)
      if (got[i] != input[i * stride]) {
        verdict(out, false, fmt::format("out[{}] = {}, expected in[{}] = {}", i, got[i], i * stride, input[i * stride]));
        return out;
      }
    verdict(out, true, fmt::format("{} elements copied at stride {}", n, stride));
    return out;
  }
};

class BankConflicts final : public Scenario {
 public:
  std::string_view name() const override { return "bank-conflicts"; }
  std::string_view description() const override {
    return "shared-memory loads at tid * stride: 1, 2, 4, 32 passes at stride 1, 2, 4, 32";
  }
  std::string_view kernel_file() const override { return "bank_conflicts.kir"; }
  std::vector<ParamSpec> params() const override {
    return {{"stride", 1, "words between two lanes' addresses", 1, 32},
            {"rounds", 64, "shared loads per thread", 1, 1u << 20},
            {"blocks", 1, "blocks of 32 threads", 1, kMaxGrid}};
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    const auto blocks = static_cast<std::uint32_t>(p.at("blocks"));
    const auto result = s.zeros("out", std::size_t{32} * 4);
    s.launch(s.kernel(kernel_file()), Dim3{blocks, 1, 1}, Dim3{32, 1, 1}, {result, p.at("stride"), p.at("rounds")});
    const auto got = s.download<std::uint32_t>(result, 32);
    const auto stride = static_cast<std::uint32_t>(p.at("stride"));
    for (std::uint32_t t = 0; t < 32; ++t)
      if (got[t] != t * stride * 4) {
        verdict(out, false, fmt::format("thread {} ended its chain at {}, expected {}", t, got[t], t * stride * 4));
        return out;
      }
    verdict(out, true, "every thread's chain of shared loads stayed on its own word");
    return out;
  }
};

}  // namespace

void register_timing_scenarios(std::vector<std::unique_ptr<Scenario>>& out) {
  out.push_back(std::make_unique<GridBarrier>());
  out.push_back(std::make_unique<StridedCopy>());
  out.push_back(std::make_unique<BankConflicts>());
}

}  // namespace warpsim::kernels
