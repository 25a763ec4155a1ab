#include "fuzz/reference.hpp"

#include <algorithm>
#include <random>

namespace warpsim::fuzz {

namespace {

struct Thread {
  std::uint32_t r[kRegisters] = {};
  std::uint32_t counter[kMaxDepth] = {}, bound[kMaxDepth] = {};
  std::uint32_t tid = 0, gid = 0;
  bool alive = true;
};

// How a statement ended: normally, or leaving `levels` loops (break/continue), or the thread ended.
struct Flow {
  enum class Kind { Next, Break, Continue, Exit };
  Kind kind = Kind::Next;
  std::uint32_t levels = 0;
};

std::uint32_t apply(BinOp op, std::uint32_t a, std::uint32_t b) {
  switch (op) {
    case BinOp::Add: return a + b;
    case BinOp::Sub: return a - b;
    case BinOp::Mul: return a * b;
    case BinOp::And: return a & b;
    case BinOp::Or: return a | b;
    case BinOp::Xor: return a ^ b;
    case BinOp::Min: return std::min(a, b);
    case BinOp::Max: return std::max(a, b);
    case BinOp::Shl: return b >= 32 ? 0 : a << b;
    case BinOp::Shr: return b >= 32 ? 0 : a >> b;
  }
  return 0;
}

void atomic(std::uint32_t counter, std::uint32_t& word, std::uint32_t value) {
  switch (static_cast<AtomOp>(counter % kCounters)) {
    case AtomOp::Add: word += value; break;
    case AtomOp::Min: word = std::min(word, value); break;
    case AtomOp::Max: word = std::max(word, value); break;
  }
}

class Block {
 public:
  Block(const Program& program, std::uint32_t warp_size, std::uint32_t index, Buffers& buffers)
      : program_(program), warp_size_(warp_size), index_(index), buffers_(buffers),
        threads_(program.block_threads), own_(program.block_threads * kSharedSlots, 0),
        snap_(program.block_threads, 0) {
    for (std::uint32_t t = 0; t < program.block_threads; ++t) {
      Thread& x = threads_[t];
      x.tid = t;
      x.gid = index * program.block_threads + t;
      for (std::uint32_t r = 0; r < kRegisters; ++r) x.r[r] = x.gid * (2 * r + 1) + r * 7;
    }
    counters_[1] = 0xffffffffu;
  }

  void run() {
    for (const Stmt& s : program_.body) {
      if (s.kind == Stmt::Kind::Shuffle || s.kind == Stmt::Kind::Vote || s.kind == Stmt::Kind::Exchange) {
        together(s);
        continue;
      }
      for (Thread& t : threads_)
        if (t.alive && run_statement(t, s, 0).kind == Flow::Kind::Exit) t.alive = false;
    }
    for (Thread& t : threads_)
      if (t.alive)
        for (std::uint32_t r = 0; r < kRegisters; ++r) buffers_.regs[t.gid * kRegisters + r] = t.r[r];
    for (std::uint32_t k = 0; k < kCounters && k < threads_.size(); ++k)
      if (threads_[k].alive) atomic(k, buffers_.counters[kCounters + k], counters_[k]);
  }

 private:
  std::uint32_t value(const Thread& t, const Operand& o) const {
    switch (o.kind) {
      case Operand::Kind::Register: return t.r[o.value];
      case Operand::Kind::Immediate: return o.value;
      case Operand::Kind::Tid: return t.tid;
      case Operand::Kind::Lane: return t.tid % warp_size_;
      case Operand::Kind::Block: return index_;
      case Operand::Kind::LoopCounter: return t.counter[o.value];
    }
    return 0;
  }

  bool holds(const Thread& t, const Condition& c) const {
    const std::uint32_t a = value(t, c.a), b = value(t, c.b);
    switch (c.cmp) {
      case Cmp::Eq: return a == b;
      case Cmp::Ne: return a != b;
      case Cmp::Lt: return a < b;
      case Cmp::Le: return a <= b;
      case Cmp::Gt: return a > b;
      case Cmp::Ge: return a >= b;
    }
    return false;
  }

  Flow run_list(Thread& t, const std::vector<Stmt>& list, std::uint32_t loops) {
    for (const Stmt& s : list) {
      const Flow f = run_statement(t, s, loops);
      if (f.kind != Flow::Kind::Next) return f;
    }
    return {};
  }

