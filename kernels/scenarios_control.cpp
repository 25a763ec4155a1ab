// The control-flow corpus (kernels/control/, docs/validation/reconvergence.md): kernels beyond the
// textbook that tell reconvergence models apart. One scenario class, parameterised by a table row:
// the kernel, its host reference and whether it takes extra buffers. Every kernel reads in[t]
// (random values below 16) and writes out[t]; t = blockIdx.x * blockDim.x + threadIdx.x.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <functional>

#include "kernels/registry.hpp"

namespace warpsim::kernels {

namespace {

using u32 = std::uint32_t;

// The launch as the host reference sees it.
struct Shape {
  u32 block = 0, blocks = 0, n = 0;
  const std::vector<u32>* in = nullptr;
  u32 tid(u32 t) const { return t % block; }
  u32 lane(u32 t) const { return tid(t) % 32; }
  // Global index of lane `l` in t's warp, or n when that lane does not exist.
  u32 lane_thread(u32 t, u32 l) const {
    const u32 base = t - lane(t);
    const u32 x = base + l;
    return l < 32 && x - t / block * block < block ? x : n;
  }
  u32 v(u32 t) const { return (*in)[t]; }
};

using Reference = std::function<u32(const Shape&, u32 t)>;
using BlockReference = std::function<void(const Shape&, std::vector<u32>& out)>;

struct ControlKernel {
  const char* name;
  const char* file;
  const char* description;
  Reference per_thread;  // out[t]; empty when block_ref is set
  BlockReference whole = {};
  bool extra_n = false;     // the kernel takes n after out
  bool flag_buffer = false;  // the kernel takes a per-warp flag buffer after out
};

// Lanes of t's warp for which `pred(thread)` holds (lanes that exist only).
u32 ballot(const Shape& s, u32 t, const std::function<bool(u32)>& pred) {
  u32 m = 0;
  for (u32 l = 0; l < 32; ++l) {
    const u32 x = s.lane_thread(t, l);
    if (x < s.n && pred(x)) m |= 1u << l;
  }
  return m;
}

u32 loop_break_continue(const Shape& s, u32 t) {
  u32 i = 0, acc = 0;
  const u32 lim = 4 * s.v(t) + 8;
  while (i < 16) {
    ++i;
    if ((t + i) % 4 == 0) continue;
    acc += i;
    if (acc > lim) break;
  }
  return acc;
}

u32 nested_break_outer(const Shape& s, u32 t) {
  u32 acc = 0;
  const u32 lim = 6 * s.v(t) + 10;
  for (u32 i = 0; i < 8; ++i) {
    for (u32 j = 0; j < 8; ++j) {
      acc += i * j + 1;
      if (acc > lim) return acc;
    }
    acc += 3;
  }
  return acc;
}

u32 nested_continue(const Shape& s, u32 t) {
  u32 acc = 0;
  const u32 lim = s.v(t) + 20;
  for (u32 i = 0; i < 6; ++i) {
    u32 j = 0;
    while (j < 6) {
      ++j;
      if ((i + j + t) % 3 == 0) continue;
      acc += j;
      if (acc > lim) break;
    }
    acc += 1;
  }
  return acc;
}

void early_return_barrier(const Shape& s, std::vector<u32>& out) {
  for (u32 t = 0; t < s.n; ++t) {
    const u32 tid = s.tid(t), base = t - tid;
    if (tid % 7 == 0) continue;
    u32 k = tid ^ 1;
    if (k % 7 == 0 || k >= s.block) k = tid;
    out[t] = s.v(base + k) + k + 1;
  }
}

void barrier_loop_exit(const Shape& s, std::vector<u32>& out) {
  for (u32 base = 0; base < s.n; base += s.block) {
    std::vector<u32> acc(s.block), partner(s.block);
    for (u32 tid = 0; tid < s.block; ++tid) {
      acc[tid] = s.v(base + tid);
      u32 k = tid ^ 2;
      if (k % 5 == 0 || k >= s.block) k = tid;
      partner[tid] = k;
    }
    for (int round = 0; round < 3; ++round) {
      std::vector<u32> next(acc);
      for (u32 tid = 0; tid < s.block; ++tid) next[tid] = acc[tid] + acc[partner[tid]];
      acc = next;
    }
    for (u32 tid = 0; tid < s.block; ++tid)
      if (tid % 5 != 0) out[base + tid] = acc[tid];
  }
}

u32 collatz_steps(u32 x) {
  u32 steps = 0;
  while (x != 1 && steps < 40) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++steps;
  }
  return steps;
}

u32 shfl_divergent(const Shape& s, u32 t) {
  const u32 l = s.lane(t);
  u32 src = 0, y = s.v(t);
  const bool lo = l < 16;
  src = lo ? (l ^ 1) : l + 2;
  const u32 x = s.lane_thread(t, src);
  if (x < s.n && (src < 16) == lo) y = s.v(x);
  return y * 100 + s.v(t);
}

u32 vote_divergent(const Shape& s, u32 t) {
  if (s.v(t) & 1) {
    const u32 m = ballot(s, t, [&](u32 x) { return (s.v(x) & 1) != 0; });
    const u32 b = ballot(s, t, [&](u32 x) { return (s.v(x) & 1) && s.v(x) > 8; });
    const u32 any = ballot(s, t, [&](u32 x) { return (s.v(x) & 1) && s.v(x) > 12; }) != 0;
    return m ^ b ^ any;
  }
  return ballot(s, t, [&](u32 x) { return !(s.v(x) & 1) && s.v(x) < 4; });
}

u32 vote_in_loop_acc(const Shape& s, u32 t) {
  u32 acc = 0;
  for (u32 i = 0; i < t % 5 + 1; ++i) acc ^= ballot(s, t, [&](u32 x) { return x % 5 + 1 > i; }) + i;
  return acc;
}

u32 vote_in_loop(const Shape& s, u32 t) {
  return vote_in_loop_acc(s, t) + ballot(s, t, [&](u32 x) { return vote_in_loop_acc(s, x) > 0x7fffffffu; });
}

u32 shfl_after_loop(const Shape& s, u32 t) {
  auto acc = [&](u32 x) { return s.v(x) * (s.v(x) % 8 + 1); };
  const u32 x = s.lane_thread(t, s.lane(t) ^ 3);
  return (x < s.n ? acc(x) : acc(t)) * 1000 + acc(t);
}

u32 switch_loop(const Shape& s, u32 t) {
  u32 acc = 0;
  for (u32 i = 0; i < 9;) {
    const u32 r = (i + s.lane(t)) % 3;
    ++i;
    if (r == 0) {
      acc += 1;
      continue;
    }
    acc += r == 1 ? 10 : 100;
    acc += i;
  }
  return acc;
}

const std::vector<ControlKernel>& table() {
  static const std::vector<ControlKernel> kernels = {
      {"ctl-loop-break", "loop_break.kir", "a loop with a lane-dependent break",
       [](const Shape& s, u32 t) { u32 a = 0; for (u32 i = 0; i <= std::min(s.v(t), 15u); ++i) a += i; return a; }},
      {"ctl-loop-continue", "loop_continue.kir", "a loop with a lane-dependent continue to the latch",
       [](const Shape&, u32 t) { u32 a = 0; for (u32 i = 0; i < 12; ++i) if ((i + t) % 3 != 0) a += i; return a; }},
      {"ctl-loop-continue-head", "loop_continue_head.kir", "a loop whose lane-dependent continue jumps to the head",
       [](const Shape& s, u32 t) { u32 a = 0; for (u32 i = 1; i <= 12; ++i) if ((i + t) % 3 != 0) a += i * s.v(t); return a; }},
      {"ctl-loop-break-continue", "loop_break_continue.kir", "continue to the head and a break later in the body",
       loop_break_continue},
      {"ctl-nested-break-outer", "nested_break_outer.kir", "nested loops left from the inner loop", nested_break_outer},
      {"ctl-early-return-barrier", "early_return_barrier.kir", "if (tid % 7 == 0) return; then shared memory and bar.sync",
       {}, early_return_barrier},
      {"ctl-early-return-loop", "early_return_loop.kir", "a return inside a loop",
       [](const Shape& s, u32 t) {
         u32 acc = 0;
         for (u32 i = 0; i < 10; ++i) {
           acc += s.v(t) + i;
           if (acc > 30 + t % 16) return acc + 1000;
         }
         return acc;
       }},
      {"ctl-switch-chain", "switch_chain.kir", "a switch as a chain of branches, with a fall-through",
       [](const Shape& s, u32 t) {
         const u32 c = s.v(t) % 5;
         const u32 acc = c == 0 ? 10 : c == 1 ? 20 : c == 2 ? 35 : c == 3 ? 5 : 100;
         return acc + t;
       }},
      {"ctl-goto-mid", "goto_mid.kir", "a jump into the middle of the other path",
       [](const Shape& s, u32 t) {
         const u32 v = s.v(t);
         if (v & 1) return v + 10;
         return v + 1 + ((v & 2) ? 0 : 10);
       }},
      {"ctl-while-data", "while_data.kir", "a while loop with a data-dependent trip count and an if/else inside",
       [](const Shape& s, u32 t) { return collatz_steps(s.v(t) + 1); }},
      {"ctl-deep3", "deep3.kir", "divergence three levels deep",
       [](const Shape& s, u32 t) {
         const u32 l = s.lane(t);
         const u32 acc = (l & 1) ? ((l & 2) ? ((l & 4) ? 11 : 12) : 3) : ((l & 8) ? 4 : 5);
         return acc + t;
       }},
      {"ctl-mid-exit-loop", "mid_exit_loop.kir", "a loop whose exit test is in the middle",
       [](const Shape& s, u32 t) {
         u32 acc = 0;
         for (u32 i = 0;; ++i) {
           acc += i;
           if (i >= s.v(t)) return acc;
           acc = acc * 2 % 1000;
         }
       }},
      {"ctl-mem-branch", "mem_branch.kir", "branches on values loaded from memory",
       [](const Shape& s, u32 t) {
         const u32 v = s.v(t), w = s.v((t + 5) % s.n);
         return v > 7 ? (w > v ? w - v : 1) : w + 100;
       },
       {}, true},
      {"ctl-shfl-divergent", "shfl_divergent.kir", "shuffles on two diverged paths", shfl_divergent},
      {"ctl-vote-divergent", "vote_divergent.kir", "activemask, ballot and any on diverged paths", vote_divergent},
      {"ctl-vote-in-loop", "vote_in_loop.kir", "activemask in a divergent loop, a ballot after it", vote_in_loop},
      {"ctl-nested-continue", "nested_continue.kir", "an inner continue to the inner head and an inner break",
       nested_continue},
      {"ctl-do-while", "do_while.kir", "a bottom-tested loop",
       [](const Shape& s, u32 t) {
         u32 x = s.v(t) + 3, acc = 0;
         do {
           acc += x;
           x = x / 2 + (t & 1);
         } while (x > 1 + (t & 1));
         return acc;
       }},
      {"ctl-two-exit-loop", "two_exit_loop.kir", "a loop with two exits to blocks that meet later",
       [](const Shape& s, u32 t) {
         u32 acc = 0;
         for (u32 i = 0; i < 10; ++i) {
           acc += s.v(t) + 1;
           if (acc % 7 == 3) return acc + 1000;
         }
         return acc + 500;
       }},
      {"ctl-early-exit-guarded", "early_exit_guarded.kir", "a guarded exit, an if/else, then a branch to a second exit",
       [](const Shape& s, u32 t) {
         const u32 v = s.v(t);
         if (t % 3 == 0 || v == 5) return 0u;
         return (v & 1) ? v * 2 : v + 7;
       }},
      {"ctl-goto-into-loop", "goto_into_loop.kir", "a jump into the middle of a loop (irreducible)",
       [](const Shape& s, u32 t) {
         const u32 v = s.v(t), n = 4 + v % 4;
         u32 i = 0, acc = (v & 1) ? 0 : 3;
         for (;;) {
           acc += i;
           if (++i >= n) return acc;
           acc += 3;
         }
       }},
      {"ctl-diamond-chain", "diamond_chain.kir", "four if/else diamonds in a row, both layouts",
       [](const Shape& s, u32 t) {
         u32 acc = 0;
         for (u32 k = 0; k < 4; ++k) acc += ((s.v(t) >> k) & 1) ? k + 1 : 10 * (k + 1);
         return acc;
       }},
      {"ctl-loop-in-if", "loop_in_if.kir", "a divergent loop inside one side of an if",
       [](const Shape& s, u32 t) { return (t & 1) ? s.v(t) * (s.v(t) + 1) / 2 : 7u; }},
      {"ctl-if-else-break", "if_else_break.kir", "an if/else in a loop with a break in the else",
       [](const Shape& s, u32 t) {
         u32 acc = 0;
         for (u32 i = 0; i < 12; ++i) {
           if ((i + s.v(t)) & 1) acc += i;
           else {
             acc += 2;
             if (acc > 10 + s.v(t)) break;
           }
         }
         return acc;
       }},
      {"ctl-barrier-loop-exit", "barrier_loop_exit.kir", "early returns, then barriers in a loop", {}, barrier_loop_exit},
      {"ctl-shfl-after-loop", "shfl_after_loop.kir", "a full-warp shuffle after a divergent loop", shfl_after_loop},
      {"ctl-switch-loop", "switch_loop.kir", "a three-way switch with a continue inside a loop", switch_loop},
      {"ctl-spin-wait", "spin_wait.kir", "lanes spinning on a flag another lane of their warp sets",
       [](const Shape& s, u32 t) { return s.lane(t) == 0 ? 1u : 2 + (s.v(t) & 1); }, {}, false, true},
  };
  return kernels;
}

class ControlScenario final : public Scenario {
 public:
  explicit ControlScenario(const ControlKernel& k) : k_(k), file_(std::string("control/") + k.file) {}
  std::string_view name() const override { return k_.name; }
  std::string_view description() const override { return k_.description; }
  std::string_view kernel_file() const override { return file_; }
  std::vector<ParamSpec> params() const override {
    return {{"block", 64, "threads per block", 1, kMaxBlockDim}, {"blocks", 2, "blocks", 1, 4096}};
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    Shape shape;
    shape.block = static_cast<u32>(p.at("block"));
    shape.blocks = static_cast<u32>(p.at("blocks"));
    shape.n = shape.block * shape.blocks;
    const auto in = random_u32(shape.n, options.seed, 16);
    shape.in = &in;
    const auto din = s.upload("in", in), dout = s.zeros("out", std::size_t{shape.n} * 4);
    std::vector<std::uint64_t> args{din, dout};
    if (k_.extra_n) args.push_back(shape.n);
    if (k_.flag_buffer) args.push_back(s.zeros("flag", std::size_t{shape.blocks} * ceil_div(shape.block, 32) * 4));
    s.launch(s.kernel(kernel_file()), Dim3{shape.blocks, 1, 1}, Dim3{shape.block, 1, 1}, std::move(args));
    const auto got = s.download<u32>(dout, shape.n);
    std::vector<u32> want(shape.n, 0);
    if (k_.whole)
      k_.whole(shape, want);
    else
      for (u32 t = 0; t < shape.n; ++t) want[t] = k_.per_thread(shape, t);
    out.checked = true;
    for (u32 t = 0; t < shape.n; ++t)
      if (got[t] != want[t]) {
        out.passed = false;
        out.check = fmt::format("out[{}] = {}, expected {}", t, got[t], want[t]);
        return out;
      }
    out.passed = true;
    out.check = fmt::format("{} outputs equal the host's", shape.n);
    return out;
  }

 private:
  const ControlKernel& k_;
  std::string file_;
};

}  // namespace

void register_control_scenarios(std::vector<std::unique_ptr<Scenario>>& out) {
  for (const auto& k : table()) out.push_back(std::make_unique<ControlScenario>(k));
}

}  // namespace warpsim::kernels
