#include "tools/calibrate/fit.hpp"

#include <cmath>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "sim/gpu.hpp"

namespace warpsim::calib {

nlohmann::json to_json(const RawFigures& raw) {
  return {{"device", raw.device}, {"clock_mhz", raw.clock_mhz}, {"figures", raw.figures}};
}

RawFigures raw_from_json(const nlohmann::json& j, const std::string& origin) {
  try {
    RawFigures raw;
    raw.device = j.at("device").get<std::string>();
    raw.clock_mhz = j.at("clock_mhz").get<double>();
    raw.figures = j.at("figures").get<std::map<std::string, double>>();
    return raw;
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("--replay {}: not a saved calibration ({})", origin, e.what()), ExitCode::InvalidInput);
  }
}

RawFigures measure(const std::vector<const BenchInfo*>& benches, Target target, const std::string& device) {
  RawFigures raw;
  raw.device = device;
  raw.clock_mhz = target.clock_mhz;
  raw.figures["launch"] = find_bench("launch")->run(target);
  if (target.hardware) target.launch_us = raw.figures["launch"];
  for (const auto* b : benches)
    if (b->name != "launch") raw.figures[b->name] = b->run(target);
  return raw;
}

namespace {

std::map<std::string, double> simulate(const sim::GpuPreset& preset, const std::vector<const BenchInfo*>& benches,
                                       std::uint32_t threads, bool fitted_only) {
  Target t;
  t.hardware = false;
  t.clock_mhz = preset.clock_mhz;
  t.make_device = [preset, threads] {
    sim::Config c;
    c.gpu = preset;
    c.gpu.watchdog_cycles = 1ull << 36;  // the L2 chase computes for millions of cycles without a store
    c.threads = threads;
    c.l2_start = sim::L2Start::Flushed;  // as the GPU's timed launches (cuda/gpu.cpp flushes the L2 first)
    return std::make_unique<sim::Gpu>(c);
  };
  std::map<std::string, double> out;
  for (const auto* b : benches)
    if (!fitted_only || b->fit != Fit::None) out[b->name] = b->run(t);
  return out;
}

std::string current_value(const sim::GpuPreset& preset, const std::string& key) {
  for (const auto& p : sim::preset_parameters(preset))
    if (p.key == key) return p.value;
  throw Error(fmt::format("calibrate: the preset has no parameter '{}'", key), ExitCode::Internal);
}

}  // namespace

FitResult fit(const RawFigures& measured, const std::vector<const BenchInfo*>& benches, sim::GpuPreset start,
              std::uint32_t threads, int passes, std::string& log) {
  FitResult r;
  r.preset = std::move(start);
  for (int pass = 0; pass < passes; ++pass) {
    const auto predicted = simulate(r.preset, benches, threads, true);
    int moved = 0;
    for (const auto* b : benches) {
      if (b->fit == Fit::None || !measured.figures.count(b->name)) continue;
      const double meas = measured.figures.at(b->name), pred = predicted.at(b->name);
      const double now = std::stod(current_value(r.preset, b->param));
      double next = now;
      if (b->fit == Fit::Additive) next = now + (meas - pred) / b->slope;
      if (b->fit == Fit::Proportional && pred > 0) next = now * meas / pred;
      if (b->fit == Fit::Inverse && meas > 0) next = now * pred / meas;
      const bool may_be_zero = b->param.starts_with("memory.atomic") || b->param == "sm.barrier_warp_cycles" ||
                               b->param == "gpu.block_dispatch_cycles" || b->param == "memory.dram_page_miss_bytes" ||
                               b->param == "memory.dram_merge_bytes";
      next = std::max(may_be_zero ? 0.0 : 1.0, std::round(next / b->step) * b->step);
      if (std::abs(next - now) > b->step / 2) ++moved;
      r.values[b->param] = b->step < 1 ? fmt::format("{:.2f}", next) : fmt::format("{}", static_cast<long long>(next));
      sim::apply_override(r.preset, b->param, r.values[b->param]);
    }
    log += fmt::format("fit pass {}: {} parameter(s) moved\n", pass + 1, moved);
    if (moved == 0) break;
  }
  sim::validate_preset(r.preset);
  r.predicted = simulate(r.preset, benches, threads, false);
  return r;
}

