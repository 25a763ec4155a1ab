// Spin loops: loops whose exit depends on what an atomic in the loop returned, the wait-for-another-
// thread pattern (a flag polled with an atomic, a lock taken with atom.cas). The CUDA compiler puts a
// YIELD at the head of such a loop (docs/validation/h100/reconvergence/followup/sass/spin_wait.sass,
// the one corpus kernel with a YIELD), which lets the convergence barriers the spinning lanes belong
// to clear without them (docs/design.md "How the H100 reconverges"). Which loops ptxas gives a YIELD
// is not documented; this is the narrowest reading of that one kernel (a loop polling a plain load
// is left out until docs/validation/h100/reconvergence/yield_probe.sh shows what ptxas does).
#pragma once
#include <cstdint>
#include <vector>

#include "isa/analysis.hpp"

namespace warpsim::sim {

// Per pc: true at the first instruction of a spin loop's header.
std::vector<bool> find_spin_loop_heads(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis);

}  // namespace warpsim::sim
