#include "fuzz/structured.hpp"

#include <fmt/format.h>

namespace warpsim::fuzz {

namespace {

class Generator {
 public:
  explicit Generator(std::mt19937_64& rng) : rng_(rng) {}

  Program program() {
    Program p;
    const std::uint32_t sizes[] = {1, 5, 31, 32, 33, 64, 70, 96, 128};
    p.block_threads = sizes[pick(std::size(sizes))];
    p.blocks = 1 + pick(3);
    const std::uint32_t count = 3 + pick(12);
    budget_ = 60;
    for (std::uint32_t i = 0; i < count && budget_ > 0; ++i) p.body.push_back(statement(0, 0, true));
    return p;
  }

 private:
  std::uint32_t pick(std::uint64_t n) { return static_cast<std::uint32_t>(rng_() % n); }
  bool chance(unsigned percent) { return pick(100) < percent; }

  Operand operand(std::uint32_t loops) {
    Operand o;
    const std::uint32_t r = pick(100);
    if (r < 50) {
      o.kind = Operand::Kind::Register;
      o.value = pick(kRegisters);
    } else if (r < 70) {
      o.kind = Operand::Kind::Immediate;
      o.value = chance(70) ? pick(40) : static_cast<std::uint32_t>(rng_());
    } else if (r < 78) {
      o.kind = Operand::Kind::Tid;
    } else if (r < 86) {
      o.kind = Operand::Kind::Lane;
    } else if (r < 90 || loops == 0) {
      o.kind = Operand::Kind::Block;
    } else {
      o.kind = Operand::Kind::LoopCounter;
      o.value = pick(loops);
    }
    return o;
  }

  Condition condition(std::uint32_t loops) {
    Condition c;
    c.a = operand(loops);
    c.b = operand(loops);
    c.cmp = static_cast<Cmp>(pick(6));
    return c;
  }

  std::vector<Stmt> block(std::uint32_t depth, std::uint32_t loops) {
    std::vector<Stmt> out;
    const std::uint32_t count = 1 + pick(4);
    for (std::uint32_t i = 0; i < count && budget_ > 0; ++i) out.push_back(statement(depth, loops, false));
    return out;
  }

  Stmt statement(std::uint32_t depth, std::uint32_t loops, bool top) {
    --budget_;
    Stmt s;
    s.dst = pick(kRegisters);
    s.a = operand(loops);
    s.b = operand(loops);
    s.op = static_cast<BinOp>(pick(10));
    s.cond = condition(loops);
    using K = Stmt::Kind;
    for (;;) {
      const std::uint32_t r = pick(100);
      if (r < 22) s.kind = K::Assign;
      else if (r < 30) s.kind = K::Guarded;
      else if (r < 40) s.kind = K::If;
      else if (r < 50) s.kind = K::Loop;
      else if (r < 55) s.kind = K::Break;
      else if (r < 59) s.kind = K::Continue;
      else if (r < 61) s.kind = K::Exit;
      else if (r < 65) s.kind = K::LoadInput;
      else if (r < 70) s.kind = K::StoreGlobal;
      else if (r < 73) s.kind = K::StoreShared;
      else if (r < 76) s.kind = K::LoadShared;
      else if (r < 80) s.kind = K::AtomShared;
      else if (r < 84) s.kind = K::AtomGlobal;
      else if (r < 90) s.kind = K::Shuffle;
      else if (r < 95) s.kind = K::Vote;
      else s.kind = K::Exchange;
      const bool nests = s.kind == K::If || s.kind == K::Loop;
      const bool jumps = s.kind == K::Break || s.kind == K::Continue;
      const bool uniform = s.kind == K::Shuffle || s.kind == K::Vote || s.kind == K::Exchange;
      if (nests && (depth >= kMaxDepth || budget_ <= 0)) continue;
      if (jumps && loops == 0) continue;
      if (uniform && !top) continue;
      break;
    }
    switch (s.kind) {
      case K::If:
        s.body = block(depth + 1, loops);
        if (chance(60)) s.other = block(depth + 1, loops);
        break;
      case K::Loop: s.body = block(depth + 1, loops + 1); break;
      case K::Break:
      case K::Continue: s.slot = 1 + pick(loops); break;
      case K::LoadInput: s.slot = pick(kInputWords); break;
      case K::StoreGlobal: s.slot = pick(kOutSlots); break;
      case K::StoreShared:
      case K::LoadShared: s.slot = pick(kSharedSlots); break;
      case K::AtomShared:
      case K::AtomGlobal: s.slot = pick(kCounters); break;
      case K::Shuffle:
        s.shuffle = static_cast<ShuffleKind>(pick(4));
        s.slot = chance(80) ? pick(32) : pick(70);
        if (s.a.kind == Operand::Kind::Immediate) s.a.kind = Operand::Kind::Tid;
        break;
      case K::Vote: s.vote = static_cast<VoteKind>(pick(4)); break;
      case K::Exchange: s.slot = pick(130); break;
      default: break;
    }
    return s;
  }

