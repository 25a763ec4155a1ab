// LaunchStats derived from a hardware Trace (block entries with active masks), so the CUDA
// backend reports the same figures as the simulator where the trace determines them. What a
// trace cannot determine is listed in docs/cuda.md ("What the hardware trace gives").
#pragma once
#include "device/launch.hpp"
#include "device/stats.hpp"
#include "device/trace.hpp"
#include "isa/analysis.hpp"
#include "isa/module.hpp"

namespace warpsim::cuda {

// Geometry figures only (blocks, warps, partial warps, padding lanes): what a launch without a
// trace still knows.
LaunchStats geometry_stats(const isa::Kernel& kernel, const Dim3& grid, const Dim3& block, std::uint32_t warp_size = 32);

// Every figure the trace determines. Each block entry with mask m counts the block's
// instructions as warp instructions issued with popcount(m) lanes active (guard predicates are
// not observed: predicated-off lanes count as active). Conditional branches are matched to the
// next event of each lane of the branching block's mask.
LaunchStats stats_from_trace(const Trace& trace, const isa::Kernel& kernel, const isa::KernelAnalysis& analysis,
                             const WarpSelection& selection = {});

}  // namespace warpsim::cuda
