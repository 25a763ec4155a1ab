#include "sim/gpu.hpp"

#include "sim/reconvergence.hpp"

#include <fmt/format.h>

#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "device/errors.hpp"
#include "sim/decode.hpp"
#include "sim/timing/timing_launch.hpp"
#include "sim/worker.hpp"

namespace warpsim::sim {

Gpu::Gpu(Config config) : config_(std::move(config)) {
  validate_config(config_);
  config_.limits.warp_size = config_.warp_size;
  if (config_.mode == Mode::Timing)
    l2_ = SectorCache(std::uint64_t{config_.gpu.l2_kib} * 1024, config_.gpu.line_bytes, config_.gpu.l2_associativity);
}

std::string Gpu::name() const {
  if (config_.mode == Mode::Functional)
    return fmt::format("warpsim simulator (functional, warp size {}, {} reconvergence)", config_.warp_size,
                       reconvergence_name(config_.reconvergence));
  return fmt::format("warpsim simulator (timing, {} preset: {} SMs at {} MHz, {} scheduler, warp size {}, {} reconvergence)",
                     config_.gpu.name, config_.gpu.sms, config_.gpu.clock_mhz, policy_name(config_.gpu.scheduler),
                     config_.warp_size, reconvergence_name(config_.reconvergence));
}

std::uint64_t Gpu::allocate(std::size_t bytes, const std::string& label) { return memory_.allocate(bytes, label); }
void Gpu::write(std::uint64_t address, std::span<const std::byte> data) { memory_.write(address, data); }
void Gpu::read(std::uint64_t address, std::span<std::byte> out) { memory_.read(address, out); }

LaunchResult Gpu::launch(const LaunchSpec& spec) {
  validate_launch(spec, config_.limits);
  if (spec.analysis == nullptr) throw Error(fmt::format("launch of '{}': no kernel analysis given", spec.kernel->name));
  const std::uint32_t ws = config_.warp_size;
  const Program program = decode(*spec.kernel, *spec.analysis, spec.args, ws, spec.grid, spec.block);

  const std::uint64_t blocks = spec.grid.count();
  const std::uint64_t warps_per_block = (spec.block.count() + ws - 1) / ws;
  // Every warp issues at least one instruction: say so now rather than after minutes of running.
  const std::uint64_t warps = blocks * warps_per_block;
  if (warps > config_.max_instructions)
    throw Error(fmt::format("launch of '{}': {} warps would issue at least {} warp instructions, more than the limit of "
                            "{} (--max-instructions)",
                            spec.kernel->name, warps, warps, config_.max_instructions));
  if (config_.mode == Mode::Timing) {
    if (config_.l2_start == L2Start::Restored) restore_l2();
    return run_timing(spec, program, config_, memory_, l2_);
  }
  return launch_functional(spec, program);
}

void Gpu::restore_l2() {
  // The snapshots are other buffers on the GPU: their lines are put far above every allocation.
  constexpr std::uint64_t kSnapshotOffset = std::uint64_t{1} << 40;
  const std::uint64_t line_bytes = config_.gpu.line_bytes;
  const std::uint32_t all_sectors = (1u << (line_bytes / config_.gpu.sector_bytes)) - 1;
  for (std::size_t i = 0; i < memory_.count(); ++i) {
    const Allocation& a = memory_.at(static_cast<int>(i));
    const std::uint64_t first = a.base / line_bytes, last = (a.end() + line_bytes - 1) / line_bytes;
    for (std::uint64_t line = first; line < last; ++line)
      l2_.fill_between_launches(line + kSnapshotOffset / line_bytes, all_sectors);
    for (std::uint64_t line = first; line < last; ++line) l2_.fill_between_launches(line, all_sectors);
  }
}

LaunchResult Gpu::launch_functional(const LaunchSpec& spec, const Program& program) {
  const std::uint32_t ws = config_.warp_size;
  LaunchState state{spec, program, config_, memory_};
  state.blocks = spec.grid.count();
  state.warps_per_block = (spec.block.count() + ws - 1) / ws;
  state.budget = config_.max_instructions;
  const auto worker_count = static_cast<unsigned>(std::min<std::uint64_t>(config_.threads, state.blocks));
  std::vector<std::unique_ptr<Worker>> workers;
  for (unsigned i = 0; i < worker_count; ++i) workers.push_back(std::make_unique<Worker>(state));

  if (worker_count == 1) {
    workers[0]->run();
  } else {
    std::vector<std::exception_ptr> errors(worker_count);
    std::vector<std::thread> threads;
    for (unsigned i = 1; i < worker_count; ++i)
      threads.emplace_back([&, i] {
        try {
          workers[i]->run();
        } catch (...) {
          errors[i] = std::current_exception();
          state.stop = true;
        }
      });
    try {
      workers[0]->run();
    } catch (...) {
      errors[0] = std::current_exception();
      state.stop = true;
    }
    for (auto& t : threads) t.join();
    // Of several faults, report the one in the lowest block.
    int first = -1;
    for (unsigned i = 0; i < worker_count; ++i)
      if (errors[i] && (first < 0 || workers[i]->current_block() < workers[static_cast<unsigned>(first)]->current_block()))
        first = static_cast<int>(i);
    if (first >= 0) std::rethrow_exception(errors[static_cast<unsigned>(first)]);
  }

  for (unsigned i = 1; i < worker_count; ++i) workers[0]->stats().merge(std::move(workers[i]->stats()));
  LaunchResult result;
  std::move(workers[0]->stats()).finish(result.stats, result.trace);
  return result;
}

}  // namespace warpsim::sim
