// Lane semantics of ld, st and atom.* on global and shared memory. Every executing lane's access is
// bounds- and alignment-checked. Loads and stores of a whole warp first try the allocation this
// instruction hit last time (or the block's shared memory) with one branch-free pass over the lanes;
// otherwise the lowest and highest address of the warp are checked against one allocation, and
// only then is each lane looked up, which also finds the first faulting lane for the message.
// Atomics run lane by lane in lane order through std::atomic_ref, so blocks on other host threads
// see them as atomic. Plain global loads and stores are relaxed atomic accesses of their element
// (a plain move on x86-64 and AArch64): blocks on other host threads may read what a block writes
// (a flag, a last-block counter) while it writes it, and that must not be a data race in the
// simulator itself. Shared memory belongs to one block, which one host thread runs: plain copies.
#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>

#include "isa/opcodes.hpp"
#include "sim/global_memory.hpp"
#include "sim/lanes.hpp"

namespace warpsim::sim {
namespace {

using namespace lanes;

template <bool Shared>
[[noreturn, gnu::cold]] void fault(const Inst& in, const LaneContext& c, unsigned lane, std::uint64_t address,
                                   unsigned size, const char* what, bool misaligned) {
  const char* space = Shared ? "shared" : "global";
  if (misaligned)
    c.faults->raise(in, lane,
                    fmt::format("misaligned {} {} of {} bytes at {:#x} (the address must be a multiple of {})", space,
                                what, size, address, size));
  if constexpr (Shared)
    c.faults->raise(in, lane,
                    fmt::format("shared {} of {} bytes at {:#x} is outside the block's {} bytes of shared memory", what,
                                size, address, c.shared_bytes));
  else
    c.faults->raise(in, lane,
                    fmt::format("global {} of {} bytes at {:#x} is outside every allocation: {}", what, size, address,
                                c.global->describe(address, size)));
}

// Where the executing lanes' accesses of `size` bytes land; faults on the first bad lane. When
// they all fall in one allocation (or the shared memory), `base` is set and lane l's host address
// is base + address[l]; otherwise host[l] holds it.
struct Access {
  std::uint64_t address[64];
  std::byte* host[64];
  std::byte* base = nullptr;
  bool all = false;  // every warp-size lane executes
};

template <bool Shared>
void resolve(const Inst& in, LaneContext& c, unsigned size, const char* what, Access& access) {
  std::uint64_t* const address = access.address;
  std::byte** const host = access.host;
  const unsigned n = c.warp_size;
  lane_addresses<Shared>(in, c, address);
  std::uint64_t lo = std::numeric_limits<std::uint64_t>::max(), hi = 0, bits = 0;
  const std::uint64_t all = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  access.all = c.exec == all;
  if (access.all) {
    for (unsigned l = 0; l < n; ++l) {
      lo = address[l] < lo ? address[l] : lo;
      hi = address[l] > hi ? address[l] : hi;
      bits |= address[l];
    }
  } else {
    for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
      const std::uint64_t a = address[lowest_lane(m)];
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
      bits |= a;
    }
  }
  if ((bits & (size - 1)) == 0) {
    std::byte* base = nullptr;
    if constexpr (Shared) {
      if (hi < c.shared_bytes && c.shared_bytes - hi >= size) base = c.shared;
    } else if (hi - lo < (std::uint64_t{1} << 40)) {
      int a = c.allocation_cache[in.pc];
      const std::uint64_t span = hi - lo + size;
      if (a < 0 || lo < c.global->at(a).base || lo - c.global->at(a).base > c.global->at(a).size ||
          span > c.global->at(a).size - (lo - c.global->at(a).base))
        a = c.global->find(lo, span);
      if (a >= 0) {
        c.allocation_cache[in.pc] = a;
        base = c.global->at(a).data.get() - c.global->at(a).base;
      }
    }
    if (base != nullptr) {
      access.base = base;
      return;
    }
  }
  for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
    const unsigned l = lowest_lane(m);
    const std::uint64_t a = address[l];
    if ((a & (size - 1)) != 0) fault<Shared>(in, c, l, a, size, what, true);
    if constexpr (Shared) {
      if (a >= c.shared_bytes || c.shared_bytes - a < size) fault<Shared>(in, c, l, a, size, what, false);
      host[l] = c.shared + a;
    } else {
      const int i = c.global->find(a, size);
      if (i < 0) fault<Shared>(in, c, l, a, size, what, false);
      host[l] = c.global->at(i).data.get() + (a - c.global->at(i).base);
    }
  }
}

