// Dynamic instruction counts of a launch, derived from its trace (every basic block a warp
// entered, with its active mask) and the kernel's instructions. LaunchStats has no instruction
// mix yet; until it does, the coarsening tests count global loads and barriers this way.
#pragma once
#include <bit>
#include <stdexcept>

#include "kernels/scenario.hpp"
#include "sim/gpu.hpp"

namespace warpsim::test {

// Runs a built-in scenario on the simulator with traces recorded.
inline kernels::Outcome run_traced(const std::string& name, const kernels::Params& params = {}) {
  sim::Gpu gpu{sim::Config{}};
  const auto* scenario = kernels::find_scenario(name);
  if (scenario == nullptr) throw std::runtime_error("no scenario " + name);
  kernels::RunOptions options;
  options.record_trace = true;
  return scenario->run(gpu, kernels::resolve_params(*scenario, params), options);
}

struct InstructionMix {
  std::uint64_t global_loads = 0;   // thread instructions
  std::uint64_t m_loads = 0;        // of those, by the kernel's first ld.global (M in the matmul kernels)
  std::uint64_t global_stores = 0;  // thread instructions
  std::uint64_t barriers = 0;       // warp instructions (bar.sync issued by a warp)
  std::uint64_t thread_instructions = 0;
};

inline InstructionMix instruction_mix(const kernels::LaunchRecord& launch) {
  if (!launch.result.trace) throw std::runtime_error("the launch has no trace (run it with run_traced)");
  const auto& kernel = *launch.kernel->kernel;
  const auto& cfg = launch.kernel->analysis.cfg;
  std::uint32_t first_load = 0xffffffffu;
  for (std::uint32_t pc = 0; pc < kernel.code.size() && first_load == 0xffffffffu; ++pc)
    if (kernel.code[pc].op == isa::Opcode::Ld && kernel.code[pc].space == isa::Space::Global) first_load = pc;
  InstructionMix mix;
  for (const auto& warp : launch.result.trace->warps)
    for (const auto& event : warp.events) {
      if (event.basic_block == kTraceExit) continue;
      const std::uint64_t lanes = std::popcount(event.active_mask);
      const auto& block = cfg.blocks[event.basic_block];
      for (std::uint32_t pc = block.begin; pc < block.end; ++pc) {
        const auto& in = kernel.code[pc];
        // A guarded instruction other than a branch may run on fewer lanes than entered the block.
        if (in.guarded && in.op != isa::Opcode::Bra) throw std::runtime_error("guarded instruction: count unknown");
        mix.thread_instructions += lanes;
        if (in.op == isa::Opcode::Ld && in.space == isa::Space::Global) mix.global_loads += lanes;
        if (pc == first_load) mix.m_loads += lanes;
        if (in.op == isa::Opcode::St && in.space == isa::Space::Global) mix.global_stores += lanes;
        if (in.op == isa::Opcode::BarSync) ++mix.barriers;
      }
    }
  return mix;
}

}  // namespace warpsim::test
