// The immediate-post-dominator reconvergence stack (as on pre-Volta NVIDIA GPUs and GPGPU-Sim).
#pragma once
#include <vector>

#include "sim/reconvergence.hpp"

namespace warpsim::sim {

// Entries (pc, reconvergence pc, mask); the top runs. A divergent branch turns the top into the
// reconvergence entry (pc = reconvergence pc) and pushes the not-taken path, then the taken path,
// so the taken path runs first. A path whose pc already is the reconvergence pc is not pushed. An
// entry is popped when its pc reaches its reconvergence pc or its lanes have all exited. Lanes that
// reach a barrier before the rest of the warp leave every entry and wait; when the barrier releases
// (the rest of the warp exited or waits too) they form one new entry.
class IpdomStack final : public Reconvergence {
 public:
  void reset(std::uint32_t entry_pc, std::uint64_t lanes) override;
  void on_branch(std::uint32_t pc, std::uint64_t taken, std::uint64_t not_taken, std::uint32_t target_pc,
                 std::uint32_t fallthrough_pc, std::uint32_t reconvergence_pc) override;
  void on_exit(std::uint64_t lanes) override;
  void advance(std::uint32_t from_pc, std::uint32_t pc) override;
  bool park(std::uint64_t lanes, std::uint32_t resume_pc) override;
  void unpark() override;
  SimtPath current() const override;
  std::uint32_t watch_pc() const override;
  std::uint32_t depth() const override { return static_cast<std::uint32_t>(stack_.size()); }

 private:
  struct Entry {
    std::uint32_t pc;
    std::uint32_t reconvergence_pc;
    std::uint64_t mask;
  };
  void settle();  // pops entries that reached their reconvergence pc or lost all their lanes

  std::vector<Entry> stack_;
  SimtPath parked_;  // lanes waiting at a barrier, out of every entry
};

}  // namespace warpsim::sim
