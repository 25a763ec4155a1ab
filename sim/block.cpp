#include "sim/block.hpp"

#include <algorithm>

namespace warpsim::sim {

Block::Block(const Program& program, const Config& config, const Dim3& block_dim, std::uint32_t shared_bytes)
    : shared(shared_bytes), program_(program) {
  const std::uint32_t ws = program.warp_size;
  const std::uint64_t threads = block_dim.count();
  const auto count = static_cast<std::uint32_t>((threads + ws - 1) / ws);
  r32_ = std::make_unique_for_overwrite<std::uint32_t[]>(std::size_t{count} * program.registers32 * ws);
  r64_ = std::make_unique_for_overwrite<std::uint64_t[]>(std::size_t{count} * program.registers64 * ws);
  predicates_.assign(std::size_t{count} * program.predicates, 0);
  local.assign(std::size_t{count} * ws * program.local_bytes, std::byte{0});
  warps.resize(count);
  for (std::uint32_t w = 0; w < count; ++w) {
    Warp& warp = warps[w];
    warp.index = w;
    warp.lanes = static_cast<std::uint32_t>(std::min<std::uint64_t>(ws, threads - std::uint64_t{w} * ws));
    warp.exist = warp.lanes == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << warp.lanes) - 1;
    const std::uint64_t all = ws == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ws) - 1;
    warp.padding = all & ~warp.exist;
    warp.paths = make_reconvergence(config.reconvergence, program.convergence);
    warp.r32 = r32_.get() + std::size_t{w} * program.registers32 * ws;
    warp.r64 = r64_.get() + std::size_t{w} * program.registers64 * ws;
    warp.predicates = predicates_.data() + std::size_t{w} * program.predicates;
    warp.branch_executions.assign(program.branch_pcs.size(), 0);
    // The same in every block: thread and lane indices (the specials are read-only).
    const SpecialSlots& sp = program.special;
    // Thread t = w * ws + l is (t % x, t / x % y, t / (x * y)): divided once, then counted up.
    const std::uint64_t t0 = std::uint64_t{w} * ws;
    auto x = static_cast<std::uint32_t>(t0 % block_dim.x);
    auto y = static_cast<std::uint32_t>(t0 / block_dim.x % block_dim.y);
    auto z = static_cast<std::uint32_t>(t0 / (std::uint64_t{block_dim.x} * block_dim.y));
    for (std::uint32_t l = 0; l < ws; ++l) {
      const bool exists = l < warp.lanes;
      warp.r32[sp.tid[0] + l] = exists ? x : 0;
      warp.r32[sp.tid[1] + l] = exists ? y : 0;
      warp.r32[sp.tid[2] + l] = exists ? z : 0;
      warp.r32[sp.laneid + l] = l;
      warp.r32[sp.warpid + l] = w;
      if (++x == block_dim.x) {
        x = 0;
        if (++y == block_dim.y) {
          y = 0;
          ++z;
        }
      }
    }
  }
}

void Block::start(std::uint64_t linear_id, const Dim3& block_index) {
  linear = linear_id;
  index = block_index;
  issue_counter = 0;
  std::fill(shared.begin(), shared.end(), std::byte{0});
  std::fill(local.begin(), local.end(), std::byte{0});
  const std::uint32_t ws = program_.warp_size;
  const SpecialSlots& sp = program_.special;
  for (Warp& w : warps) {
    std::fill_n(w.r32, std::size_t{program_.declared32} * ws, 0u);
    std::fill_n(w.r64, std::size_t{program_.declared64} * ws, std::uint64_t{0});
    std::fill_n(w.predicates, program_.predicates, std::uint64_t{0});
    std::fill_n(w.r32 + sp.ctaid[0], ws, block_index.x);
    std::fill_n(w.r32 + sp.ctaid[1], ws, block_index.y);
    std::fill_n(w.r32 + sp.ctaid[2], ws, block_index.z);
    w.state = Warp::State::Ready;
    w.alive = w.exist;
    w.paths->reset(0, w.exist);
    const SimtPath p = w.paths->current();
    w.pc = p.pc;
    w.active = p.mask;
    w.watch = w.paths->watch_pc();
    w.skip = w.paths->skip_pc();
    w.path_order.clear();
    w.issued = w.active_sum = w.exec_sum = w.exited_sum = 0;
    w.exited_lanes = 0;
    w.divergent_branches = 0;
    w.max_stack_depth = w.paths->depth();
    w.first_issue = w.last_issue = 0;
    w.first_cycle = w.last_cycle = 0;
    std::fill(w.branch_executions.begin(), w.branch_executions.end(), 0u);
    w.trace.clear();
  }
}

}  // namespace warpsim::sim
