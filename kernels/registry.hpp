// The one explicit list of built-in scenarios (no static-initialisation registration).
#pragma once
#include <memory>
#include <vector>

#include "kernels/scenario.hpp"

namespace warpsim::kernels {
void register_basic_scenarios(std::vector<std::unique_ptr<Scenario>>& out);
void register_reduction_scenarios(std::vector<std::unique_ptr<Scenario>>& out);
void register_timing_scenarios(std::vector<std::unique_ptr<Scenario>>& out);
void register_matmul_scenarios(std::vector<std::unique_ptr<Scenario>>& out);
void register_control_scenarios(std::vector<std::unique_ptr<Scenario>>& out);
}  // namespace warpsim::kernels
