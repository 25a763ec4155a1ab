// The sweep table: rows from run reports, the swept columns, the best point per GPU and why the
// others lose, as text, CSV and JSON (docs/sweep.md).
#include "tools/report/sweep.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "tools/report/report.hpp"

namespace warpsim::report {

namespace {

std::uint64_t u64(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<std::uint64_t>() : 0;
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

const char* status_name(PointStatus s) {
  return s == PointStatus::Ok ? "ok" : s == PointStatus::Invalid ? "invalid" : "failed";
}

// "coarse=4, tile=16" for the swept parameters (and the GPU when asked).
std::string point_label(const SweepRow& row, const std::vector<std::string>& swept, bool with_gpu) {
  std::string out;
  for (const auto& name : swept) out += fmt::format("{}{}={}", out.empty() ? "" : ", ", name, row.param(name));
  if (with_gpu) out += fmt::format("{}{}", out.empty() ? "" : ", ", row.gpu);
  return out;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string SweepRow::param(const std::string& name) const {
  for (const auto& [k, v] : params)
    if (k == name) return v;
  return "-";
}

void fill_row(SweepRow& row, const nlohmann::json& run) {
  if (run.contains("params") && run["params"].is_object()) {
    row.params.clear();
    for (const auto& [k, v] : run["params"].items()) row.params.emplace_back(k, v.get<std::string>());
  }
  row.ran = true;
  const nlohmann::json* main = nullptr;
  std::uint64_t main_cycles = 0;
  for (const auto& l : run.at("launches")) {
    row.warps += u64(l, "warps_launched");
    row.blocks += u64(l, "blocks");
    row.thread_instructions += u64(l, "thread_instructions");
    row.lane_slots += u64(l, "lane_slots");
    if (l.contains("instruction_mix") && l["instruction_mix"].contains("ld_global"))
      row.global_loads += u64(l["instruction_mix"]["ld_global"], "active_lanes");
    if (l.contains("timing") && l["timing"].is_object()) {
      const auto& t = l["timing"];
      row.timed = true;
      row.cycles += u64(t, "cycles");
      row.microseconds += t.value("microseconds", 0.0);
      if (main == nullptr || u64(t, "cycles") > main_cycles) {
        main = &l;
        main_cycles = u64(t, "cycles");
      }
    }
  }
  if (main != nullptr) {
    const auto& t = (*main)["timing"];
    const auto& o = t["occupancy"];
    row.sms = static_cast<std::uint32_t>(u64(t, "sms"));
    row.blocks_per_sm = static_cast<std::uint32_t>(u64(o, "blocks_per_sm"));
    row.occupancy = o.value("theoretical", 0.0);
    row.limiter = o.value("limiter", "");
    const double slots = double(row.blocks_per_sm) * double(row.sms);
    row.waves = slots > 0 ? double(u64(*main, "blocks")) / slots : 0.0;
  }
  if (run.contains("outputs") && run["outputs"].is_array() && !run["outputs"].empty())
    row.outputs = u64(run["outputs"].back(), "elements");
  const auto& check = run.value("check", nlohmann::json::object());
  if (check.value("ran", false) && !check.value("passed", false)) {
    row.status = PointStatus::Failed;
    row.reason = "check failed: " + check.value("detail", std::string());
  }
}

std::string reason_from_stderr(const std::string& err) {
  for (const char* prefix : {"warpsim: error: ", "warpsim: usage error: ", "warpsim: internal error: "}) {
    const auto at = err.rfind(prefix);
    if (at == std::string::npos) continue;
    auto reason = err.substr(at + std::char_traits<char>::length(prefix));
    while (!reason.empty() && reason.back() == '\n') reason.pop_back();
    return reason;
  }
  auto text = err;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text.empty() ? "the run wrote no report" : text;
}

std::vector<std::string> swept_params(const SweepTable& table) {
  std::map<std::string, std::size_t> changes;  // how often the value differs from the row before
  for (std::size_t i = 0; i < table.rows.size(); ++i)
    for (const auto& [k, v] : table.rows[i].params) {
      changes.try_emplace(k, 0);
      if (i > 0 && table.rows[i - 1].param(k) != v) ++changes[k];
    }
  std::vector<std::pair<std::size_t, std::string>> order;
  for (const auto& [k, n] : changes)
    if (n > 0) order.emplace_back(n, k);
  std::sort(order.begin(), order.end());
  std::vector<std::string> out;
  for (const auto& [n, k] : order) out.push_back(k);
  return out;
}

std::vector<std::pair<std::string, std::string>> fixed_params(const SweepTable& table) {
  std::vector<std::pair<std::string, std::string>> out;
  if (table.rows.empty()) return out;
  const auto swept = swept_params(table);
  for (const auto& [k, v] : table.rows.front().params)
    if (std::find(swept.begin(), swept.end(), k) == swept.end()) out.emplace_back(k, v);
  return out;
}

double speedup(const SweepTable& table, const SweepRow& row) {
  if (!row.timed || row.status != PointStatus::Ok || row.microseconds <= 0) return 0.0;
  for (const auto& r : table.rows)
    if (r.gpu == row.gpu && r.timed && r.status == PointStatus::Ok) return r.microseconds / row.microseconds;
  return 0.0;
}

std::vector<std::pair<std::string, const SweepRow*>> best_rows(const SweepTable& table) {
  std::vector<std::pair<std::string, const SweepRow*>> out;
  for (const auto& row : table.rows) {
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == row.gpu; });
    if (it == out.end()) it = out.insert(out.end(), {row.gpu, nullptr});
    if (row.status != PointStatus::Ok || !row.timed) continue;
    if (it->second == nullptr || row.cycles < it->second->cycles) it->second = &row;
  }
  return out;
}

std::vector<std::string> why_slower(const SweepRow& row, const SweepRow& best) {
  std::vector<std::string> why;
  if (row.cycles == best.cycles) return {"as fast as the best"};
  if (row.waves < 1.0 && row.blocks < best.blocks)
    why.push_back(
        fmt::format("too few blocks to fill the SMs ({} blocks for {} SMs x {} per SM, {:.3f} waves; the "
                    "best has {})",
                    row.blocks, row.sms, row.blocks_per_sm, row.waves, best.blocks));
  // Occupancy binds only when an SM is offered more blocks than fit: blocks > SMs x blocks per SM.
  if (row.occupancy + 1e-9 < best.occupancy && row.waves > 1.0)
    why.push_back(fmt::format("occupancy cut by {} ({} against the best's {})", row.limiter, percent(row.occupancy),
                              percent(best.occupancy)));
  if (row.loads_per_output() > best.loads_per_output() * 1.005)
    why.push_back(fmt::format("redundant loads ({:.2f} global loads per output against the best's {:.2f})",
                              row.loads_per_output(), best.loads_per_output()));
  if (row.instructions_per_output() > best.instructions_per_output() * 1.05)
    why.push_back(fmt::format("more work ({:.1f} thread instructions per output against the best's {:.1f})",
                              row.instructions_per_output(), best.instructions_per_output()));
  if (why.empty())
    why.push_back(
        "none of these causes: as many blocks, occupancy, loads and instructions per output or better "
        "(warpsim run shows its stalls)");
  return why;
}

std::string format_sweep_text(const SweepTable& table) {
  const auto swept = swept_params(table);
  std::string fixed;
  for (const auto& [k, v] : fixed_params(table)) fixed += fmt::format("{}{}={}", fixed.empty() ? "" : ", ", k, v);
  std::string out = fmt::format("== sweep {} ({}): {} point(s){}{} ==\n", table.scenario, table.mode, table.rows.size(),
                                fixed.empty() ? "" : "; fixed: ", fixed);
  std::vector<std::size_t> widths;
  std::string header = fmt::format("{:>5}", "point");
  for (const auto& name : swept) {
    widths.push_back(std::max<std::size_t>(name.size(), 4));
    header += fmt::format(" {:>{}}", name, widths.back());
  }
  std::size_t gpu_width = 4;
  for (const auto& r : table.rows) gpu_width = std::max(gpu_width, r.gpu.size());
  header += fmt::format(" {:<{}} {:>7} {:>7} {:>7} {:>9} {:<13} {:>10} {:>9} {:>6} {:>10} {:>10} {:>7}\n", "gpu",
                        gpu_width, "warps", "blocks", "waves", "occupancy", "limiter", "instr/out", "loads/out", "SIMT",
                        "cycles", "time (us)", "speedup");
  out += header;
  for (const auto& r : table.rows) {
    std::string line = fmt::format("{:>5}", r.point);
    for (std::size_t i = 0; i < swept.size(); ++i) line += fmt::format(" {:>{}}", r.param(swept[i]), widths[i]);
    line += fmt::format(" {:<{}}", r.gpu, gpu_width);
    if (!r.ran) {
      out += line + fmt::format(" {}: {}\n", status_name(r.status), first_line(r.reason));
      continue;
    }
    line += fmt::format(" {:>7} {:>7}", r.warps, r.blocks);
    if (r.timed)
      line += fmt::format(" {:>7.3f} {:>9} {:<13}", r.waves, percent(r.occupancy), r.limiter);
    else
      line += fmt::format(" {:>7} {:>9} {:<13}", "-", "-", "-");
    line += fmt::format(" {:>10.1f} {:>9.2f} {:>6}", r.instructions_per_output(), r.loads_per_output(),
                        percent(r.simt_efficiency()));
    const double s = speedup(table, r);
    if (r.timed)
      line += fmt::format(" {:>10} {:>10.3f} {:>7}", r.cycles, r.microseconds, s > 0 ? fmt::format("{:.2f}x", s) : "-");
    else
      line += fmt::format(" {:>10} {:>10} {:>7}", "-", "-", "-");
    if (r.status != PointStatus::Ok) line += fmt::format("  {}: {}", status_name(r.status), first_line(r.reason));
    out += line + "\n";
  }
  // The summary: per GPU, the best point and why each other point loses.
  if (table.mode != "timing") out += "\nfunctional mode: no predicted time, so no point is ranked\n";
  for (const auto& [gpu, best] : best_rows(table)) {
    if (table.mode != "timing") break;
    if (best == nullptr) {
      out += fmt::format("\n{}: no point ran\n", gpu);
      continue;
    }
    out += fmt::format("\nbest on {}: point {} ({}): {} cycles, {:.3f} us, {:.2f}x over the first point\n", gpu,
                       best->point, point_label(*best, swept, false), best->cycles, best->microseconds,
                       speedup(table, *best));
    for (const auto& r : table.rows) {
      if (r.gpu != gpu || &r == best || r.status != PointStatus::Ok || !r.timed) continue;
      std::string causes;
      for (const auto& w : why_slower(r, *best)) causes += (causes.empty() ? "" : "; ") + w;
      out += fmt::format("  point {} ({}): {:.2f}x slower: {}\n", r.point, point_label(r, swept, false),
                         r.microseconds / best->microseconds, causes);
    }
  }
  const auto bad = std::count_if(table.rows.begin(), table.rows.end(),
                                 [](const SweepRow& r) { return r.status != PointStatus::Ok; });
  if (bad > 0) {
    out += fmt::format("\n{} of {} point(s) did not run cleanly (not ranked):\n", bad, table.rows.size());
    for (const auto& r : table.rows)
      if (r.status != PointStatus::Ok)
        out += fmt::format("  point {} ({}): {}: {}\n", r.point, point_label(r, swept, true), status_name(r.status),
                           first_line(r.reason));
  }
  return out;
}

std::string format_sweep_csv(const SweepTable& table) {
  const auto swept = swept_params(table);
  std::string out = "point";
  for (const auto& name : swept) out += "," + csv_field(name);
  out +=
      ",gpu,status,warps,blocks,waves,occupancy,limiter,instructions_per_output,global_loads_per_output,"
      "simt_efficiency,cycles,microseconds,speedup,reason\n";
  for (const auto& r : table.rows) {
    out += std::to_string(r.point);
    for (const auto& name : swept) out += "," + csv_field(r.param(name));
    out += fmt::format(",{},{}", csv_field(r.gpu), status_name(r.status));
    if (r.ran)
      out += fmt::format(",{},{},{:.6f},{:.6f},{},{:.6f},{:.6f},{:.6f}", r.warps, r.blocks, r.waves, r.occupancy,
                         csv_field(r.limiter), r.instructions_per_output(), r.loads_per_output(), r.simt_efficiency());
    else
      out += ",,,,,,,,";
    if (r.ran && r.timed)
      out += fmt::format(",{},{:.6f},{:.6f}", r.cycles, r.microseconds, speedup(table, r));
    else
      out += ",,,";
    out += "," + csv_field(r.reason) + "\n";
  }
  return out;
}

nlohmann::json sweep_to_json(const SweepTable& table) {
  const auto swept = swept_params(table);
  nlohmann::json j;
  j["scenario"] = table.scenario;
  j["mode"] = table.mode;
  j["swept"] = swept;
  auto& fixed = j["fixed"] = nlohmann::json::object();
  for (const auto& [k, v] : fixed_params(table)) fixed[k] = v;
  auto& points = j["points"] = nlohmann::json::array();
  for (const auto& r : table.rows) {
    nlohmann::json p{{"point", r.point}, {"gpu", r.gpu}, {"status", status_name(r.status)}, {"reason", r.reason}};
    auto& params = p["params"] = nlohmann::json::object();
    for (const auto& name : swept) params[name] = r.param(name);
    if (r.ran) {
      p.update({{"warps", r.warps},
                {"blocks", r.blocks},
                {"thread_instructions", r.thread_instructions},
                {"global_loads", r.global_loads},
                {"outputs", r.outputs},
                {"instructions_per_output", r.instructions_per_output()},
                {"global_loads_per_output", r.loads_per_output()},
                {"simt_efficiency", r.simt_efficiency()}});
      if (r.timed)
        p.update({{"waves", r.waves},
                  {"occupancy", r.occupancy},
                  {"limiter", r.limiter},
                  {"blocks_per_sm", r.blocks_per_sm},
                  {"sms", r.sms},
                  {"cycles", r.cycles},
                  {"microseconds", r.microseconds},
                  {"speedup", speedup(table, r)}});
    }
    points.push_back(std::move(p));
  }
  auto& best = j["best"] = nlohmann::json::array();
  for (const auto& [gpu, b] : best_rows(table)) {
    nlohmann::json entry{{"gpu", gpu}, {"point", b ? nlohmann::json(b->point) : nlohmann::json(nullptr)}};
    auto& others = entry["others"] = nlohmann::json::array();
    if (b != nullptr)
      for (const auto& r : table.rows)
        if (r.gpu == gpu && &r != b && r.status == PointStatus::Ok && r.timed)
          others.push_back(
              {{"point", r.point}, {"slower", r.microseconds / b->microseconds}, {"why", why_slower(r, *b)}});
    best.push_back(std::move(entry));
  }
  auto& invalid = j["not_ok"] = nlohmann::json::array();
  for (const auto& r : table.rows)
    if (r.status != PointStatus::Ok) invalid.push_back(r.point);
  return j;
}

}  // namespace warpsim::report
