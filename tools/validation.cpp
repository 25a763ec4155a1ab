#include "tools/validation.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "cuda/trace_stats.hpp"
#include "device/errors.hpp"
#include "tools/report/report.hpp"

namespace warpsim::validation {

namespace {

OutputComparison compare_output(const kernels::OutputBuffer& p, const kernels::OutputBuffer& m) {
  OutputComparison c;
  c.label = p.label;
  c.is_float = p.is_float;
  c.compared = !p.device_specific;
  const std::size_t width = 4;
  c.elements = p.bytes.size() / width;
  if (!c.compared) return c;
  if (p.bytes.size() != m.bytes.size()) {
    c.different = c.elements;
    return c;
  }
  for (std::uint64_t i = 0; i < c.elements; ++i) {
    std::uint32_t a = 0, b = 0;
    std::memcpy(&a, p.bytes.data() + i * width, width);
    std::memcpy(&b, m.bytes.data() + i * width, width);
    bool same = a == b;
    if (!same && p.is_float) {
      const double x = std::bit_cast<float>(a), y = std::bit_cast<float>(b);
      const double rel = std::fabs(x - y) / std::max({std::fabs(x), std::fabs(y), 1e-30});
      if (std::isnan(x) && std::isnan(y)) same = true;
      else {
        c.max_relative = std::max(c.max_relative, rel);
        same = rel <= kFloatTolerance;
      }
    }
    if (!same && c.different++ == 0) c.first_different = i;
  }
  return c;
}

std::string mask_text(const std::optional<std::uint64_t>& m) {
  return m ? fmt::format("0x{:08x}", *m) : std::string("(not entered)");
}

std::string block_text(const LaunchValidation& l, std::uint32_t b) {
  if (b == kTraceExit) return "exit";
  const auto& block = l.analysis->cfg.blocks[b];
  const auto line = block.begin < l.ir->code.size() ? l.ir->code[block.begin].loc.line : 0;
  return block.label >= 0 ? fmt::format("B{} {} (pc {}, line {})", b, l.ir->labels[static_cast<std::size_t>(block.label)].name, block.begin, line)
                          : fmt::format("B{} (pc {}, line {})", b, block.begin, line);
}

}  // namespace

bool Validation::outputs_equal() const {
  for (const auto& o : outputs)
    if (o.compared && o.different > 0) return false;
  return true;
}

bool Validation::matches() const {
  if (faulted() || !problems.empty() || !outputs_equal()) return false;
  for (const auto& l : launches)
    if (!l.masks.identical() || l.predicted.warps_launched != l.measured.warps_launched) return false;
  return true;
}

Validation validate(const kernels::Outcome& predicted, const kernels::Outcome& measured) {
  Validation v;
  v.predicted_fault = predicted.fault;
  v.measured_fault = measured.fault;
  // A launch count that differs because a run faulted is said by the FAULT line, not as a problem.
  if (!v.faulted() && predicted.launches.size() != measured.launches.size())
    v.problems.push_back(fmt::format("the simulator ran {} launch(es), the hardware {}", predicted.launches.size(),
                                     measured.launches.size()));
  const auto n = std::min(predicted.launches.size(), measured.launches.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto& p = predicted.launches[i];
    const auto& m = measured.launches[i];
    if (!p.result.trace || !m.result.trace) throw Error("validate: a launch has no trace", ExitCode::Internal);
    LaunchValidation l;
    l.ir = p.kernel->kernel;
    l.analysis = &p.kernel->analysis;
    l.kernel = l.ir->name;
    l.grid = p.result.stats.grid;
    l.block = p.result.stats.block;
    if (!(m.result.stats.grid == l.grid) || !(m.result.stats.block == l.block))
      v.problems.push_back(fmt::format("launch {}: shapes differ (grid {} block {} against grid {} block {})", i + 1,
                                       to_string(l.grid), to_string(l.block), to_string(m.result.stats.grid),
                                       to_string(m.result.stats.block)));
    l.predicted = p.result.stats;
    WarpSelection none;
    none.keep = 0;
    l.predicted_from_trace = cuda::stats_from_trace(*p.result.trace, *l.ir, *l.analysis, none);
    l.measured = cuda::stats_from_trace(*m.result.trace, *l.ir, *l.analysis, none);
    l.measured.kernel_ms = m.result.stats.kernel_ms;
    l.measured.kernel_ms_min = m.result.stats.kernel_ms_min;
    l.measured.kernel_ms_max = m.result.stats.kernel_ms_max;
    l.measured.compiled_registers = m.result.stats.compiled_registers;
    l.measured.compiled_local_bytes = m.result.stats.compiled_local_bytes;
    l.measured.timed_build = m.result.stats.timed_build;
    l.masks = compare_traces(*p.result.trace, *m.result.trace, static_cast<std::uint32_t>(l.analysis->cfg.blocks.size()));
    v.launches.push_back(std::move(l));
  }
  if (v.faulted()) return v;  // the buffers hold whatever the fault left: nothing to compare
  if (predicted.outputs.size() != measured.outputs.size())
    v.problems.push_back(fmt::format("the simulator read back {} buffer(s), the hardware {}", predicted.outputs.size(),
                                     measured.outputs.size()));
  for (std::size_t i = 0; i < std::min(predicted.outputs.size(), measured.outputs.size()); ++i)
    v.outputs.push_back(compare_output(predicted.outputs[i], measured.outputs[i]));
  return v;
}

std::string format_text(const Validation& v, std::size_t max_mismatches) {
  std::string params;
  for (const auto& [k, val] : v.params) params += fmt::format("{}{}={}", params.empty() ? "" : ", ", k, val);
  std::string out = fmt::format("== validate {}{} ==\n", v.title, params.empty() ? "" : " (" + params + ")");
  out += fmt::format("predicted by {}\nmeasured on {}\n", v.predicted_device, v.measured_device);
  for (const auto& p : v.problems) out += fmt::format("problem: {}\n", p);
  if (v.predicted_fault) out += fmt::format("simulator: {}\n", report::fault_line(*v.predicted_fault));
  if (v.measured_fault) out += fmt::format("hardware: {}\n", report::fault_line(*v.measured_fault));
  if (v.faulted())
    out += fmt::format("outputs: not compared ({} faulted); launches compared: {}\n",
                       v.predicted_fault && v.measured_fault ? "both runs"
                       : v.predicted_fault                    ? "the simulator's run"
                                                              : "the hardware's run",
                       v.launches.size());
  for (const auto& o : v.outputs) {
    if (!o.compared) {
      out += fmt::format("output {}: {} elements, device-specific (clock values), not compared\n", o.label, o.elements);
    } else if (o.different == 0) {
      out += fmt::format("output {}: {} elements equal{}\n", o.label, o.elements,
                         o.is_float ? fmt::format(" (f32 within {:g} relative; largest difference {:.3g})", kFloatTolerance, o.max_relative) : "");
    } else {
      out += fmt::format("output {}: {} of {} elements DIFFER (first at element {})\n", o.label, o.different, o.elements,
                         o.first_different);
    }
  }
  for (std::size_t i = 0; i < v.launches.size(); ++i) {
    const auto& l = v.launches[i];
    const auto& P = l.predicted_from_trace;
    const auto& M = l.measured;
    out += fmt::format("launch {}: kernel {}, grid {}, block {}\n", i + 1, l.kernel, to_string(l.grid), to_string(l.block));
    out += fmt::format("  {:<44} {:>16} {:>16}\n", "", "predicted", "measured");
    auto row = [&](const std::string& name, const std::string& a, const std::string& b) {
      out += fmt::format("  {:<44} {:>16} {:>16}{}\n", name, a, b, a == b ? "" : "   <- differs");
    };
    auto num = [](std::uint64_t x) { return std::to_string(x); };
    row("warps launched", num(l.predicted.warps_launched), num(M.warps_launched));
    row("divergent warps", num(P.divergent_warps), num(M.divergent_warps));
    row("warp instructions (IR, from block entries)", num(P.warp_instructions), num(M.warp_instructions));
    row("thread instructions (IR, from block entries)", num(P.thread_instructions), num(M.thread_instructions));
    row("SIMT efficiency", report::percent(P.simt_efficiency()), report::percent(M.simt_efficiency()));
    row("idle lanes: padding", num(P.idle_lane_slots.padding), num(M.idle_lane_slots.padding));
    row("idle lanes: divergence", num(P.idle_lane_slots.divergence), num(M.idle_lane_slots.divergence));
    row("idle lanes: exited", num(P.idle_lane_slots.exited), num(M.idle_lane_slots.exited));
    const double predicted_ms = l.predicted.timed ? l.predicted.timing.microseconds() / 1000.0 : 0.0;
    out += fmt::format("  {:<44} {:>16} {:>16}\n", "kernel time (ms)",
                       l.predicted.timed ? fmt::format("{:.4f}", predicted_ms) : "functional mode",
                       M.kernel_ms > 0 ? fmt::format("{:.4f}", M.kernel_ms) : "-");
    if (M.kernel_ms_max > 0)
      out += fmt::format("  {:<44} {:>16} {:>16}\n", "measured spread (fastest - slowest, ms)", "",
                         fmt::format("{:.4f}-{:.4f}", M.kernel_ms_min, M.kernel_ms_max));
    if (M.kernel_ms > 0)  // which build the GPU timed (docs/cuda-frontend.md "On a GPU")
      out += fmt::format("  {:<44} {:>16} {:>16}\n", "timed build", "",
                         M.timed_build.empty() ? "not recorded" : M.timed_build);
    if (l.predicted.timed && M.kernel_ms > 0)
      out += fmt::format("  {:<44} {:>16} {:>16}\n", "time error (predicted / measured - 1)",
                         fmt::format("{:+.1f}%", (predicted_ms / M.kernel_ms - 1.0) * 100.0),
                         fmt::format("{} cyc", l.predicted.timing.cycles));
    out += "  basic blocks: entries (passes) and active lanes, predicted / measured\n";
    for (const auto& b : l.masks.blocks)
      out += fmt::format("    {:<36} entries {:>8} / {:<8} lanes {:>10} / {:<10}{}\n", block_text(l, b.basic_block),
                         b.predicted, b.measured, b.predicted_lanes, b.measured_lanes,
                         b.predicted == b.measured && b.predicted_lanes == b.measured_lanes ? "" : "  <- differs");
    out += fmt::format("  active masks: {} of {} block entries equal; {} of {} warps identical\n", l.masks.entries_equal,
                       l.masks.entries_compared, l.masks.warps_identical, l.masks.warps_compared);
    if (!l.masks.mismatches.empty()) {
      out += fmt::format("  mismatches ({} shown of {}; --max-mismatches N for more):\n",
                         std::min(max_mismatches, l.masks.mismatches.size()), l.masks.mismatches.size());
      for (std::size_t k = 0; k < std::min(max_mismatches, l.masks.mismatches.size()); ++k) {
        const auto& mm = l.masks.mismatches[k];
        out += fmt::format("    block {} warp {} {} entry {}: predicted {} measured {}\n", mm.block_linear, mm.warp,
                           block_text(l, mm.basic_block), mm.entry + 1, mask_text(mm.predicted), mask_text(mm.measured));
      }
    }
  }
  if (!v.ncu.is_null() && v.ncu.contains("metrics")) {
    out += "hardware counters (Nsight Compute, first plain launch) beside the simulator:\n";
    for (const auto& [name, value] : v.ncu["metrics"].items())
      out += fmt::format("  {:<56} {:>16}   simulator: {}\n", name, value.get<std::string>(),
                         v.ncu["simulator"].contains(name) ? v.ncu["simulator"][name].get<std::string>() : "-");
  } else if (!v.ncu.is_null() && v.ncu.contains("error")) {
    out += fmt::format("hardware counters: {}\n", v.ncu["error"].get<std::string>());
  }
  out += fmt::format("verdict: {}\n", v.matches()   ? "MATCH (outputs, warps and every active mask agree)"
                                     : v.faulted() ? "FAULT (the launches before the fault are compared above)"
                                                   : "MISMATCH");
  return out;
}

nlohmann::json to_json(const Validation& v) {
  nlohmann::json j;
  j["name"] = v.title;
  auto& params = j["params"] = nlohmann::json::object();
  for (const auto& [k, val] : v.params) params[k] = val;
  j["predicted_device"] = v.predicted_device;
  j["measured_device"] = v.measured_device;
  j["problems"] = v.problems;
  j["faults"] = {{"predicted", v.predicted_fault ? report::to_json(*v.predicted_fault) : nlohmann::json()},
                 {"measured", v.measured_fault ? report::to_json(*v.measured_fault) : nlohmann::json()}};
  auto& outputs = j["outputs"] = nlohmann::json::array();
  for (const auto& o : v.outputs)
    outputs.push_back({{"label", o.label}, {"elements", o.elements}, {"compared", o.compared}, {"different", o.different},
                       {"first_different", o.first_different}, {"max_relative", o.max_relative}});
  auto& launches = j["launches"] = nlohmann::json::array();
  for (const auto& l : v.launches) {
    nlohmann::json one;
    one["kernel"] = l.kernel;
    one["predicted"] = report::to_json(l.predicted_from_trace);
    one["predicted"]["warps_launched"] = l.predicted.warps_launched;
    one["measured"] = report::to_json(l.measured);
    one["entries_compared"] = l.masks.entries_compared;
    one["entries_equal"] = l.masks.entries_equal;
    one["warps_identical"] = l.masks.warps_identical;
    auto& blocks = one["basic_blocks"] = nlohmann::json::array();
    for (const auto& b : l.masks.blocks)
      blocks.push_back({{"block", b.basic_block}, {"predicted_entries", b.predicted}, {"measured_entries", b.measured},
                        {"predicted_lanes", b.predicted_lanes}, {"measured_lanes", b.measured_lanes}});
    auto& mismatches = one["mismatches"] = nlohmann::json::array();
    for (const auto& mm : l.masks.mismatches)
      mismatches.push_back({{"block", mm.block_linear}, {"warp", mm.warp}, {"basic_block", mm.basic_block},
                            {"pc", mm.basic_block == kTraceExit ? -1 : static_cast<long>(l.analysis->cfg.blocks[mm.basic_block].begin)},
                            {"entry", mm.entry},
                            {"predicted", mm.predicted ? nlohmann::json(*mm.predicted) : nlohmann::json()},
                            {"measured", mm.measured ? nlohmann::json(*mm.measured) : nlohmann::json()}});
    launches.push_back(std::move(one));
  }
  j["ncu"] = v.ncu;
  j["match"] = v.matches();
  return j;
}

namespace {

std::string to_hex(const std::vector<std::byte>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (auto b : bytes) {
    out += digits[static_cast<unsigned>(b) >> 4];
    out += digits[static_cast<unsigned>(b) & 15];
  }
  return out;
}

std::vector<std::byte> from_hex(const std::string& text) {
  if (text.size() % 2) throw Error("saved run: odd-length hex data");
  std::vector<std::byte> out(text.size() / 2);
  auto value = [](char c) -> unsigned {
    if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
    throw Error(fmt::format("saved run: '{}' is not a hex digit", c));
  };
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::byte>(value(text[2 * i]) << 4 | value(text[2 * i + 1]));
  return out;
}

nlohmann::json dim(const Dim3& d) { return {d.x, d.y, d.z}; }
Dim3 dim(const nlohmann::json& j) { return {j.at(0).get<std::uint32_t>(), j.at(1).get<std::uint32_t>(), j.at(2).get<std::uint32_t>()}; }

}  // namespace

nlohmann::json save_measured(const kernels::Outcome& measured, const std::string& device) {
  nlohmann::json j;
  j["format"] = "warpsim-measured/1";
  j["device"] = device;
  auto& launches = j["launches"] = nlohmann::json::array();
  for (const auto& l : measured.launches) {
    nlohmann::json one{{"kernel", l.result.stats.kernel}, {"grid", dim(l.result.stats.grid)},
                       {"block", dim(l.result.stats.block)}, {"kernel_ms", l.result.stats.kernel_ms},
                       {"kernel_ms_range", {l.result.stats.kernel_ms_min, l.result.stats.kernel_ms_max}},
                       {"timed_build", l.result.stats.timed_build}};
    if (l.result.trace) {
      auto& warps = one["warps"] = nlohmann::json::array();
      for (const auto& w : l.result.trace->warps) {
        nlohmann::json events = nlohmann::json::array();
        for (const auto& e : w.events) events.push_back({e.basic_block, e.active_mask, e.cycle, e.sm});
        warps.push_back({{"block", w.block_linear}, {"warp", w.warp_in_block}, {"lanes", w.lanes_mask}, {"events", events}});
      }
    }
    launches.push_back(std::move(one));
  }
  auto& outputs = j["outputs"] = nlohmann::json::array();
  for (const auto& o : measured.outputs)
    outputs.push_back({{"label", o.label}, {"is_float", o.is_float}, {"device_specific", o.device_specific}, {"hex", to_hex(o.bytes)}});
  if (const auto& f = measured.fault)
    j["fault"] = {{"message", f->message}, {"launch", f->launch}, {"kernel", f->kernel},
                  {"grid", dim(f->grid)},  {"block", dim(f->block)}};
  return j;
}

kernels::Outcome load_measured(const nlohmann::json& saved, const kernels::Outcome& predicted, std::string& device) {
  try {
    if (saved.value("format", "") != "warpsim-measured/1") throw Error("saved run: not a warpsim-measured/1 file");
    device = saved.at("device").get<std::string>();
    kernels::Outcome out;
    const auto& launches = saved.at("launches");
    for (std::size_t i = 0; i < launches.size(); ++i) {
      const auto& one = launches[i];
      kernels::LaunchRecord record;
      if (i < predicted.launches.size()) {
        record.kernel = predicted.launches[i].kernel;
        record.kernel_file = predicted.launches[i].kernel_file;
      }
      auto& stats = record.result.stats;
      stats.kernel = one.at("kernel").get<std::string>();
      stats.backend = "cuda";
      stats.grid = dim(one.at("grid"));
      stats.block = dim(one.at("block"));
      stats.kernel_ms = one.at("kernel_ms").get<double>();
      if (one.contains("kernel_ms_range") && one["kernel_ms_range"].is_array() && one["kernel_ms_range"].size() == 2 &&
          one["kernel_ms_range"][0].is_number() && one["kernel_ms_range"][1].is_number()) {
        stats.kernel_ms_min = one["kernel_ms_range"][0].get<double>();
        stats.kernel_ms_max = one["kernel_ms_range"][1].get<double>();
      }
      // Saved before stop 37 (no key): not recorded, though every such run timed the emitted build.
      if (one.contains("timed_build") && one["timed_build"].is_string()) stats.timed_build = one["timed_build"].get<std::string>();
      Trace trace;
      trace.kernel = stats.kernel;
      trace.grid = stats.grid;
      trace.block = stats.block;
      if (stats.grid.count() == 0 || stats.block.count() == 0 || stats.block.count() > 1024)
        throw Error(fmt::format("saved run: launch {} has grid {} and block {}", i + 1, to_string(stats.grid),
                                to_string(stats.block)));
      const std::uint64_t threads = stats.block.count(), warps_per_block = (threads + 31) / 32;
      // Launches past the predicted run's (it faulted before them) are kept but never compared:
      // their basic blocks cannot be checked against a kernel.
      const std::uint32_t blocks_in_cfg =
          i < predicted.launches.size() ? static_cast<std::uint32_t>(predicted.launches[i].kernel->analysis.cfg.blocks.size())
                                        : std::numeric_limits<std::uint32_t>::max();
      for (const auto& w : one.at("warps")) {
        WarpTrace wt;
        wt.block_linear = w.at("block").get<std::uint64_t>();
        wt.warp_in_block = w.at("warp").get<std::uint32_t>();
        wt.lanes_mask = w.at("lanes").get<std::uint64_t>();
        // A warp that cannot exist in this launch, or lanes its block does not have, is a bad file.
        const std::uint64_t lanes = std::min<std::uint64_t>(32, threads - std::min<std::uint64_t>(threads, 32ull * wt.warp_in_block));
        if (wt.block_linear >= stats.grid.count() || wt.warp_in_block >= warps_per_block ||
            wt.lanes_mask != (lanes == 64 ? ~0ull : (1ull << lanes) - 1))
          throw Error(fmt::format("saved run: launch {} has no warp {} of block {} with lanes {:#x}", i + 1,
                                  wt.warp_in_block, wt.block_linear, wt.lanes_mask));
        for (const auto& e : w.at("events")) {
          TraceEvent event{e.at(0).get<std::uint32_t>(), e.at(1).get<std::uint64_t>(), e.at(2).get<std::uint64_t>(),
                           e.at(3).get<std::uint32_t>()};
          if ((event.basic_block != kTraceExit && event.basic_block >= blocks_in_cfg) || (event.active_mask & ~wt.lanes_mask))
            throw Error(fmt::format("saved run: launch {} warp {} of block {} has an impossible event (block {}, mask {:#x})",
                                    i + 1, wt.warp_in_block, wt.block_linear, event.basic_block, event.active_mask));
          wt.events.push_back(event);
        }
        trace.warps.push_back(std::move(wt));
      }
      record.result.trace = std::move(trace);
      out.launches.push_back(std::move(record));
    }
    for (const auto& o : saved.at("outputs"))
      out.outputs.push_back({o.at("label").get<std::string>(), from_hex(o.at("hex").get<std::string>()),
                             o.at("is_float").get<bool>(), o.at("device_specific").get<bool>()});
    if (saved.contains("fault") && !saved["fault"].is_null()) {
      const auto& f = saved["fault"];
      kernels::FaultInfo fault;
      fault.message = f.at("message").get<std::string>();
      fault.launch = f.at("launch").get<std::size_t>();
      fault.kernel = f.at("kernel").get<std::string>();
      fault.grid = dim(f.at("grid"));
      fault.block = dim(f.at("block"));
      if (fault.launch != out.launches.size() + 1)
        throw Error(fmt::format("saved run: the fault is in launch {} but {} launch(es) completed before it", fault.launch,
                                out.launches.size()));
      out.fault = std::move(fault);
    }
    out.checked = predicted.checked;
    return out;
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("saved run: {}", e.what()));
  }
}

}  // namespace warpsim::validation