  std::mt19937_64& rng_;
  int budget_ = 0;
};

const char* cmp_name(Cmp c) {
  static const char* names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return names[static_cast<int>(c)];
}

const char* op_name(BinOp o) {
  static const char* names[] = {"add", "sub", "mul", "and", "or", "xor", "min", "max", "shl", "shr"};
  return names[static_cast<int>(o)];
}

const char* atom_name(std::uint32_t counter) {
  static const char* names[] = {"add", "min", "max"};
  return names[counter % kCounters];
}

class Printer {
 public:
  std::string print(const Program& p) {
    out_ += "kernel generated(ptr.u32 input, ptr.u32 out, ptr.u32 regs, ptr.u32 counters) {\n";
    out_ += fmt::format("    shared u32 own[{}]\n    shared u32 snap[{}]\n    shared u32 cnt[{}]\n",
                        p.block_threads * kSharedSlots, p.block_threads, kCounters);
    out_ += "    reg u32 r0, r1, r2, r3, r4, r5, tid, lane, cta, gid, sown, junk, w, x\n";
    out_ += "    reg u32 i0, i1, i2, i3, n0, n1, n2, n3\n";
    out_ += "    reg u64 off, inb, outb\n    reg pred p, q\n";
    line("mov.u32 tid, %tid.x");
    line("mov.u32 lane, %laneid");
    line("mov.u32 cta, %ctaid.x");
    line("mad.u32 gid, cta, %ntid.x, tid");
    line(fmt::format("mul.wide.u32 off, gid, {}", 4 * kInputWords));
    line("add.u64 inb, input, off");
    line(fmt::format("mul.wide.u32 off, gid, {}", 4 * kOutSlots));
    line("add.u64 outb, out, off");
    line(fmt::format("mad.u32 sown, tid, {}, own", 4 * kSharedSlots));
    for (std::uint32_t r = 0; r < kRegisters; ++r) line(fmt::format("mad.u32 r{}, gid, {}, {}", r, 2 * r + 1, r * 7));
    // The shared minimum counter starts at the largest value.
    line("setp.eq.u32 p, tid, 0");
    line("@p st.shared.u32 [cnt+4], 4294967295");
    line("bar.sync");
    for (const Stmt& s : p.body) statement(s);
    line(fmt::format("mul.wide.u32 off, gid, {}", 4 * kRegisters));
    line("add.u64 outb, regs, off");
    for (std::uint32_t r = 0; r < kRegisters; ++r) line(fmt::format("st.global.u32 [outb+{}], r{}", 4 * r, r));
    line("bar.sync");
    line(fmt::format("setp.lt.u32 p, tid, {}", kCounters));
    line("@!p bra fin");
    line("mad.u32 w, tid, 4, cnt");
    line("ld.shared.u32 w, [w]");
    for (std::uint32_t k = 0; k < kCounters; ++k) {
      line(fmt::format("setp.eq.u32 p, tid, {}", k));
      line(fmt::format("@p atom.{}.global.u32 junk, [counters+{}], w", atom_name(k), 4 * (kCounters + k)));
    }
    out_ += "fin:\n";
    line("exit");
    out_ += "}\n";
    return std::move(out_);
  }

 private:
  struct LoopLabels {
    std::uint32_t id, level;
  };

  void line(const std::string& text) { out_ += "    " + text + "\n"; }

  static std::string operand(const Operand& o) {
    switch (o.kind) {
      case Operand::Kind::Register: return fmt::format("r{}", o.value);
      case Operand::Kind::Immediate: return fmt::format("{}", o.value);
      case Operand::Kind::Tid: return "tid";
      case Operand::Kind::Lane: return "lane";
      case Operand::Kind::Block: return "cta";
      case Operand::Kind::LoopCounter: return fmt::format("i{}", o.value);
    }
    return "0";
  }

  void set_predicate(const Condition& c, const char* predicate = "p") {
    line(fmt::format("setp.{}.u32 {}, {}, {}", cmp_name(c.cmp), predicate, operand(c.a), operand(c.b)));
  }

  std::string binary(const Stmt& s) {
    return fmt::format("{}.u32 r{}, {}, {}", op_name(s.op), s.dst, operand(s.a), operand(s.b));
  }

