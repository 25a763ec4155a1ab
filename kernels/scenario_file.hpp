// Scenarios written as data: a JSON file names kernel files, buffers with their initialisers,
// parameters, a sequence of launches and the expectations that check the outputs
// (docs/scenarios.md). `warpsim run FILE.json` runs one like a built-in scenario, and the built-in
// scenarios whose host reference needs no code are such files, compiled into the binary.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "kernels/scenario.hpp"

namespace warpsim::kernels {

// Reads a scenario file; its kernel and data files are found relative to its folder. Throws Error
// (exit 1) naming the file and what is wrong with it.
std::unique_ptr<Scenario> load_scenario_file(const std::string& path);
// A scenario file compiled into the binary ("strided_copy.json"); its kernels are the embedded ones.
std::unique_ptr<Scenario> load_embedded_scenario(std::string_view name);

}  // namespace warpsim::kernels