  // `loops`: the loops around s (their counters are t.counter[0..loops-1]).
  Flow run_statement(Thread& t, const Stmt& s, std::uint32_t loops) {
    using K = Stmt::Kind;
    switch (s.kind) {
      case K::Assign: t.r[s.dst] = apply(s.op, value(t, s.a), value(t, s.b)); break;
      case K::Guarded:
        if (holds(t, s.cond)) t.r[s.dst] = apply(s.op, value(t, s.a), value(t, s.b));
        break;
      case K::If: return run_list(t, holds(t, s.cond) ? s.body : s.other, loops);
      case K::Loop: {
        t.bound[loops] = value(t, s.a) & 7;
        for (t.counter[loops] = 0; t.counter[loops] < t.bound[loops]; ++t.counter[loops]) {
          const Flow f = run_list(t, s.body, loops + 1);
          if (f.kind == Flow::Kind::Exit) return f;
          if (f.kind == Flow::Kind::Break) {
            if (f.levels > 1) return {Flow::Kind::Break, f.levels - 1};
            break;
          }
          if (f.kind == Flow::Kind::Continue && f.levels > 1) return {Flow::Kind::Continue, f.levels - 1};
        }
        break;
      }
      case K::Break:
        if (holds(t, s.cond)) return {Flow::Kind::Break, s.slot};
        break;
      case K::Continue:
        if (holds(t, s.cond)) return {Flow::Kind::Continue, s.slot};
        break;
      case K::Exit:
        if (holds(t, s.cond)) return {Flow::Kind::Exit, 0};
        break;
      case K::LoadInput: t.r[s.dst] = buffers_.input[t.gid * kInputWords + s.slot]; break;
      case K::StoreGlobal: buffers_.out[t.gid * kOutSlots + s.slot] = value(t, s.a); break;
      case K::StoreShared: own_[t.tid * kSharedSlots + s.slot] = value(t, s.a); break;
      case K::LoadShared: t.r[s.dst] = own_[t.tid * kSharedSlots + s.slot]; break;
      case K::AtomShared: atomic(s.slot, counters_[s.slot], value(t, s.a)); break;
      case K::AtomGlobal: atomic(s.slot, buffers_.counters[s.slot], value(t, s.a)); break;
      case K::Shuffle:
      case K::Vote:
      case K::Exchange: break;  // top level only (together)
    }
    return {};
  }

  // Whether thread `g` of this block exists and still runs.
  bool takes_part(std::uint64_t g) const { return g < threads_.size() && threads_[g].alive; }

  void together(const Stmt& s) {
    const std::uint32_t n = program_.block_threads;
    std::vector<std::uint32_t> result(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      const Thread& t = threads_[i];
      if (!t.alive) continue;
      const std::uint32_t lane = i % warp_size_, first = i - lane;
      switch (s.kind) {
        case Stmt::Kind::Shuffle: {
          std::int64_t source = -1;
          const std::uint32_t b = s.slot;
          switch (s.shuffle) {
            case ShuffleKind::Down: source = std::int64_t{lane} + b; break;
            case ShuffleKind::Up: source = std::int64_t{lane} - b; break;
            case ShuffleKind::Xor: source = lane ^ b; break;
            case ShuffleKind::Idx: source = b; break;
          }
          const bool inside = source >= 0 && source < warp_size_ && takes_part(first + static_cast<std::uint64_t>(source));
          result[i] = value(inside ? threads_[first + static_cast<std::uint32_t>(source)] : t, s.a);
          break;
        }
        case Stmt::Kind::Vote: {
          std::uint32_t ballot = 0, active = 0;
          for (std::uint32_t l = 0; l < warp_size_ && l < 32; ++l)
            if (takes_part(first + l)) {
              active |= 1u << l;
              if (holds(threads_[first + l], s.cond)) ballot |= 1u << l;
            }
          switch (s.vote) {
            case VoteKind::Any: result[i] = ballot != 0; break;
            case VoteKind::All: result[i] = ballot == active; break;
            case VoteKind::Ballot: result[i] = ballot; break;
            case VoteKind::ActiveMask: result[i] = active; break;
          }
          break;
        }
        case Stmt::Kind::Exchange: snap_[i] = value(t, s.a); break;
        default: break;
      }
    }
    if (s.kind == Stmt::Kind::Exchange)
      for (std::uint32_t i = 0; i < n; ++i) result[i] = snap_[(i + s.slot) % n];
    for (std::uint32_t i = 0; i < n; ++i)
      if (threads_[i].alive) threads_[i].r[s.dst] = result[i];
  }

  const Program& program_;
  std::uint32_t warp_size_, index_;
  Buffers& buffers_;
  std::vector<Thread> threads_;
  std::vector<std::uint32_t> own_, snap_;
  std::uint32_t counters_[kCounters] = {};
};

}  // namespace

Buffers initial_buffers(const Program& program, std::uint64_t seed) {
  const std::uint32_t n = total_threads(program);
  Buffers b;
  std::mt19937_64 rng(seed);
  b.input.resize(std::size_t{n} * kInputWords);
  for (auto& v : b.input) v = static_cast<std::uint32_t>(rng() % 4 == 0 ? rng() : rng() % 64);
  b.out.assign(std::size_t{n} * kOutSlots, 0);
  b.regs.assign(std::size_t{n} * kRegisters, 0);
  b.counters.resize(counter_words());
  for (std::uint32_t k = 0; k < counter_words(); ++k) b.counters[k] = counter_initial(k);
  return b;
}

void run_reference(const Program& program, std::uint32_t warp_size, Buffers& buffers) {
  for (std::uint32_t b = 0; b < program.blocks; ++b) Block(program, warp_size, b, buffers).run();
}

}  // namespace warpsim::fuzz
