// Thread frontiers (Diamos et al., MICRO'11), the reconvergence rule of Volta and later as measured
// on an H100 (docs/design.md "How the H100 reconverges"): the warp's lanes form groups by pc; the
// group with the lowest pc runs, and groups that reach the same pc merge. There is no stack and no
// reconvergence point: lanes meet wherever their paths cross in code order.
#pragma once
#include <vector>

#include "sim/reconvergence.hpp"

namespace warpsim::sim {

class ThreadFrontier final : public Reconvergence {
 public:
  void reset(std::uint32_t entry_pc, std::uint64_t lanes) override;
  void on_branch(std::uint32_t pc, std::uint64_t taken, std::uint64_t not_taken, std::uint32_t target_pc,
                 std::uint32_t fallthrough_pc, std::uint32_t reconvergence_pc) override;
  void on_exit(std::uint64_t lanes) override;
  void advance(std::uint32_t from_pc, std::uint32_t pc) override;
  bool park(std::uint64_t lanes, std::uint32_t resume_pc) override;
  void unpark() override;
  SimtPath current() const override;
  std::uint32_t watch_pc() const override { return watch_; }
  std::uint32_t skip_pc() const override { return watch_; }
  std::uint32_t depth() const override { return static_cast<std::uint32_t>(groups_.size()); }

 private:
  void pick();  // merges groups at one pc, drops empty ones, picks the lowest pc, sets watch_

  std::vector<SimtPath> groups_;  // groups_[0] runs
  SimtPath parked_;               // lanes waiting at a barrier
  std::uint32_t watch_ = kNoPc;   // the lowest pc of the other groups
};

}  // namespace warpsim::sim
