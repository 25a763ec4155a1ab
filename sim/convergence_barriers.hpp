// Convergence barriers, the reconvergence rule of Volta and later as measured on an H100
// (docs/design.md "How the H100 reconverges"). Every lane has its own pc; lanes at one pc form a
// group. At a divergent branch the side with fewer lanes runs first. A group entering a join (a
// block two forward edges enter) waits while lanes of the warp that may still enter it are
// elsewhere (the compiler's BSSY/BSYNC); a group coming back to a loop header waits until every
// lane still in the loop has finished the iteration (the per-iteration barrier); lanes that leave
// a loop or exit never hold anyone back. A guarded exit that splits a group is a branch too: when
// the exiting lanes are not the fewer, they leave after the others. Lanes that entered an
// irreducible cycle through different entries are in different copies of it (sim/split_cfg.hpp)
// and do not meet inside it. Groups deferred at one pc merge when a group of two lanes or more runs
// (the CUDA build's record diverges there). A group at the head of a spin loop yields: another group
// runs, and no barrier waits for it. When every group waits, the most recently deferred one runs.
#pragma once
#include <vector>

#include "sim/convergence_map.hpp"
#include "sim/reconvergence.hpp"

namespace warpsim::sim {

class ConvergenceBarriers final : public Reconvergence {
 public:
  explicit ConvergenceBarriers(const ConvergenceMap& map) : map_(map) {}
  void reset(std::uint32_t entry_pc, std::uint64_t lanes) override;
  void on_branch(std::uint32_t pc, std::uint64_t taken, std::uint64_t not_taken, std::uint32_t target_pc,
                 std::uint32_t fallthrough_pc, std::uint32_t reconvergence_pc) override;
  void on_exit(std::uint64_t lanes) override;
  bool defer_exit(std::uint32_t pc, std::uint64_t lanes) override;
  void advance(std::uint32_t from_pc, std::uint32_t pc) override;
  bool park(std::uint64_t lanes, std::uint32_t resume_pc) override;
  void unpark() override;
  SimtPath current() const override { return running_; }
  std::uint32_t watch_pc() const override { return watch_; }
  std::uint32_t skip_pc() const override { return skip_; }
  std::uint32_t depth() const override { return static_cast<std::uint32_t>(groups_.size()); }

 private:
  enum class Wait : std::uint8_t { None, Join, Loop };
  struct Group {
    std::uint32_t pc;
    std::uint64_t mask;
    Wait wait;
    std::uint32_t node;    // ConvergenceMap's node: the block, and in a split kernel which copy of it
    bool exits = false;    // lanes of a guarded exit, deferred: they leave when they run
    bool yielded = false;  // ran a spin loop's YIELD and has not run since: no barrier waits for it
    // The join whose barrier cleared while these lanes were yielded: they pass it unsynchronised.
    std::uint32_t released = ConvergenceMap::kNone;
  };
  // `lanes` that were in node `from` arrive at `pc` coming from `from_pc` (kNoPc: not along an
  // edge); deferred arrivals go below the groups already waiting, so the one arriving first runs first.
  void arrive(std::uint32_t from, std::uint32_t from_pc, std::uint32_t pc, std::uint64_t lanes, bool run_now,
              std::uint32_t released = ConvergenceMap::kNone);
  bool may_run(std::size_t g) const;
  std::size_t yield(std::size_t chosen);  // a spin loop's YIELD: the group that runs instead of `chosen`
  std::size_t choose() const;  // the most recent group that may run; the back when none may
  void merge_deferred();       // merges the deferred groups that share a pc and node
  void pick();                 // drops empty groups, chooses the group that runs, sets watch_ and skip_

  const ConvergenceMap& map_;
  std::vector<Group> groups_;  // the back runs; the others wait or were deferred
  SimtPath running_;
  SimtPath parked_;  // lanes waiting at a bar.sync
  std::uint32_t parked_node_ = ConvergenceMap::kNone;
  std::uint32_t watch_ = kNoPc, skip_ = kNoPc;
  bool unmerged_ = false;  // a group was deferred where another waits since the last merge_deferred()
};

}  // namespace warpsim::sim
