// The sweep's plot: predicted time against the first swept parameter, one line per GPU (and per
// value of the other swept parameters), as a small hand-written SVG.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "tools/report/sweep.hpp"

namespace warpsim::report {

namespace {

constexpr double kWidth = 760, kHeight = 440;
constexpr double kLeft = 80, kRight = 200, kTop = 44, kBottom = 56;
constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr const char* kDashes[] = {"", " stroke-dasharray=\"7 4\"", " stroke-dasharray=\"2 3\"",
                                   " stroke-dasharray=\"9 3 2 3\""};

struct Series {
  std::string label;
  std::size_t gpu = 0, variant = 0;               // colour by GPU, dash pattern by the other swept parameters' values
  std::vector<std::pair<double, double>> points;  // (x, microseconds)
};

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

double parse_number(const std::string& text) {
  try {
    return std::stod(text);
  } catch (const std::exception&) {
    return std::nan("");
  }
}

// An axis from lo to hi, linear or logarithmic, onto [from, to] pixels.
struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  double from = 0, to = 1;
  double map(double v) const {
    const double a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi, x = log ? std::log10(v) : v;
    return b > a ? from + (to - from) * (x - a) / (b - a) : (from + to) / 2;
  }
};

// About five round values between lo and hi (linear), or the powers of ten with 2 and 5 between
// (logarithmic).
std::vector<double> ticks(const Axis& axis) {
  std::vector<double> out;
  if (axis.log) {
    for (double decade = std::pow(10.0, std::floor(std::log10(axis.lo))); decade <= axis.hi; decade *= 10)
      for (double m : {1.0, 2.0, 5.0})
        if (m * decade >= axis.lo * 0.999 && m * decade <= axis.hi * 1.001) out.push_back(m * decade);
    return out;
  }
  const double raw = (axis.hi - axis.lo) / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  for (double v = std::ceil(axis.lo / step) * step; v <= axis.hi * 1.0001; v += step) out.push_back(v);
  return out;
}

}  // namespace

std::string format_sweep_svg(const SweepTable& table) {
  const auto swept = swept_params(table);
  if (swept.empty()) throw Error("--plot: no parameter takes more than one value, nothing to draw", ExitCode::Usage);
  const std::string& x_name = swept.front();
  std::vector<Series> series;
  std::vector<std::string> gpus, variants;
  const auto index_of = [](std::vector<std::string>& list, const std::string& item) {
    const auto at = std::find(list.begin(), list.end(), item);
    if (at != list.end()) return static_cast<std::size_t>(at - list.begin());
    list.push_back(item);
    return list.size() - 1;
  };
  for (const auto& r : table.rows) {
    std::string variant;
    for (std::size_t i = 1; i < swept.size(); ++i) variant += fmt::format(" {}={}", swept[i], r.param(swept[i]));
    const std::string label = r.gpu + variant;
    auto it = std::find_if(series.begin(), series.end(), [&](const Series& s) { return s.label == label; });
    if (it == series.end())
      it = series.insert(series.end(), {label, index_of(gpus, r.gpu), index_of(variants, variant), {}});
    const double x = parse_number(r.param(x_name));
    if (r.status == PointStatus::Ok && r.timed && r.microseconds > 0 && std::isfinite(x))
      it->points.emplace_back(x, r.microseconds);
  }
  std::erase_if(series, [](const Series& s) { return s.points.empty(); });
  if (series.empty()) throw Error("--plot: no point has a predicted time to draw", ExitCode::Usage);

  Axis x{1e300, -1e300, false, kLeft + 24, kWidth - kRight - 24};  // points clear of the frame
  Axis y{1e300, -1e300, false, kHeight - kBottom, kTop};
  std::vector<double> x_values;
  for (auto& s : series) {
    std::sort(s.points.begin(), s.points.end());
    for (const auto& [px, py] : s.points) {
      x.lo = std::min(x.lo, px), x.hi = std::max(x.hi, px);
      y.lo = std::min(y.lo, py), y.hi = std::max(y.hi, py);
      if (std::find(x_values.begin(), x_values.end(), px) == x_values.end()) x_values.push_back(px);
    }
  }
  std::sort(x_values.begin(), x_values.end());
  // Powers of two and other geometric lists read best on a log scale; so do times that span more
  // than a factor of ten.
  x.log = x.lo > 0 && x.hi / x.lo >= 4;
  y.log = y.hi / y.lo >= 10;
  if (y.log) {
    y.lo = std::pow(10.0, std::floor(std::log10(y.lo)));
    y.hi = std::pow(10.0, std::ceil(std::log10(y.hi)));
  } else {
    y.hi *= 1.05;
    y.lo = 0;
  }

  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      kWidth, kHeight);
  out += fmt::format("<text x=\"{}\" y=\"24\" font-size=\"15\">{}: predicted time against {}</text>\n", kLeft,
                     escape(table.scenario), escape(x_name));
  for (const double v : ticks(y)) {
    const double py = y.map(v);
    out += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#e0e0e0\"/>\n", kLeft, py,
                       kWidth - kRight, py);
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>\n", kLeft - 6, py + 4, v);
  }
  for (const double v : x_values) {
    const double px = x.map(v);
    out += fmt::format("<line x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#e0e0e0\"/>\n", px, kTop, px,
                       kHeight - kBottom);
    out +=
        fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{:g}</text>\n", px, kHeight - kBottom + 18, v);
  }
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n", kLeft,
                     kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>\n", (kLeft + kWidth - kRight) / 2,
                     kHeight - 14, escape(x_name), x.log ? " (log scale)" : "");
  out += fmt::format(
      "<text transform=\"translate(18 {}) rotate(-90)\" text-anchor=\"middle\">predicted time (us){}</text>\n",
      (kTop + kHeight - kBottom) / 2, y.log ? ", log scale" : "");
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto* colour = kColours[series[i].gpu % std::size(kColours)];
    const auto* dash = kDashes[series[i].variant % std::size(kDashes)];
    std::string path;
    for (const auto& [px, py] : series[i].points)
      path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "" : " ", x.map(px), y.map(py));
    out +=
        fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n", path, colour, dash);
    for (const auto& [px, py] : series[i].points)
      out += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\"><title>{} {}={:g}: {:.3f} us</title></circle>\n",
          x.map(px), y.map(py), colour, escape(series[i].label), escape(x_name), px, py);
    const double ly = kTop + 10 + 20.0 * double(i);
    out += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"{}/>\n",
                       kWidth - kRight + 14, ly, kWidth - kRight + 38, ly, colour, dash);
    out +=
        fmt::format("<text x=\"{}\" y=\"{:.1f}\">{}</text>\n", kWidth - kRight + 44, ly + 4, escape(series[i].label));
  }
  return out + "</svg>\n";
}

}  // namespace warpsim::report
