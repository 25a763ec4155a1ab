// The report for a person: summary, active-lanes histogram, per-branch and per-warp tables.
#include <algorithm>

#include <fmt/format.h>

#include "tools/report/report.hpp"

namespace warpsim::report {

namespace {

std::string idle_line(const IdleLanes& idle, std::uint64_t slots) {
  auto part = [&](std::uint64_t n) { return fmt::format("{} ({})", n, percent(slots ? double(n) / slots : 0)); };
  return fmt::format("padding {}, divergence {}, exited {}, predicated off {}", part(idle.padding),
                     part(idle.divergence), part(idle.exited), part(idle.predicated));
}

void histogram(std::string& out, const LaunchStats& s) {
  std::uint64_t peak = 0;
  for (auto n : s.active_lanes_histogram) peak = std::max(peak, n);
  if (peak == 0) return;
  out += "  active lanes per issued instruction (W0..W" + std::to_string(s.warp_size) + ", empty bins left out):\n";
  for (std::size_t lanes = 0; lanes < s.active_lanes_histogram.size(); ++lanes) {
    const auto n = s.active_lanes_histogram[lanes];
    if (n == 0) continue;
    const auto width = static_cast<std::size_t>((40.0 * double(n)) / double(peak) + 0.5);
    out += fmt::format("    W{:<3} {:>12}  {:>6}  {}\n", lanes, n, percent(double(n) / double(s.warp_instructions)),
                       std::string(std::max<std::size_t>(width, 1), '#'));
  }
}

void branches(std::string& out, const LaunchStats& s) {
  if (s.branches.empty()) return;
  out += "  branches (a divergent execution runs both paths, one pass each):\n";
  // An imported kernel's rows name the CUDA line (saxpy.cu:4) instead of the kernel text's.
  auto where = [](const BranchStats& b) { return b.source.empty() ? std::to_string(b.line) : b.source; };
  std::size_t width = 5;
  for (const auto& b : s.branches) width = std::max(width, where(b).size());
  out += fmt::format("    {:>{}} {:>5}  {:<12} {:<12} {:>11} {:>10} {:>10} {:>12} {:>12} {:>9}\n", "line", width, "pc",
                     "in block", "to", "executions", "divergent", "passes", "lanes taken", "not taken", "div.rounds");
  for (const auto& b : s.branches) {
    const auto rounds = divergent_rounds(b);
    out += fmt::format("    {:>{}} {:>5}  {:<12} {:<12} {:>11} {:>10} {:>10} {:>12} {:>12} {:>9}\n", where(b), width, b.pc,
                       b.label.empty() ? "-" : b.label, b.target, b.executions, b.divergent_executions, b.passes,
                       b.taken_lanes, b.not_taken_lanes, rounds);
  }
  // The per-round view the textbooks use: which executions split, round by round.
  for (const auto& b : s.branches) {
    if (b.divergent_executions == 0 || b.occurrences.size() < 2) continue;
    std::string rounds;
    for (std::size_t k = 0; k < b.occurrences.size(); ++k)
      rounds += fmt::format("{}{}:{}/{}", rounds.empty() ? "" : " ", k + 1, b.occurrences[k].divergent,
                            b.occurrences[k].executions);
    out += fmt::format("    line {} by round (divergent/warps): {}\n", where(b), rounds);
  }
}

std::string share(std::uint64_t n, std::uint64_t total) {
  return fmt::format("{} ({})", n, percent(total ? double(n) / double(total) : 0));
}

// The GPU's compile of the timed build (cuda backend): its registers set the occupancy measured.
void compiled(std::string& out, const LaunchStats& s) {
  if (s.backend != "cuda" || s.compiled_registers == 0) return;
  out += fmt::format("  compiled for the GPU{}: {} registers per thread, {} bytes of local memory per thread\n",
                     s.timed_build.empty() ? "" : fmt::format(" (the {} build, timed)", s.timed_build),
                     s.compiled_registers, s.compiled_local_bytes);
}

void timing(std::string& out, const LaunchStats& s) {
  if (!s.timed) return;
  const TimingStats& t = s.timing;
  const Occupancy& o = t.occupancy;
  out += fmt::format("  timing ({} preset, {} scheduler): {} cycles = {:.3f} us at {} MHz, IPC {:.2f} (whole GPU), "
                     "waves {}\n",
                     t.gpu, t.scheduler, t.cycles, t.microseconds(), t.clock_mhz, t.ipc(), t.waves);
  out += fmt::format("  occupancy: theoretical {} ({} blocks x {} warps per SM, limited by {}), achieved {}; "
                     "registers per thread {}, shared memory per block {} B; issue slots used {}\n",
                     percent(o.theoretical()), o.blocks_per_sm, o.warps_per_block, o.limiter,
                     percent(t.achieved_occupancy()), o.registers_per_thread, o.shared_bytes_per_block,
                     percent(t.issue_utilisation()));
  out += fmt::format("  block limits per SM: warps {}, registers {}, shared memory {}, blocks {}, barriers {}\n",
                     o.limit_warps, o.limit_registers, o.limit_shared, o.limit_blocks, o.limit_barriers);
  const StallBreakdown& st = t.stalls;
  const std::uint64_t all = st.total();
  out += fmt::format("  warp cycles {}: issued {}, dependency {}, memory {}, barrier {}, not selected {}, unit busy {}, "
                     "no instruction {}\n",
                     all, share(st.issued, all), share(st.dependency, all), share(st.memory, all),
                     share(st.barrier, all), share(st.not_selected, all), share(st.unit_busy, all),
                     share(st.no_instruction, all));
  const MemoryStats& m = t.memory;
  out += fmt::format("  global memory: {} requests (ld {}, st {}, atom {}), {} sectors, {:.2f} sectors/request, L1 hit "
                     "{}, L2 hit {}, DRAM {} B\n",
                     m.requests(), m.global_load_requests, m.global_store_requests, m.global_atomic_requests,
                     m.global_sectors, m.sectors_per_request(), percent(m.l1_hit_rate()), percent(m.l2_hit_rate()),
                     m.dram_bytes);
  if (m.shared_requests > 0)
    out += fmt::format("  shared memory: {} requests, {} bank passes, {} extra passes from bank conflicts\n",
                       m.shared_requests, m.shared_passes, m.bank_conflicts());
}

// Work per output over the whole run: the outputs are the elements (4-byte words) of the last buffer
// the host read back (docs/report.md), the work every launch's instruction mix.
void per_output(std::string& out, const RunReport& run) {
  const auto& outputs = run.outcome->outputs;
  if (outputs.empty() || run.outcome->launches.empty()) return;
  for (const auto& l : run.outcome->launches)
    if (!l.result.stats.traced) return;  // --gpu-trace off: no instruction counts to divide
  const auto& last = outputs.back();
  const std::uint64_t n = last.bytes.size() / 4;
  if (n == 0) return;
  std::uint64_t threads = 0, thread_instructions = 0, global_loads = 0, shared_loads = 0, barriers = 0;
  using isa::TimingClass;
  for (const auto& l : run.outcome->launches) {
    const auto& s = l.result.stats;
    threads += s.blocks * s.block.count();
    thread_instructions += s.thread_instructions;
    global_loads += s.mix.lanes_of(TimingClass::LoadGlobal);
    shared_loads += s.mix.lanes_of(TimingClass::LoadShared);
    barriers += s.mix.of(TimingClass::Barrier);
  }
  const double per = double(n);
  out += fmt::format("outputs: {} elements of '{}', {:.2f} per thread; per output: {:.2f} thread instructions, "
                     "{:.2f} global loads, {:.2f} shared loads (lanes), {:.3f} barriers (warp)\n",
                     n, last.label, threads ? per / double(threads) : 0.0, double(thread_instructions) / per,
                     double(global_loads) / per, double(shared_loads) / per, double(barriers) / per);
}

void warps(std::string& out, const LaunchStats& s) {
  if (s.warps.empty()) return;
  out += fmt::format("  warps ({} of {} shown; --warps all|divergent|B0-B1 chooses):\n", s.warps.size(), s.warps_launched);
  const bool timed = s.timed && !s.warps.empty() && s.warps.front().timed;
  out += fmt::format("    {:<12} {:>4} {:>11} {:>5} {:>9} {:>7} {:>6} {:>5} {:>7} {:>8} {:>9} {:>8} {:>8}", "block",
                     "warp", "threads", "lanes", "instr", "div.br", "passes", "stack", "eff", "idle:pad", "div",
                     "exited", "pred");
  out += timed ? fmt::format(" {:>6} {:>21} {:>8} {:>8} {:>8}\n", "SM.SP", "cycles", "dep", "memory", "barrier") : "\n";
  for (const auto& w : s.warps) {
    const auto block = fmt::format("({},{},{})", w.block_index.x, w.block_index.y, w.block_index.z);
    const auto threads = fmt::format("{}-{}", w.first_thread, w.first_thread + w.lanes - 1);
    out += fmt::format("    {:<12} {:>4} {:>11} {:>5} {:>9} {:>7} {:>6} {:>5} {:>7} {:>8} {:>9} {:>8} {:>8}\n", block,
                       w.warp_in_block, threads, w.lanes, w.warp_instructions, w.divergent_branches, w.passes,
                       // A hardware trace does not show the reconvergence stack.
                       s.backend == "cuda" ? std::string("-") : std::to_string(w.max_stack_depth),
                       percent(w.efficiency(s.warp_size)), w.idle.padding, w.idle.divergence,
                       w.idle.exited, w.idle.predicated);
    out.pop_back();
    out += timed ? fmt::format(" {:>6} {:>21} {:>8} {:>8} {:>8}\n", fmt::format("{}.{}", w.sm, w.sub_partition),
                               fmt::format("{}-{}", w.first_cycle, w.last_cycle), w.stalls.dependency, w.stalls.memory,
                               w.stalls.barrier)
                 : "\n";
  }
}

}  // namespace

std::string format_text(const RunReport& run, const TextOptions& options) {
  std::string out;
  std::string params;
  for (const auto& [k, v] : run.params) params += fmt::format("{}{}={}", params.empty() ? "" : ", ", k, v);
  out += fmt::format("== {}{} ==\n", run.title, params.empty() ? "" : " (" + params + ")");
  out += fmt::format("on {}\n", run.device);
  const auto& launches = run.outcome->launches;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const auto& s = launches[i].result.stats;
    out += fmt::format("launch {} of {}: kernel {} ({}), grid {}, block {}\n", i + 1, launches.size(), s.kernel,
                       launches[i].kernel_file, to_string(s.grid), to_string(s.block));
    out += fmt::format("  blocks {}, warps launched {} ({} per block), partial warps {}, padding lanes {}\n", s.blocks,
                       s.warps_launched, s.warps_per_block, s.partial_warps, s.padding_lanes);
    if (!s.traced) {
      out += "  not traced (--gpu-trace off): instructions, idle lanes and branches were not recorded\n";
      if (s.kernel_ms > 0) out += fmt::format("  kernel time {:.4f} ms (median, measured)\n", s.kernel_ms);
      compiled(out, s);
      continue;
    }
    out += fmt::format("  warp instructions {}, thread instructions {}, SIMT efficiency {}\n", s.warp_instructions,
                       s.thread_instructions, percent(s.simt_efficiency()));
    out += fmt::format("  idle lane slots {} of {}: {}\n", s.idle_lane_slots.total(), s.lane_slots(),
                       idle_line(s.idle_lane_slots, s.lane_slots()));
    out += fmt::format("  divergent warps {} of {}, rounds with divergence {}\n", s.divergent_warps, s.warps_launched,
                       divergent_rounds(s));
    if (s.kernel_ms > 0) out += fmt::format("  kernel time {:.4f} ms (median, measured)\n", s.kernel_ms);
    compiled(out, s);
    timing(out, s);
    if (options.show_histogram) histogram(out, s);
    branches(out, s);
    if (options.show_warps) warps(out, s);
  }
  per_output(out, run);
  if (run.outcome->fault) {
    // The launches before the fault are above; the faulting launch's own figures depend on how far
    // other blocks got, which depends on --threads, so they are not printed.
    out += report::fault_line(*run.outcome->fault) + "\n";
    out += "check: not run (a launch faulted)\n";
  } else if (run.outcome->checked)
    out += fmt::format("check: {}: {}\n", run.outcome->passed ? "passed" : "FAILED", run.outcome->check);
  else
    out += "check: none (a kernel file, or a scenario file without expectations)\n";
  return out;
}

}  // namespace warpsim::report
