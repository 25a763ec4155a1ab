// `warpsim compare`: one column per run, one row per figure.
#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "tools/report/report.hpp"

namespace warpsim::report {

namespace {

struct Totals {
  std::uint64_t launches = 0, blocks = 0, warps = 0, divergent_warps = 0, rounds = 0, divergent_branches = 0,
                passes = 0, warp_instructions = 0, thread_instructions = 0, slots = 0;
  IdleLanes idle;
  bool timed = false;
  bool untraced = false;  // a hardware launch ran with --gpu-trace off: the trace's figures are unknown
  std::uint64_t cycles = 0;
  double microseconds = 0;
  StallBreakdown stalls;
  MemoryStats memory;
  std::string occupancy;
};

Totals totals(const RunReport& r) {
  Totals t;
  for (const auto& l : r.outcome->launches) {
    const auto& s = l.result.stats;
    ++t.launches;
    t.untraced |= !s.traced;
    t.blocks += s.blocks;
    t.warps += s.warps_launched;
    t.divergent_warps += s.divergent_warps;
    t.rounds = std::max(t.rounds, divergent_rounds(s));
    for (const auto& b : s.branches) t.divergent_branches += b.divergent_executions;
    t.passes += total_passes(s);
    t.warp_instructions += s.warp_instructions;
    t.thread_instructions += s.thread_instructions;
    t.slots += s.lane_slots();
    t.idle += s.idle_lane_slots;
    if (s.timed) {
      t.timed = true;
      t.cycles += s.timing.cycles;
      t.microseconds += s.timing.microseconds();
      t.stalls += s.timing.stalls;
      t.memory += s.timing.memory;
      if (t.occupancy.empty())
        t.occupancy = fmt::format("{} {}", percent(s.timing.occupancy.theoretical()), s.timing.occupancy.limiter);
    }
  }
  return t;
}

}  // namespace

std::string format_comparison(const std::vector<const RunReport*>& runs) {
  std::vector<Totals> t;
  std::size_t width = 14;
  for (const auto* r : runs) {
    t.push_back(totals(*r));
    width = std::max(width, r->title.size() + 2);
  }
  std::string out = fmt::format("{:<34}", "");
  for (const auto* r : runs) out += fmt::format("{:>{}}", r->title, width);
  out += "\n";
  auto row = [&](const char* name, const std::function<std::string(std::size_t)>& cell) {
    out += fmt::format("{:<34}", name);
    for (std::size_t i = 0; i < runs.size(); ++i) out += fmt::format("{:>{}}", cell(i), width);
    out += "\n";
  };
  auto num = [&](auto field) { return [&t, field](std::size_t i) { return fmt::format("{}", t[i].*field); }; };
  // Figures a hardware run's trace gives: "-" for a run without it (--gpu-trace off).
  auto traced = [&](const std::function<std::string(std::size_t)>& cell) {
    return [&t, cell](std::size_t i) { return t[i].untraced ? std::string("-") : cell(i); };
  };
  auto share = [&](std::uint64_t IdleLanes::*field) {
    return traced([&t, field](std::size_t i) {
      return fmt::format("{} {}", t[i].idle.*field, percent(t[i].slots ? double(t[i].idle.*field) / t[i].slots : 0));
    });
  };
  row("launches", num(&Totals::launches));
  row("blocks", num(&Totals::blocks));
  row("warps launched", num(&Totals::warps));
  row("divergent warps", traced(num(&Totals::divergent_warps)));
  row("rounds with divergence", traced(num(&Totals::rounds)));
  row("divergent branch executions", traced(num(&Totals::divergent_branches)));
  row("branch passes", traced(num(&Totals::passes)));
  row("warp instructions", traced(num(&Totals::warp_instructions)));
  row("thread instructions", traced(num(&Totals::thread_instructions)));
  row("SIMT efficiency", traced([&](std::size_t i) {
    return percent(t[i].slots ? double(t[i].thread_instructions) / double(t[i].slots) : 0);
  }));
  row("idle lanes: divergence", share(&IdleLanes::divergence));
  row("idle lanes: predicated off", share(&IdleLanes::predicated));
  row("idle lanes: exited", share(&IdleLanes::exited));
  row("idle lanes: padding", share(&IdleLanes::padding));
  if (std::any_of(t.begin(), t.end(), [](const Totals& x) { return x.timed; })) {
    auto timed = [&](const std::function<std::string(const Totals&)>& f) {
      return [&t, f](std::size_t i) { return t[i].timed ? f(t[i]) : std::string("-"); };
    };
    auto stall = [&](std::uint64_t StallBreakdown::*field) {
      return timed([field](const Totals& x) {
        return percent(x.stalls.total() ? double(x.stalls.*field) / double(x.stalls.total()) : 0);
      });
    };
    row("cycles (timing model)", timed([](const Totals& x) { return fmt::format("{}", x.cycles); }));
    row("time (us)", timed([](const Totals& x) { return fmt::format("{:.3f}", x.microseconds); }));
    row("occupancy (first launch)", timed([](const Totals& x) { return x.occupancy; }));
    row("warp cycles: issued", stall(&StallBreakdown::issued));
    row("warp cycles: dependency", stall(&StallBreakdown::dependency));
    row("warp cycles: memory", stall(&StallBreakdown::memory));
    row("warp cycles: barrier", stall(&StallBreakdown::barrier));
    row("warp cycles: not selected", stall(&StallBreakdown::not_selected));
    row("warp cycles: unit busy", stall(&StallBreakdown::unit_busy));
    row("warp cycles: no instruction", stall(&StallBreakdown::no_instruction));
    row("global sectors per request",
        timed([](const Totals& x) { return fmt::format("{:.2f}", x.memory.sectors_per_request()); }));
    row("shared bank conflicts", timed([](const Totals& x) { return fmt::format("{}", x.memory.bank_conflicts()); }));
  }
  row("check", [&](std::size_t i) {
    const auto* o = runs[i]->outcome;
    return std::string(o->fault ? "not run" : !o->checked ? "none" : o->passed ? "passed" : "FAILED");
  });
  // A run that faulted counts its launches up to the fault; the FAULT line says where.
  for (const auto* r : runs)
    if (r->outcome->fault) out += fmt::format("{}: {}\n", r->title, fault_line(*r->outcome->fault));
  return out;
}

}  // namespace warpsim::report
