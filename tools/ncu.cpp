#include "tools/ncu.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <set>

#include <fmt/format.h>

namespace warpsim::cli {

const char* const kNcuMetrics[4] = {
    "smsp__warps_launched.sum",
    "smsp__thread_inst_executed_per_inst_executed.ratio",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "smsp__sass_branch_targets_threads_uniform.sum",
};

namespace {

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Splits one CSV line with "quoted" fields.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  out.push_back(field);
  return out;
}

}  // namespace

nlohmann::json parse_ncu_csv(const std::string& text) {
  nlohmann::json metrics = nlohmann::json::object();
  std::vector<std::string> header;
  std::size_t name_col = 0, value_col = 0, id_col = 0;
  std::string first_id;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line[0] != '"') continue;  // ncu's own ==PROF== lines and program output
    auto fields = csv_fields(line);
    if (header.empty()) {
      if (std::find(fields.begin(), fields.end(), "Metric Name") == fields.end()) continue;
      header = fields;
      for (std::size_t i = 0; i < header.size(); ++i) {
        if (header[i] == "Metric Name") name_col = i;
        if (header[i] == "Metric Value") value_col = i;
        if (header[i] == "ID") id_col = i;
      }
      continue;
    }
    if (fields.size() != header.size()) continue;
    if (first_id.empty()) first_id = fields[id_col];
    if (fields[id_col] != first_id) continue;
    metrics[fields[name_col]] = fields[value_col];
  }
  return metrics;
}

nlohmann::json collect_ncu(const std::string& target, const std::vector<std::string>& validate_args,
                           const kernels::Outcome& predicted) {
  // The run command: validate's arguments without its own options.
  static const std::set<std::string> own_with_value{"--save", "--replay", "--format", "-f", "--max-mismatches", "--backend"};
  std::vector<std::string> run{"run"};
  for (std::size_t i = 0; i < validate_args.size(); ++i) {
    const auto& a = validate_args[i];
    if (a == "--ncu") continue;
    if (own_with_value.count(a)) {
      ++i;
      continue;
    }
    if (a.rfind("--save=", 0) == 0 || a.rfind("--replay=", 0) == 0 || a.rfind("--format=", 0) == 0) continue;
    run.push_back(a);
  }
  run.push_back("--backend");
  run.push_back("cuda");
  (void)target;
  char self[4096] = {};
  const auto n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return {{"error", "cannot find this program's path for ncu"}};
  std::string metrics;
  for (const char* m : kNcuMetrics) metrics += (metrics.empty() ? "" : ",") + std::string(m);
  std::string command = fmt::format("ncu --csv --launch-count 1 --metrics {} {}", metrics, quote(self));
  for (const auto& a : run) command += " " + quote(a);
  command += " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {{"error", "could not start ncu"}, {"command", command}};
  std::string output;
  std::array<char, 4096> buffer{};
  while (const auto got = fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), got);
  const int status = pclose(pipe);
  auto parsed = parse_ncu_csv(output);
  if (parsed.empty())
    return {{"error", fmt::format("ncu gave no metrics (status {}): {}", status, output.substr(0, 400))}, {"command", command}};
  nlohmann::json simulator = nlohmann::json::object();
  if (!predicted.launches.empty()) {
    const auto& s = predicted.launches.front().result.stats;
    std::uint64_t divergent = 0, executions = 0;
    for (const auto& b : s.branches) {
      divergent += b.divergent_executions;
      executions += b.executions;
    }
    simulator[kNcuMetrics[0]] = std::to_string(s.warps_launched);
    simulator[kNcuMetrics[1]] = fmt::format("{:.2f} (IR instructions)", s.warp_instructions ? double(s.thread_instructions) / double(s.warp_instructions) : 0.0);
    simulator[kNcuMetrics[2]] = fmt::format("{} divergent IR branch executions", divergent);
    simulator[kNcuMetrics[3]] = fmt::format("{} uniform IR branch executions", executions - divergent);
  }
  return {{"metrics", parsed}, {"simulator", simulator}, {"command", command}};
}

}  // namespace warpsim::cli