// The whole-warp fast path: when every warp-size lane executes and every lane's access of `size`
// bytes lies, aligned, in the allocation this instruction hit last time (global) or in the shared
// memory, returns the host address of byte 0 of that space relative to which lane l's access is
// at base + offset_of(l) (see lane_offset); nullptr sends the caller to resolve(). The test is one
// pass of subtractions and ORs, which vectorises: for an offset o and a limit lim < 2^47, o <= lim
// exactly when neither o nor lim - o has its top bit set.
struct Window {
  std::byte* host = nullptr;  // host address of the space's first byte
  std::uint64_t start = 0;    // the lane's base register minus this is its offset into the space
};

template <bool Shared>
inline bool whole_warp(const Inst& in, const LaneContext& c, unsigned size, Window& w) {
  const unsigned n = c.warp_size;
  const std::uint64_t all = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  if (c.exec != all) return false;
  if constexpr (Shared) {
    // The offset of lane l is b[l] + mem_offset, not wrapped (lane_addresses): computed in 64 bits.
    if (c.shared_bytes < size || c.shared_bytes >= (1u << 31)) return false;
    const std::uint32_t* b = source<std::uint32_t>(c, in.mem_base);
    const auto offset = static_cast<std::uint64_t>(in.mem_offset);
    const std::uint64_t lim = c.shared_bytes - size;
    std::uint64_t ors = 0, over = 0;
    each_lane(n, [&](unsigned l) {
      const std::uint64_t o = std::uint64_t{b[l]} + offset;
      ors |= o;
      over |= lim - o;
    });
    if (((ors | over) >> 63) != 0 || (ors & (size - 1)) != 0) return false;
    w.host = c.shared;
    w.start = static_cast<std::uint32_t>(0u - offset);
    return true;
  } else {
    const int a = c.allocation_cache[in.pc];
    if (a < 0) return false;
    const Allocation& x = c.global->at(a);
    if (x.size < size) return false;
    const std::uint64_t* b = source<std::uint64_t>(c, in.mem_base);
    const std::uint64_t start = x.base - static_cast<std::uint64_t>(in.mem_offset), lim = x.size - size;
    std::uint64_t ors = 0, over = 0;
    each_lane(n, [&](unsigned l) {
      const std::uint64_t o = b[l] - start;  // the allocation is 256-byte aligned: o's low bits are the address's
      ors |= o;
      over |= lim - o;
    });
    if (((ors | over) >> 63) != 0 || (ors & (size - 1)) != 0) return false;
    w.host = x.data.get();
    w.start = start;
    return true;
  }
}

// Calls f(l, host address of lane l's access) in lane order, for a window from whole_warp.
template <bool Shared, class F>
[[gnu::always_inline]] inline void each_access(const Inst& in, const LaneContext& c, const Window& w, F f) {
  std::byte* const host = w.host;
  if constexpr (Shared) {
    const std::uint32_t* b = source<std::uint32_t>(c, in.mem_base);
    const auto start = static_cast<std::uint32_t>(w.start);
    each_lane(c.warp_size, [&](unsigned l) { f(l, host + static_cast<std::uint32_t>(b[l] - start)); });
  } else {
    const std::uint64_t* b = source<std::uint64_t>(c, in.mem_base);
    const std::uint64_t start = w.start;
    each_lane(c.warp_size, [&](unsigned l) { f(l, host + (b[l] - start)); });
  }
}

// The memory element of type T: 1, 2, 4 or 8 bytes.
template <Type T>
using Mem = std::conditional_t<kBits<T> == 8, std::uint8_t, std::conditional_t<kBits<T> == 16, std::uint16_t, Word<T>>>;

// A loaded element as its register word: 8- and 16-bit elements zero- or sign-extended by T.
template <Type T>
[[gnu::always_inline]] inline Word<T> extend(Mem<T> m) {
  if constexpr (kSigned<T> && kBits<T> < 32) return word_of<T>(static_cast<Value<T>>(m));
  else return m;
}

// One lane's element: a plain copy in shared memory, a relaxed atomic access in global memory.
template <bool Shared, class W>
[[gnu::always_inline]] inline void load_word(W& to, const std::byte* from) {
  if constexpr (Shared)
    std::memcpy(&to, from, sizeof(W));
  else
    to = std::atomic_ref<W>(*reinterpret_cast<W*>(const_cast<std::byte*>(from))).load(std::memory_order_relaxed);
}

template <bool Shared, class W>
[[gnu::always_inline]] inline void store_word(std::byte* to, W value) {
  if constexpr (Shared)
    std::memcpy(to, &value, sizeof(W));
  else
    std::atomic_ref<W>(*reinterpret_cast<W*>(to)).store(value, std::memory_order_relaxed);
}

