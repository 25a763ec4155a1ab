// The sweep table (warpsim sweep, docs/sweep.md): one row per point of a parameter sweep, built
// from the JSON report of `warpsim run` whether the point ran in this process or as a job, and its
// printers (text with the best-point summary, CSV, JSON, an SVG plot).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpsim::report {

enum class PointStatus { Ok, Invalid, Failed };

struct SweepRow {
  std::size_t point = 0;                                    // 1-based, in sweep order
  std::vector<std::pair<std::string, std::string>> params;  // every parameter of the run, by name
  std::string gpu;                                          // the --gpu item ("-" in functional mode)
  PointStatus status = PointStatus::Ok;
  std::string reason;                   // why the point is invalid or failed
  bool ran = false;                     // the figures below hold values
  bool timed = false;                   // the timing figures below hold values
  std::uint64_t warps = 0, blocks = 0;  // summed over the launches
  std::uint64_t thread_instructions = 0, lane_slots = 0;
  std::uint64_t global_loads = 0;  // thread-level ld.global (active lanes)
  std::uint64_t outputs = 0;       // elements of the last buffer read back
  // Of the launch with the most cycles (the first launch in functional mode):
  double waves = 0;      // blocks / (blocks per SM x SMs)
  double occupancy = 0;  // theoretical
  std::string limiter;
  std::uint32_t blocks_per_sm = 0, sms = 0;
  std::uint64_t cycles = 0;  // summed over the launches
  double microseconds = 0;

  double instructions_per_output() const { return outputs ? double(thread_instructions) / double(outputs) : 0.0; }
  double loads_per_output() const { return outputs ? double(global_loads) / double(outputs) : 0.0; }
  double simt_efficiency() const { return lane_slots ? double(thread_instructions) / double(lane_slots) : 0.0; }
  std::string param(const std::string& name) const;
};

struct SweepTable {
  std::string scenario;
  std::string mode;  // "timing" or "functional"
  std::vector<SweepRow> rows;
};

// Fills the figures of `row` (point, params and gpu already set) from one `warpsim run --format
// json` report; a failed host check marks the row Failed.
void fill_row(SweepRow& row, const nlohmann::json& run);
// The reason a `warpsim run` gave on standard error ("warpsim: error: REASON").
std::string reason_from_stderr(const std::string& err);

// Parameters that take more than one value over the rows, outermost first (the one whose value
// changes least often along the rows), and the ones that do not.
std::vector<std::string> swept_params(const SweepTable& table);
std::vector<std::pair<std::string, std::string>> fixed_params(const SweepTable& table);
// Predicted time of the row over that of the first point of its GPU that ran (0 when none).
double speedup(const SweepTable& table, const SweepRow& row);
// Per GPU (in row order): the index of the fastest valid row, or none.
std::vector<std::pair<std::string, const SweepRow*>> best_rows(const SweepTable& table);
// Why `row` is slower than `best`, one phrase per cause found.
std::vector<std::string> why_slower(const SweepRow& row, const SweepRow& best);

std::string format_sweep_text(const SweepTable& table);
std::string format_sweep_csv(const SweepTable& table);
nlohmann::json sweep_to_json(const SweepTable& table);
// Predicted time against the first swept parameter, one line per GPU (and per value of the other
// swept parameters). Throws Error (usage) when no parameter varies or nothing was timed.
std::string format_sweep_svg(const SweepTable& table);

}  // namespace warpsim::report
