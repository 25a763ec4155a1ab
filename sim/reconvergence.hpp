// How a warp's lanes split at branches and meet again, behind one small interface so models can be
// compared (ipdom: the textbook stack; frontier: thread frontiers; volta: convergence barriers, the
// H100's rule). The warp runs its current path
// straight through and consults the model only at divergent branches, at exits, at a barrier some
// of its lanes reach without the others, when its pc reaches watch_pc(), and when a uniform branch
// lands past skip_pc().
#pragma once
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/config.hpp"

namespace warpsim::sim {

// A pc no instruction has: "no reconvergence point to watch for".
constexpr std::uint32_t kNoPc = std::numeric_limits<std::uint32_t>::max();

struct SimtPath {
  std::uint32_t pc = kNoPc;
  std::uint64_t mask = 0;  // 0: every lane of the warp has exited
  bool exits = false;      // lanes of a deferred guarded exit (defer_exit): they leave now
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
  // A guarded exit at `pc` splits the current path: true when the model lets the other lanes run
  // first (from pc + 1) and keeps `lanes` as a path that exits when it becomes current. False: the
  // caller calls on_exit(lanes) now.
  virtual bool defer_exit(std::uint32_t /*pc*/, std::uint64_t /*lanes*/) { return false; }
  // The current path moved on from `from_pc` to `pc` without diverging (straight-line code or a
  // uniform branch).
  virtual void advance(std::uint32_t from_pc, std::uint32_t pc) = 0;
  // The current path's `lanes` reached a barrier while other lanes of the warp are elsewhere: they
  // wait (resuming at resume_pc) and another path runs. False: lanes already wait at another barrier.
  virtual bool park(std::uint64_t lanes, std::uint32_t resume_pc) = 0;
  // The barrier released: the waiting lanes may run again.
  virtual void unpark() = 0;
  // The current path; mask 0 when every lane has exited or waits at a barrier.
  virtual SimtPath current() const = 0;
  // The pc at which the warp must call advance() (the current path's reconvergence point).
  virtual std::uint32_t watch_pc() const = 0;
  // A uniform branch landing on this pc or above must call advance() (kNoPc: never; 0: always).
  virtual std::uint32_t skip_pc() const { return kNoPc; }
  // Entries the model holds now (the IPDOM stack's depth).
  virtual std::uint32_t depth() const = 0;
};

class ConvergenceMap;
// The one factory of reconvergence models; `map` (the launch's control flow) outlives the model.
std::unique_ptr<Reconvergence> make_reconvergence(ReconvergenceModel model, const ConvergenceMap& map);
// "ipdom", "frontier", "volta"; parse_reconvergence gives nothing for an unknown name.
std::string_view reconvergence_name(ReconvergenceModel model);
std::optional<ReconvergenceModel> parse_reconvergence(std::string_view name);
// Every model, the default first (tests compare them all).
std::vector<ReconvergenceModel> reconvergence_models();

}  // namespace warpsim::sim