template <Type T, bool Shared>
[[gnu::always_inline]] inline void load_lane(Word<T>& to, const std::byte* from) {
  if constexpr (sizeof(Mem<T>) == sizeof(Word<T>)) {
    load_word<Shared>(to, from);
  } else {
    Mem<T> m;
    load_word<Shared>(m, from);
    to = extend<T>(m);
  }
}

template <Type T, bool Shared>
void load(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  constexpr unsigned size = sizeof(Mem<T>);
  W* d = destination<W>(c, in.dst);
  if (Window w; whole_warp<Shared>(in, c, size, w)) {
    // Lane order, one lane at a time: d may be the base register (ld.global.u64 p, [p]).
    each_access<Shared>(in, c, w, [d](unsigned l, const std::byte* p) { load_lane<T, Shared>(d[l], p); });
    return;
  }
  Access x;
  resolve<Shared>(in, c, size, "load", x);
  if (x.base != nullptr && x.all) {
    for (unsigned l = 0; l < c.warp_size; ++l) load_lane<T, Shared>(d[l], x.base + x.address[l]);
  } else {
    for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
      const unsigned l = lowest_lane(m);
      load_lane<T, Shared>(d[l], x.base != nullptr ? x.base + x.address[l] : x.host[l]);
    }
  }
}

// Lanes store in lane order, so when several lanes write one address the highest lane wins.
// 8- and 16-bit stores write the low bits of the register.
template <Type T, bool Shared>
void store(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  using M = Mem<T>;
  const W* v = source<W>(c, in.src[0]);
  if (Window w; whole_warp<Shared>(in, c, sizeof(M), w)) {
    each_access<Shared>(in, c, w, [v](unsigned l, std::byte* p) { store_word<Shared>(p, static_cast<M>(v[l])); });
    return;
  }
  Access x;
  resolve<Shared>(in, c, sizeof(M), "store", x);
  if (x.base != nullptr && x.all) {
    for (unsigned l = 0; l < c.warp_size; ++l) store_word<Shared>(x.base + x.address[l], static_cast<M>(v[l]));
  } else {
    for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
      const unsigned l = lowest_lane(m);
      store_word<Shared>(x.base != nullptr ? x.base + x.address[l] : x.host[l], static_cast<M>(v[l]));
    }
  }
}

template <class W, class F>
W update(std::atomic_ref<W> ref, F f) {
  W old = ref.load();
  while (!ref.compare_exchange_weak(old, f(old))) {
  }
  return old;
}

template <Type T, isa::Opcode Op, bool Shared>
void atom(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  Access x;
  resolve<Shared>(in, c, sizeof(W), isa::mnemonic(Op).data(), x);
  const W* b = source<W>(c, in.src[0]);
  const W* e = source<W>(c, in.src[1]);
  W* d = destination<W>(c, in.dst);
  for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
    const unsigned l = lowest_lane(m);
    std::atomic_ref<W> ref(*reinterpret_cast<W*>(x.base != nullptr ? x.base + x.address[l] : x.host[l]));
    const W v = b[l];
    W old = 0;
    if constexpr (Op == isa::Opcode::AtomAdd) {
      if constexpr (kFloat<T>)
        old = update(ref, [v](W x) { return word_of<T>(value_of<T>(x) + value_of<T>(v)); });
      else
        old = ref.fetch_add(v);
    } else if constexpr (Op == isa::Opcode::AtomMin || Op == isa::Opcode::AtomMax) {
      old = update(ref, [v](W x) {
        const bool less = value_of<T>(v) < value_of<T>(x);
        return (Op == isa::Opcode::AtomMin) == less ? v : x;
      });
    } else if constexpr (Op == isa::Opcode::AtomExch) {
      old = ref.exchange(v);
    } else if constexpr (Op == isa::Opcode::AtomCas) {
      old = v;
      ref.compare_exchange_strong(old, e[l]);
    } else if constexpr (Op == isa::Opcode::AtomInc) {  // wraps to 0 at the bound
      old = update(ref, [v](W x) { return x >= v ? W{0} : W(x + 1); });
    } else if constexpr (Op == isa::Opcode::AtomDec) {  // wraps to the bound at 0 and above it
      old = update(ref, [v](W x) { return x == 0 || x > v ? v : W(x - 1); });
    } else if constexpr (Op == isa::Opcode::AtomAnd) {
      old = ref.fetch_and(v);
    } else if constexpr (Op == isa::Opcode::AtomOr) {
      old = ref.fetch_or(v);
    } else {
      static_assert(Op == isa::Opcode::AtomXor);
      old = ref.fetch_xor(v);
    }
    d[l] = old;
  }
}

