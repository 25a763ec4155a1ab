#include "sim/gpu.hpp"

#include "sim/reconvergence.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "device/errors.hpp"
#include "sim/decode.hpp"
#include "sim/timing/memory_path.hpp"
#include "sim/timing/timing_launch.hpp"
#include "sim/worker.hpp"

namespace warpsim::sim {

namespace {
// The fewest warp instructions any warp can issue: the shortest path from pc 0 to an exit, each
// instruction counted once (a breadth-first search over the decoded code). A guarded branch or exit
// may go either way. 0 when no exit is reachable (the warp would fault or spin).
std::uint64_t shortest_run(const Program& program) {
  const auto size = static_cast<std::uint32_t>(program.code.size());
  std::vector<std::uint32_t> distance(size, 0);  // 0: not reached; else instructions issued up to and with it
  std::vector<std::uint32_t> queue{0};
  if (size == 0) return 0;
  distance[0] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::uint32_t pc = queue[head];
    const Inst& in = program.code[pc];
    auto reach = [&](std::uint32_t next) {
      if (next < size && distance[next] == 0) {
        distance[next] = distance[pc] + 1;
        queue.push_back(next);
      }
    };
    switch (in.flow) {
      case Flow::Exit:
        if (!in.guarded) return distance[pc];  // breadth first: the first exit found is the nearest
        reach(pc + 1);
        break;
      case Flow::Branch:
        reach(in.target);
        if (in.guarded) reach(pc + 1);
        break;
      case Flow::Normal:
      case Flow::Barrier: reach(pc + 1); break;
      case Flow::OffEnd: break;
    }
  }
  // Only guarded exits (or none): the nearest guarded exit bounds it from below.
  std::uint64_t best = 0;
  for (std::uint32_t pc = 0; pc < size; ++pc)
    if (program.code[pc].flow == Flow::Exit && distance[pc] != 0 && (best == 0 || distance[pc] < best)) best = distance[pc];
  return best;
}
}  // namespace

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
  // Every warp issues at least the instructions of the shortest path to an exit: a launch that
  // must exceed the limit is refused now rather than after minutes of running.
  const std::uint64_t warps = blocks * warps_per_block;
  const std::uint64_t per_warp = std::max<std::uint64_t>(shortest_run(program), 1);
  const bool over = warps > config_.max_instructions / per_warp;
  if (over)
    throw Error(fmt::format("launch of '{}': {} warps would issue at least {} warp instructions each ({} in all), more "
                            "than the limit of {} per launch (--max-instructions raises it)",
                            spec.kernel->name, warps, per_warp,
                            warps > ~std::uint64_t{0} / per_warp ? std::string("over 2^64")
                                                                   : std::to_string(warps * per_warp),
                            config_.max_instructions));
  if (config_.mode == Mode::Timing) {
    if (config_.l2_start == L2Start::Restored) restore_l2();
    if (config_.l2_start == L2Start::Flushed) l2_.clear();
    l2_.settle();  // every line's data has arrived before the next launch starts at cycle 0
    return run_timing(spec, program, config_, memory_, l2_);
  }
  return launch_functional(spec, program);
}

void Gpu::restore_l2() {
  // The snapshots are other buffers on the GPU: their lines are put far above every allocation.
  constexpr std::uint64_t kSnapshotOffset = std::uint64_t{1} << 40;
  const std::uint64_t line_bytes = config_.gpu.line_bytes;
  const std::uint32_t all_sectors = (1u << (line_bytes / config_.gpu.sector_bytes)) - 1;
  // memory.l2_side_copies: the copies write the lines' home copies (MemoryPath::to_l2).
  const auto fill = [&](std::uint64_t line) {
    if (config_.gpu.l2_side_copies == 0)
      l2_.fill_between_launches(line, all_sectors);
    else
      l2_.fill_between_launches(line, all_sectors,
                                l2_copy_tag(line, l2_home_side(line, config_.gpu.l2_slice_line_shift)));
  };
  for (std::size_t i = 0; i < memory_.count(); ++i) {
    const Allocation& a = memory_.at(static_cast<int>(i));
    const std::uint64_t first = a.base / line_bytes, last = (a.end() + line_bytes - 1) / line_bytes;
    for (std::uint64_t line = first; line < last; ++line) fill(line + kSnapshotOffset / line_bytes);
    for (std::uint64_t line = first; line < last; ++line) fill(line);
  }
}

LaunchResult Gpu::launch_functional(const LaunchSpec& spec, const Program& program) {
  const std::uint32_t ws = config_.warp_size;
  LaunchState state{spec, program, config_, memory_};
  state.blocks = spec.grid.count();
  state.warps_per_block = (spec.block.count() + ws - 1) / ws;
  state.budget = config_.max_instructions;
  // Blocks that can talk to each other (global atomics, membar.gl) run one after another in block
  // order, as in the timing model: a block that waits for another then stops (or finishes) at the
  // same point for any --threads.
  const unsigned threads = program.global_atomics ? 1u : config_.threads;
  const auto worker_count = static_cast<unsigned>(std::min<std::uint64_t>(threads, state.blocks));
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
