// How a warp's lanes split at branches and meet again, behind one small interface so other models
// (convergence barriers, predication) can be added and compared. The warp runs its current path
// straight through and consults the model only at divergent branches, at exits, and when its pc
// reaches watch_pc(); uniform branches just move the current path and need no call.
#pragma once
#include <cstdint>
#include <limits>
#include <memory>

#include "sim/config.hpp"

namespace warpsim::sim {

// A pc no instruction has: "no reconvergence point to watch for".
constexpr std::uint32_t kNoPc = std::numeric_limits<std::uint32_t>::max();

struct SimtPath {
  std::uint32_t pc = kNoPc;
  std::uint64_t mask = 0;  // 0: every lane of the warp has exited
};

class Reconvergence {
 public:
  virtual ~Reconvergence() = default;
  // A fresh warp: `lanes` start together at `entry_pc`.
  virtual void reset(std::uint32_t entry_pc, std::uint64_t lanes) = 0;
  // The current path executed a branch at `pc`: `taken` lanes go to target_pc, `not_taken` lanes to
  // fallthrough_pc; both meet again at reconvergence_pc (isa::kExitPc: only when they exit).
  virtual void on_branch(std::uint32_t pc, std::uint64_t taken, std::uint64_t not_taken, std::uint32_t target_pc,
                         std::uint32_t fallthrough_pc, std::uint32_t reconvergence_pc) = 0;
  // `lanes` exited; they leave every pending path.
  virtual void on_exit(std::uint64_t lanes) = 0;
  // The current path moved on to `pc` without branching (straight-line code or a uniform branch).
  virtual void advance(std::uint32_t pc) = 0;
  virtual SimtPath current() const = 0;
  // The pc at which the warp must call advance() (the current path's reconvergence point).
  virtual std::uint32_t watch_pc() const = 0;
  // Entries the model holds now (the IPDOM stack's depth).
  virtual std::uint32_t depth() const = 0;
};

// The one factory of reconvergence models.
std::unique_ptr<Reconvergence> make_reconvergence(ReconvergenceModel model);

}  // namespace warpsim::sim