template <bool Shared>
ExecFn select_in_space(const isa::Instruction& inst) {
  using isa::Opcode;
  // Bit types move bits as the unsigned type of their width does.
  Type t = inst.type;
  if (t == Type::B8) t = Type::U8;
  if (t == Type::B16) t = Type::U16;
  if (t == Type::B32) t = Type::U32;
  if (t == Type::B64) t = Type::U64;
#define WARPSIM_EACH_TYPE(F)                                                                          \
  switch (t) {                                                                                        \
    case Type::U32: return F(U32);                                                                    \
    case Type::S32: return F(S32);                                                                    \
    case Type::U64: return F(U64);                                                                    \
    case Type::F32: return F(F32);                                                                    \
    case Type::S64: return F(S64);                                                                    \
    case Type::F64: return F(F64);                                                                    \
    default: break;                                                                                   \
  }
#define WARPSIM_LOAD(T) (&load<Type::T, Shared>)
#define WARPSIM_STORE(T) (&store<Type::T, Shared>)
  switch (inst.op) {
    case Opcode::Ld:
      WARPSIM_EACH_TYPE(WARPSIM_LOAD)
      switch (t) {
        case Type::U8: return &load<Type::U8, Shared>;
        case Type::S8: return &load<Type::S8, Shared>;
        case Type::U16: return &load<Type::U16, Shared>;
        case Type::S16: return &load<Type::S16, Shared>;
        default: return nullptr;
      }
    case Opcode::St:
      WARPSIM_EACH_TYPE(WARPSIM_STORE)
      // A store writes the low bits: signedness does not matter.
      if (t == Type::U8 || t == Type::S8) return &store<Type::U8, Shared>;
      if (t == Type::U16 || t == Type::S16) return &store<Type::U16, Shared>;
      return nullptr;
    default: break;
  }
#undef WARPSIM_LOAD
#undef WARPSIM_STORE
#define WARPSIM_ATOM_OF(T) (&atom<Type::T, OP, Shared>)
  {
    constexpr Opcode OP = Opcode::AtomAdd;
    if (inst.op == OP) { WARPSIM_EACH_TYPE(WARPSIM_ATOM_OF) return nullptr; }
  }
  {
    constexpr Opcode OP = Opcode::AtomMin;
    if (inst.op == OP) { WARPSIM_EACH_TYPE(WARPSIM_ATOM_OF) return nullptr; }
  }
  {
    constexpr Opcode OP = Opcode::AtomMax;
    if (inst.op == OP) { WARPSIM_EACH_TYPE(WARPSIM_ATOM_OF) return nullptr; }
  }
  {
    constexpr Opcode OP = Opcode::AtomExch;
    if (inst.op == OP) { WARPSIM_EACH_TYPE(WARPSIM_ATOM_OF) return nullptr; }
  }
  {
    constexpr Opcode OP = Opcode::AtomCas;
    if (inst.op == OP) { WARPSIM_EACH_TYPE(WARPSIM_ATOM_OF) return nullptr; }
  }
  {
    constexpr Opcode OP = Opcode::AtomInc;
    if (inst.op == OP) { WARPSIM_EACH_TYPE(WARPSIM_ATOM_OF) return nullptr; }
  }
  // atom.dec is u32 only; and, or and xor are b32 and b64 (moved as u32 and u64 above).
  if (inst.op == Opcode::AtomDec) return t == Type::U32 ? &atom<Type::U32, Opcode::AtomDec, Shared> : nullptr;
  if (inst.op == Opcode::AtomAnd) return t == Type::U32 ? &atom<Type::U32, Opcode::AtomAnd, Shared>
                                         : t == Type::U64 ? &atom<Type::U64, Opcode::AtomAnd, Shared> : nullptr;
  if (inst.op == Opcode::AtomOr) return t == Type::U32 ? &atom<Type::U32, Opcode::AtomOr, Shared>
                                        : t == Type::U64 ? &atom<Type::U64, Opcode::AtomOr, Shared> : nullptr;
  if (inst.op == Opcode::AtomXor) return t == Type::U32 ? &atom<Type::U32, Opcode::AtomXor, Shared>
                                         : t == Type::U64 ? &atom<Type::U64, Opcode::AtomXor, Shared> : nullptr;
#undef WARPSIM_ATOM_OF
#undef WARPSIM_EACH_TYPE
  return nullptr;
}

}  // namespace

ExecFn select_memory(const isa::Instruction& inst) {
  if (inst.space == isa::Space::Shared) return select_in_space<true>(inst);
  if (inst.space == isa::Space::Global) return select_in_space<false>(inst);
  return nullptr;
}

}  // namespace warpsim::sim
