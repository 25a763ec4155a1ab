// The L1's hold on the SM's LSU for a global load (stop 35), asserted from the JSON report of
// calibrate's own L1 microbenchmarks (kernels/microbench/mb_l1.kir) on one SM: with
// memory.l1_read_bytes a load's data term is the bytes its lanes read and its data-bank passes
// count from 2 lines; memory.l1_request_cycles is a floor on a load's hold, memory.l1_replay_cycles
// what bank conflicts add past the passes (both 0 on the H100: docs/validation/timing.md "Stop 35").
// None changes what a kernel computes or how many instructions it runs.
#include <catch2/catch.hpp>

#include "tests/kernels/timing_test_util.hpp"

using namespace warpsim::timing_test;

namespace {
const std::string kFile = std::string(WARPSIM_KERNELS_DIR) + "/microbench/mb_l1.kir";

std::vector<std::string> with_sets(std::vector<std::string> args, const std::vector<std::string>& sets) {
  args.insert(args.end(), {"--gpu-set", "gpu.sms=1", "--gpu-set", "memory.l1_request_cycles=0", "--gpu-set",
                           "memory.l1_replay_cycles=0"});
  for (const auto& s : sets) args.insert(args.end(), {"--gpu-set", s});
  return args;
}

// 32 warps on one SM read 2^16 f32 through gather_mul4: word (i x mult) & mask, four loads in flight.
nlohmann::json gather(const std::string& mask, const std::string& mult, const std::vector<std::string>& sets) {
  return run_json(with_sets({kFile, "--kernel", "gather_mul4", "--grid", "1", "--block", "1024", "--arg", "m=65536",
                             "--arg", "mask=" + mask, "--arg", "mult=" + mult, "--buffer", "in=f32[16384]:random",
                             "--buffer", "out=f32[1024]:zeros"},
                            sets));
}

// The same with rows_read4: 4 rows 33 lines apart, 8 words of each (4 passes of the same 8 banks).
nlohmann::json rows4(const std::vector<std::string>& sets) {
  return run_json(with_sets({kFile, "--kernel", "rows_read4", "--grid", "1", "--block", "1024", "--arg", "m=65536",
                             "--arg", "mask=16383", "--arg", "rows=4", "--arg", "shift=3", "--arg", "pitch=1056",
                             "--buffer", "in=f32[16384]:random", "--buffer", "out=f32[1024]:zeros"},
                            sets));
}

}  // namespace

TEST_CASE("a global load's data term is the bytes its lanes read (memory.l1_read_bytes)", "[timing]") {
  // 32 distinct words of an 8-line table a load (gather-l1-b8): about 23 sectors, 6 cycles of the
  // LSU counted by sectors, 3 (its lookups) by the 128 bytes read. A coalesced load (mask 31, one
  // line) reads all 4 sectors it touches: the same either way.
  const auto sectors = gather("255", "2654435761", {"memory.l1_read_bytes=0"}),
             bytes = gather("255", "2654435761", {"memory.l1_read_bytes=1"});
  CHECK(double(cycles(bytes)) < 0.75 * double(cycles(sectors)));
  check_same_work(sectors, bytes);
  CHECK(cycles(gather("31", "1", {"memory.l1_read_bytes=0"})) == cycles(gather("31", "1", {"memory.l1_read_bytes=1"})));
  check_refused({{"l1_read_bytes=2", "'memory.l1_read_bytes': '2' must be 0 or 1"}});
}

TEST_CASE("with memory.l1_read_bytes a load's bank passes count from 2 lines", "[timing]") {
  // 4 rows of 8 words, the rows' words in the same 8 banks (rows-l1-r4): 4 lines, 4 sectors, so
  // 2 cycles of lookups and 1 of data; its 4 passes count only with the parameter set, so only then
  // does a replay past its passes (memory.l1_replay_cycles) hold the LSU longer. 32 warps, 2,048
  // loads a warp-set: 4 more cycles a load add at least 3 x 2,048.
  const auto few = rows4({"memory.l1_read_bytes=0"}), from_two = rows4({"memory.l1_read_bytes=1"});
  CHECK(cycles(rows4({"memory.l1_read_bytes=0", "memory.l1_replay_cycles=4"})) == cycles(few));
  CHECK(cycles(rows4({"memory.l1_read_bytes=1", "memory.l1_replay_cycles=4"})) > cycles(from_two) + 3 * 2048);
  // From 2 lines: lanes 2 words apart (stride-l1-s2), 2 passes of 16 banks over 2 lines.
  const auto two = gather("16383", "2", {"memory.l1_read_bytes=1"});
  CHECK(cycles(gather("16383", "2", {"memory.l1_read_bytes=0", "memory.l1_replay_cycles=4"})) ==
        cycles(gather("16383", "2", {"memory.l1_read_bytes=0"})));
  CHECK(cycles(gather("16383", "2", {"memory.l1_read_bytes=1", "memory.l1_replay_cycles=4"})) > cycles(two) + 3 * 2048);
  check_same_work(few, from_two);
}

TEST_CASE("a global load's floor and its bank conflicts' replay (memory.l1_request_cycles, l1_replay_cycles)",
          "[timing]") {
  // A coalesced load (one line, one pass) holds the LSU 1 cycle, or the floor; the 4-pass rows
  // load holds it 4 cycles, or 4 + the replay. 32 warps make 2,048 loads on the SM: each cycle added
  // to every load adds about 2,048 cycles once the LSU is what limits the kernel.
  const std::vector<std::string> base{"memory.l1_read_bytes=1"};
  auto with = [&](const std::string& set) {
    auto s = base;
    s.push_back(set);
    return s;
  };
  const auto plain = gather("31", "1", base), floored = gather("31", "1", with("memory.l1_request_cycles=6"));
  CHECK(cycles(floored) >= 6 * 2048);  // the LSU's 2,048 loads, 6 cycles each
  CHECK(cycles(floored) > cycles(plain) + 2 * 2048);
  check_same_work(plain, floored);
  const auto passes = rows4(base), replayed = rows4(with("memory.l1_replay_cycles=4"));
  CHECK(cycles(replayed) > cycles(passes) + 3 * 2048);
  check_same_work(passes, replayed);
  // A conflict-free load is not replayed; a floor under its hold changes nothing.
  CHECK(cycles(gather("31", "1", with("memory.l1_replay_cycles=4"))) == cycles(plain));
  CHECK(cycles(gather("31", "1", with("memory.l1_request_cycles=1"))) == cycles(plain));
  check_refused({{"l1_request_cycles=65", "'memory.l1_request_cycles': '65' must be at most 64"},
                 {"l1_replay_cycles=65", "'memory.l1_replay_cycles': '65' must be at most 64"}});
}
