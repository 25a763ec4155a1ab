// Built-in scenarios that exercise the timing model: the grid-wide spin barrier (TEXTBOOK.md
// section 6), strided (uncoalesced) global access, shared-memory bank conflicts, and a kernel
// whose shared memory limits how many blocks fit on an SM.
#include <fmt/format.h>

#include "kernels/registry.hpp"
#include "kernels/scenario_file.hpp"

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

}  // namespace

void register_timing_scenarios(std::vector<std::unique_ptr<Scenario>>& out) {
  out.push_back(std::make_unique<GridBarrier>());
  // Their host references need no code: they are scenario files (kernels/*.json).
  out.push_back(load_embedded_scenario("strided_copy.json"));
  out.push_back(load_embedded_scenario("bank_conflicts.json"));
}

}  // namespace warpsim::kernels
