#include "kernels/registry.hpp"

namespace warpsim::kernels {

std::span<const std::unique_ptr<Scenario>> all_scenarios() {
  static const std::vector<std::unique_ptr<Scenario>> list = [] {
    std::vector<std::unique_ptr<Scenario>> out;
    register_basic_scenarios(out);
    register_reduction_scenarios(out);
    register_timing_scenarios(out);
    register_matmul_scenarios(out);
    register_control_scenarios(out);
    return out;
  }();
  return list;
}

const Scenario* find_scenario(std::string_view name) {
  for (const auto& s : all_scenarios())
    if (s->name() == name) return s.get();
  return nullptr;
}

}  // namespace warpsim::kernels