  void statement(const Stmt& s) {
    using K = Stmt::Kind;
    switch (s.kind) {
      case K::Assign: line(binary(s)); break;
      case K::Guarded:
        set_predicate(s.cond);
        line("@p " + binary(s));
        break;
      case K::If: {
        const std::uint32_t id = next_label_++;
        set_predicate(s.cond);
        line(fmt::format("@!p bra else{}", id));
        for (const Stmt& x : s.body) statement(x);
        line(fmt::format("bra endif{}", id));
        out_ += fmt::format("else{}:\n", id);
        for (const Stmt& x : s.other) statement(x);
        out_ += fmt::format("endif{}:\n", id);
        break;
      }
      case K::Loop: {
        const std::uint32_t id = next_label_++;
        const auto level = static_cast<std::uint32_t>(loops_.size());
        line(fmt::format("and.u32 n{}, {}, 7", level, operand(s.a)));
        line(fmt::format("mov.u32 i{}, 0", level));
        out_ += fmt::format("top{}:\n", id);
        line(fmt::format("setp.ge.u32 p, i{}, n{}", level, level));
        line(fmt::format("@p bra end{}", id));
        loops_.push_back({id, level});
        for (const Stmt& x : s.body) statement(x);
        loops_.pop_back();
        out_ += fmt::format("cont{}:\n", id);
        line(fmt::format("add.u32 i{}, i{}, 1", level, level));
        line(fmt::format("bra top{}", id));
        out_ += fmt::format("end{}:\n", id);
        break;
      }
      case K::Break:
      case K::Continue: {
        const LoopLabels& target = loops_[loops_.size() - s.slot];
        set_predicate(s.cond);
        line(fmt::format("@p bra {}{}", s.kind == K::Break ? "end" : "cont", target.id));
        break;
      }
      case K::Exit:
        set_predicate(s.cond);
        line(s.dst % 2 ? "@p exit" : "@p ret");
        break;
      case K::LoadInput: line(fmt::format("ld.global.u32 r{}, [inb+{}]", s.dst, 4 * s.slot)); break;
      case K::StoreGlobal: line(fmt::format("st.global.u32 [outb+{}], {}", 4 * s.slot, register_of(s.a))); break;
      case K::StoreShared: line(fmt::format("st.shared.u32 [sown+{}], {}", 4 * s.slot, register_of(s.a))); break;
      case K::LoadShared: line(fmt::format("ld.shared.u32 r{}, [sown+{}]", s.dst, 4 * s.slot)); break;
      case K::AtomShared:
        line(fmt::format("atom.{}.shared.u32 junk, [cnt+{}], {}", atom_name(s.slot), 4 * s.slot, operand(s.a)));
        break;
      case K::AtomGlobal:
        line(fmt::format("atom.{}.global.u32 junk, [counters+{}], {}", atom_name(s.slot), 4 * s.slot, operand(s.a)));
        break;
      case K::Shuffle: {
        static const char* names[] = {"down", "up", "xor", "idx"};
        line(fmt::format("shfl.{}.u32 r{}, {}, {}", names[static_cast<int>(s.shuffle)], s.dst, operand(s.a), s.slot));
        break;
      }
      case K::Vote:
        switch (s.vote) {
          case VoteKind::Any:
          case VoteKind::All:
            set_predicate(s.cond);
            line(fmt::format("vote.{}.pred q, p", s.vote == VoteKind::Any ? "any" : "all"));
            line(fmt::format("selp.u32 r{}, 1, 0, q", s.dst));
            break;
          case VoteKind::Ballot:
            set_predicate(s.cond);
            line(fmt::format("vote.ballot.u32 r{}, p", s.dst));
            break;
          case VoteKind::ActiveMask: line(fmt::format("activemask.u32 r{}", s.dst)); break;
        }
        break;
      case K::Exchange:
      {
        const std::string value = register_of(s.a);
        line("mad.u32 x, tid, 4, snap");
        line(fmt::format("st.shared.u32 [x], {}", value));
      }
        line("bar.sync");
        line(fmt::format("add.u32 w, tid, {}", s.slot));
        line("rem.u32 w, w, %ntid.x");
        line("mad.u32 w, w, 4, snap");
        line(fmt::format("ld.shared.u32 r{}, [w]", s.dst));
        line("bar.sync");
        break;
    }
  }

  // Stores take a register: an immediate or fixed value goes through `w` first.
  std::string register_of(const Operand& o) {
    if (o.kind == Operand::Kind::Register) return operand(o);
    line(fmt::format("mov.u32 w, {}", operand(o)));
    return "w";
  }

  std::string out_;
  std::uint32_t next_label_ = 0;
  std::vector<LoopLabels> loops_;
};

}  // namespace

Program generate(std::mt19937_64& rng) { return Generator(rng).program(); }

std::string to_kir(const Program& program) { return Printer().print(program); }

}  // namespace warpsim::fuzz
