// What the convergence-barrier model (sim/convergence_barriers.cpp) needs to know about a kernel's
// control flow, computed once per launch from isa::KernelAnalysis: which blocks are joins and loop
// headers, which edges are back edges, and which blocks can still reach which (loops collapsed).
#pragma once
#include <cstdint>
#include <vector>

#include "isa/analysis.hpp"

namespace warpsim::sim {

class ConvergenceMap {
 public:
  ConvergenceMap() = default;
  explicit ConvergenceMap(const isa::KernelAnalysis& analysis);

  std::uint32_t block_of(std::uint32_t pc) const { return pc < block_of_.size() ? block_of_[pc] : kNone; }
  // The first pc after `pc` where a path may have to wait (a join's or a loop header's first
  // instruction); kNone when there is none.
  std::uint32_t next_stop(std::uint32_t pc) const { return pc + 1 < next_stop_.size() ? next_stop_[pc + 1] : kNone; }
  // Blocks entered by two or more forward edges, and the blocks where a loop's exits meet: the
  // hardware's convergence barriers sit there.
  bool is_join(std::uint32_t block) const { return join_[block]; }
  // The loop whose header `block` is (index into loops), or kNone.
  std::uint32_t loop_of_header(std::uint32_t block) const { return header_loop_[block]; }
  bool in_loop(std::uint32_t loop, std::uint32_t block) const { return loop_blocks_[loop][block]; }
  // The edge from -> to goes back to the header of a loop that holds `from`.
  bool back_edge(std::uint32_t from, std::uint32_t to) const {
    const std::uint32_t l = header_loop_[to];
    return l != kNone && loop_blocks_[l][from];
  }
  // A lane in block `from` may still enter block `to` in the current iteration of every loop that
  // holds `to` (forward edges, and leaving any loop that holds `from` but not `to`).
  bool reaches(std::uint32_t from, std::uint32_t to) const { return reach_[std::size_t{from} * blocks_ + to]; }

  static constexpr std::uint32_t kNone = 0xffffffffu;

 private:
  std::uint32_t blocks_ = 0;
  std::vector<std::uint32_t> block_of_;
  std::vector<std::uint32_t> next_stop_;  // per pc, one past the end included
  std::vector<bool> join_;
  std::vector<std::uint32_t> header_loop_;
  std::vector<std::vector<bool>> loop_blocks_;
  std::vector<bool> reach_;  // blocks x blocks
};

}  // namespace warpsim::sim
