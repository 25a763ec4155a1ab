#include "tools/calibrate/timing_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "tools/cli.hpp"

namespace warpsim::calib {

namespace {

std::vector<std::string> split_args(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

double predicted_us(const std::string& args, const std::vector<std::string>& sim_args, const std::string& l2_start) {
  std::vector<std::string> argv{"run"};
  for (auto& a : split_args(args)) argv.push_back(a);
  for (auto& a : sim_args) argv.push_back(a);
  // The simulator starts each launch from the L2 the GPU's timed launches started from: flushed
  // (cuda/gpu.cpp queues each behind a kernel that evicts the L2), or, for data measured before
  // stop 20, what the copy of every buffer from its snapshot left ("restored").
  argv.insert(argv.end(), {"--format", "json", "--warps", "default", "--l2-start", l2_start});
  cli::Io io;
  const int code = cli::run_cli(argv, io);
  if (code != 0) throw Error(fmt::format("simulating '{}' failed: {}", args, io.err), ExitCode::Internal);
  const auto report = nlohmann::json::parse(io.out);
  double us = 0;
  for (const auto& l : report.at("launches")) us += l.at("timing").at("microseconds").get<double>();
  return us;
}

}  // namespace

ValidationSummary validate_timing(const nlohmann::json& data, const std::vector<std::string>& sim_args, bool ci_only) {
  ValidationSummary s;
  s.launch_us = data.at("launch_us").get<double>();
  s.floor_us = data.value("floor_us", 2.0);
  s.l2_start = data.value("l2_start", std::string("restored"));
  if (s.l2_start != "restored" && s.l2_start != "flushed")
    throw Error(fmt::format("timing data: l2_start '{}' is neither restored nor flushed", s.l2_start),
                ExitCode::InvalidInput);
  for (const auto& k : data.at("kernels")) {
    if (ci_only && !k.value("ci", false)) continue;
    ValidationRow r;
    r.family = k.at("family").get<std::string>();
    r.args = k.at("args").get<std::string>();
    // A run measured again in a later session carries that session's launch overhead.
    const double launch_us = k.value("launch_us", s.launch_us);
    for (const auto& ms : k.at("kernel_ms")) r.measured_us += std::max(0.0, ms.get<double>() * 1e3 - launch_us);
    r.predicted_us = predicted_us(r.args, sim_args, s.l2_start);
    const auto range = k.find("kernel_ms_range");
    if (range != k.end() && range->is_array())
      for (const auto& pair : *range) {
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_number())
          throw Error(fmt::format("timing data: '{}': kernel_ms_range holds {}, not [fastest, slowest] per launch",
                                  r.args, pair.dump()),
                      ExitCode::InvalidInput);
        r.spread_us += (pair[1].get<double>() - pair[0].get<double>()) * 1e3;
      }
    s.rows.push_back(r);
  }
  std::vector<double> errors;
  for (const auto& r : s.rows)
    if (r.measured_us >= s.floor_us) errors.push_back(std::abs(r.error()));
  s.counted = static_cast<int>(errors.size());
  if (!errors.empty()) {
    double sum = 0;
    for (double e : errors) sum += e;
    s.mape = sum / errors.size() * 100;
    std::sort(errors.begin(), errors.end());
    s.p90 = errors[std::min(errors.size() - 1, static_cast<std::size_t>(std::ceil(0.9 * errors.size())) - 1)] * 100;
  }
  // Families: every pair ordered the same way on both sides, and speedups against the family's first.
  std::map<std::string, std::vector<const ValidationRow*>> families;
  std::vector<std::string> order;
  // Runs under the floor are left out of ranks and ratios too: their measured times are mostly the
  // subtracted fixed cost, and two of them 0.1 us apart are not ordered by anything the model says.
  for (const auto& r : s.rows) {
    if (r.measured_us < s.floor_us) continue;
    if (!families.count(r.family)) order.push_back(r.family);
    families[r.family].push_back(&r);
  }
  for (const auto& f : order) {
    const auto& rows = families[f];
    if (rows.size() < 2) continue;
    int reversals = 0, pairs = 0;
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (std::size_t j = i + 1; j < rows.size(); ++j) {
        const double m = rows[i]->measured_us - rows[j]->measured_us, p = rows[i]->predicted_us - rows[j]->predicted_us;
        // Measured within 3% of each other: a tie, not counted.
        if (std::abs(m) < 0.03 * std::max(rows[i]->measured_us, rows[j]->measured_us)) continue;
        ++pairs;
        if ((m > 0) != (p > 0)) ++reversals;
      }
    s.reversals += reversals;
    s.pairs += pairs;
    std::string ratios;
    for (std::size_t i = 1; i < rows.size(); ++i) {
      const double mr = rows[i]->measured_us > 0 ? rows[0]->measured_us / rows[i]->measured_us : 0;
      const double pr = rows[i]->predicted_us > 0 ? rows[0]->predicted_us / rows[i]->predicted_us : 0;
      ratios += fmt::format("{}`{}`: measured {:.2f}x, predicted {:.2f}x ({:+.0f}%)", i > 1 ? "; " : "", rows[i]->args,
                            mr, pr, mr > 0 ? (pr / mr - 1) * 100 : 0.0);
    }
    s.family_lines.push_back(
        fmt::format("| {} | {} of {} | speedup of `{}` over: {} |", f, reversals, pairs, rows[0]->args, ratios));
  }
  return s;
}

std::string markdown(const ValidationSummary& s) {
  std::string out =
      "| family | run | predicted (us) | measured (us) | spread (us) | error |\n| --- | --- | --- | --- | --- | --- |\n";
  for (const auto& r : s.rows)
    out += fmt::format("| {} | `{}` | {:.2f} | {:.2f} | {:.2f} | {}{:+.0f}% |\n", r.family, r.args, r.predicted_us,
                       r.measured_us, r.spread_us, r.measured_us < s.floor_us ? "(below floor) " : "",
                       r.error() * 100);
  out += fmt::format(
      "\nOver the {} runs measuring at least {:.1f} us after the empty kernel's time ({:.2f} us) is subtracted: mean "
      "absolute percentage error {:.1f}%, 90th percentile {:.1f}%; rank reversals {} of {} ordered pairs within "
      "families (runs under the floor left out).\n\n",
      s.counted, s.floor_us, s.launch_us, s.mape, s.p90, s.reversals, s.pairs);
  out += "| family | rank reversals | speedup ratios, measured against predicted |\n| --- | --- | --- |\n";
  for (const auto& l : s.family_lines) out += l + "\n";
  return out;
}

std::string scatter_svg(const ValidationSummary& s) {
  const double w = 640, h = 640, m = 70;
  double lo = 1e30, hi = 0;
  for (const auto& r : s.rows)
    for (double v : {r.measured_us, r.predicted_us})
      if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  if (hi <= 0) lo = 1, hi = 10;
  const double l0 = std::floor(std::log10(lo)), l1 = std::ceil(std::log10(hi)) + (lo == hi ? 1 : 0);
  auto x = [&](double v) { return m + (std::log10(v) - l0) / (l1 - l0) * (w - 2 * m); };
  auto y = [&](double v) { return h - m - (std::log10(v) - l0) / (l1 - l0) * (h - 2 * m); };
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" font-family=\"sans-serif\" "
      "font-size=\"12\">\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      w, h);
  for (double d = l0; d <= l1; ++d) {
    const double v = std::pow(10, d);
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#ddd\"/><text x=\"{0}\" y=\"{3}\" "
        "text-anchor=\"middle\">{4:g}</text>\n",
        x(v), m, h - m, h - m + 18, v);
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#ddd\"/><text x=\"{3}\" y=\"{4}\" "
        "text-anchor=\"end\">{5:g}</text>\n",
        m, y(v), w - m, m - 6, y(v) + 4, v);
  }
  const double a = std::pow(10, l0), b = std::pow(10, l1);
  out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\" stroke-dasharray=\"4\"/>\n", x(a),
                     y(a), x(b), y(b));
  for (const auto& r : s.rows) {
    if (r.measured_us <= 0 || r.predicted_us <= 0) continue;
    out += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\"><title>{}: measured {:.2f} us, predicted {:.2f} "
        "us</title></circle>\n",
        x(r.measured_us), y(r.predicted_us), r.measured_us < s.floor_us ? "#bbb" : "#1f77b4", r.args, r.measured_us,
        r.predicted_us);
  }
  out += fmt::format(
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">measured kernel time on the H100, us (launch overhead "
      "subtracted)</text>\n",
      w / 2, h - 20);
  out += fmt::format(
      "<text x=\"20\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 20 {})\">predicted by warpsim, "
      "us</text>\n",
      h / 2, h / 2);
  out += fmt::format(
      "<text x=\"{}\" y=\"30\" text-anchor=\"middle\">MAPE {:.1f}%, 90th percentile {:.1f}% ({} runs; grey: "
      "below {:.1f} us)</text>\n</svg>\n",
      w / 2, s.mape, s.p90, s.counted, s.floor_us);
  return out;
}

}  // namespace warpsim::calib
