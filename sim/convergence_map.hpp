// What the convergence-barrier model (sim/convergence_barriers.cpp) needs to know about a kernel's
// control flow, computed once per launch from isa::KernelAnalysis: which blocks are joins and loop
// headers, which edges are back edges, and which blocks can still reach which (loops collapsed).
// It works on nodes: the kernel's blocks, plus one copy of an irreducible cycle per extra entry
// (sim/split_cfg.hpp); a kernel without irreducible control flow has one node per block.
#pragma once
#include <cstdint>
#include <vector>

#include "isa/analysis.hpp"

namespace warpsim::sim {

class ConvergenceMap {
 public:
  ConvergenceMap() = default;
  // `spin_heads`: per pc, the first instruction of a spin loop's header (sim/spin_loops.hpp); empty: none.
  explicit ConvergenceMap(const isa::KernelAnalysis& analysis, std::vector<bool> spin_heads = {});

  // The node of the block holding `pc` (its first copy), or kNone.
  std::uint32_t block_of(std::uint32_t pc) const { return pc < block_of_.size() ? block_of_[pc] : kNone; }
  // Whether some cycle was split: then a path's node depends on how it came, not only on its pc.
  bool split() const { return split_; }
  // The node holding `pc` in the copy `near` is in (kNone: the first copy).
  std::uint32_t locate(std::uint32_t near, std::uint32_t pc) const {
    return split_ ? locate_split(near, pc) : block_of(pc);
  }
  // The node lanes reach when they go from `from_pc` (in node `from`; kNoPc: not along an edge) to `pc`.
  std::uint32_t step(std::uint32_t from, std::uint32_t from_pc, std::uint32_t pc) const {
    return split_ ? step_split(from, from_pc, pc) : block_of(pc);
  }
  // The first pc after `pc` where a path may have to wait (a join's or a loop header's first
  // instruction); kNone when there is none.
  std::uint32_t next_stop(std::uint32_t pc) const { return pc + 1 < next_stop_.size() ? next_stop_[pc + 1] : kNone; }
  // Nodes entered by two or more forward edges, and the nodes where a loop's exits meet: the
  // hardware's convergence barriers sit there.
  bool is_join(std::uint32_t node) const { return join_[node]; }
  // Lanes that start at `pc` run a YIELD (the head of a spin loop): the barriers they belong to may
  // clear without them.
  bool yields_at(std::uint32_t pc) const { return pc < spin_heads_.size() && spin_heads_[pc]; }
  bool has_spin_loops() const { return has_spin_loops_; }
  // The loop whose header `node` is, or kNone.
  std::uint32_t loop_of_header(std::uint32_t node) const { return header_loop_[node]; }
  bool in_loop(std::uint32_t loop, std::uint32_t node) const { return loop_nodes_[loop][node]; }
  // The edge from -> to goes back to the header of a loop that holds `from`.
  bool back_edge(std::uint32_t from, std::uint32_t to) const {
    const std::uint32_t l = header_loop_[to];
    return l != kNone && loop_nodes_[l][from];
  }
  // A lane in node `from` may still enter node `to` in the current iteration of every loop that
  // holds `to` (forward edges, and leaving any loop that holds `from` but not `to`).
  bool reaches(std::uint32_t from, std::uint32_t to) const { return reach_[std::size_t{from} * nodes_ + to]; }

  static constexpr std::uint32_t kNone = 0xffffffffu;

 private:
  void build(const isa::Cfg& cfg, const isa::DominatorTree& postdominators, const std::vector<isa::Loop>& loops);
  std::uint32_t locate_split(std::uint32_t near, std::uint32_t pc) const;
  std::uint32_t step_split(std::uint32_t from, std::uint32_t from_pc, std::uint32_t pc) const;

  std::uint32_t nodes_ = 0, blocks_ = 0;
  bool split_ = false;
  std::vector<std::uint32_t> block_of_;
  std::vector<std::uint32_t> next_stop_;  // per pc, one past the end included
  std::vector<bool> join_;
  std::vector<std::uint32_t> header_loop_;
  std::vector<std::vector<bool>> loop_nodes_;
  std::vector<bool> reach_;       // nodes x nodes
  bool has_spin_loops_ = false;
  std::vector<bool> spin_heads_;  // per pc
  // Split kernels only: per node its block's first pc, its successors and its copy; per copy and
  // block the node (kNone: the block is not in that copy).
  std::vector<std::uint32_t> begin_, copy_;
  std::vector<std::vector<std::uint32_t>> successors_;
  std::vector<std::uint32_t> copy_node_;
};

}  // namespace warpsim::sim