std::string preset_text(const std::string& base_text, const FitResult& fit, const RawFigures& measured,
                        const std::vector<const BenchInfo*>& benches, const std::string& gpu_name) {
  std::map<std::string, const BenchInfo*> by_param;
  for (const auto* b : benches)
    if (b->fit != Fit::None) by_param[b->param] = b;
  std::istringstream in(base_text);
  std::string out = fmt::format(
      "# Written by `warpsim calibrate` from microbenchmarks measured on: {} (clock {} MHz).\n"
      "# Values marked [M] calibrate were fitted so the simulator reproduces the named microbenchmark's\n"
      "# raw figure (kernels/microbench/, docs/validation/timing.md); the rest come from the base preset.\n",
      measured.device, measured.clock_mhz);
  const std::regex assignment(R"(^(\w+)\s*=\s*([^#]*?)\s*(#.*)?$)");
  std::string section, line;
  bool compared = false;
  while (std::getline(in, line)) {
    // A base that is itself calibrate's output: its header and compared-only list are written anew.
    if (line.starts_with("# Written by `warpsim calibrate`") || line.starts_with("# Values marked [M] calibrate") ||
        line.starts_with("# raw figure (kernels/microbench/"))
      continue;
    if (line.starts_with("# Compared only (no parameter")) compared = true;
    if (compared && (line.starts_with("# Compared only") || line.starts_with("#   "))) continue;
    compared = false;
    std::smatch m;
    if (!line.empty() && line[0] == '[') section = line.substr(1, line.find(']') - 1);
    if (std::regex_match(line, m, assignment)) {
      const std::string key = section + "." + m[1].str();
      if (key == "gpu.name" && !gpu_name.empty())
        line = fmt::format("{:<29} # set by calibrate --gpu-name", "name = " + gpu_name);
      if (const auto v = fit.values.find(key); v != fit.values.end()) {
        const auto* b = by_param.at(key);
        line = fmt::format("{:<29} # [M] calibrate: {} = {:.2f} {} (was {})", m[1].str() + " = " + v->second, b->name,
                           measured.figures.at(b->name), b->unit, m[2].str());
      }
    }
    out += line + "\n";
  }
  out += "# Compared only (no parameter of the model takes them), raw figures on the GPU:\n";
  for (const auto* b : benches)
    if (b->fit == Fit::None && measured.figures.count(b->name))
      out += fmt::format("#   {:<24} {:>10.2f} {:<14} {}\n", b->name, measured.figures.at(b->name), b->unit, b->what);
  return out;
}

std::string comparison(const FitResult& fit, const RawFigures& measured, const std::vector<const BenchInfo*>& benches) {
  std::string out = fmt::format("{:<24} {:<36} {:>11} {:>11} {:>8}  {}\n", "microbenchmark", "fits", "measured",
                                "predicted", "error", "unit");
  double sum = 0;
  int n = 0;
  for (const auto* b : benches) {
    if (!measured.figures.count(b->name) || !fit.predicted.count(b->name)) continue;
    const double meas = measured.figures.at(b->name), pred = fit.predicted.at(b->name);
    const double err = meas != 0 ? (pred - meas) / meas * 100 : 0;
    if (b->name != "launch") {
      sum += std::abs(err);
      ++n;
    }
    out += fmt::format("{:<24} {:<36} {:>11.2f} {:>11.2f} {:>+7.1f}%  {}\n", b->name,
                       b->fit == Fit::None ? "-" : b->param, meas, pred, err, b->unit);
  }
  if (n > 0) out += fmt::format("mean absolute error over {} microbenchmarks (launch excluded): {:.1f}%\n", n, sum / n);
  return out;
}

}  // namespace warpsim::calib
