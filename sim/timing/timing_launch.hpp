// The timing mode's top level: the GPU. It computes occupancy, hands blocks to SMs as slots free
// up (the block scheduler), steps every SM through epochs of `sim.epoch_cycles` cycles (in
// parallel on host threads when blocks cannot talk to each other), merges the L2 at each epoch's
// end in SM order, and watches for a launch that stops making progress (a deadlock).
#pragma once
#include "device/device.hpp"
#include "device/launch.hpp"
#include "sim/config.hpp"
#include "sim/decode.hpp"
#include "sim/global_memory.hpp"
#include "sim/timing/sector_cache.hpp"

namespace warpsim::sim {

// Runs a decoded launch through the timing model; throws KernelFault or Error.
LaunchResult run_timing(const LaunchSpec& spec, const Program& program, const Config& config, GlobalMemory& memory,
                        SectorCache& l2);

}  // namespace warpsim::sim
