// Hardware counters from Nsight Compute (ncu), collected by running warpsim itself under ncu.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/scenario.hpp"

namespace warpsim::cli {

// The counters validate shows beside the simulator's figures.
extern const char* const kNcuMetrics[4];

// Runs `ncu --csv --metrics ... <this program> run TARGET --backend cuda ...` (the validate
// arguments minus its own options) and returns {"metrics": {name: value}, "simulator": {name:
// the simulator's counterpart}, "command": ...}, or {"error": why} when ncu is missing or fails.
nlohmann::json collect_ncu(const std::string& target, const std::vector<std::string>& validate_args,
                           const kernels::Outcome& predicted);

// Parses ncu's --csv output into {metric name: value} for the first profiled kernel.
nlohmann::json parse_ncu_csv(const std::string& text);

}  // namespace warpsim::cli
