// Lane semantics of vector loads and stores (ld/st .v2 and .v4 in any space), of local memory
// (ld.local/st.local: each thread's own bytes) and of mov's packed form (`mov.b64 {lo, hi}, x` and
// back). They go lane by lane: every executing lane's address is checked (alignment to the whole
// vector, bounds) before any register or byte is written, then each lane moves its elements in
// order. Global elements are relaxed atomic accesses, as in sim/lanes_memory.cpp; shared and local
// memory belong to one block and one thread: plain copies.
#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "isa/opcodes.hpp"
#include "sim/global_memory.hpp"
#include "sim/lanes.hpp"

namespace warpsim::sim {
namespace {

using namespace lanes;
using isa::Space;

template <Type T>
using Element = std::conditional_t<kBits<T> == 8, std::uint8_t, std::conditional_t<kBits<T> == 16, std::uint16_t, Word<T>>>;

template <Space S>
[[noreturn, gnu::cold]] void fault(const Inst& in, const LaneContext& c, unsigned lane, std::uint64_t address,
                                   unsigned size, const char* what, bool misaligned) {
  const char* space = S == Space::Global ? "global" : S == Space::Shared ? "shared" : "local";
  if (misaligned)
    c.faults->raise(in, lane,
                    fmt::format("misaligned {} {} of {} bytes at {:#x} (the address must be a multiple of {})", space,
                                what, size, address, size));
  if constexpr (S == Space::Shared)
    c.faults->raise(in, lane,
                    fmt::format("shared {} of {} bytes at {:#x} is outside the block's {} bytes of shared memory", what,
                                size, address, c.shared_bytes));
  else if constexpr (S == Space::Local)
    c.faults->raise(in, lane,
                    fmt::format("local {} of {} bytes at {:#x} is outside the thread's {} bytes of local memory", what,
                                size, address, c.local_bytes));
  else
    c.faults->raise(in, lane,
                    fmt::format("global {} of {} bytes at {:#x} is outside every allocation: {}", what, size, address,
                                c.global->describe(address, size)));
}

// The host address of every executing lane's access of `size` bytes; faults on the first bad lane.
template <Space S>
void host_addresses(const Inst& in, LaneContext& c, unsigned size, const char* what, std::byte** host) {
  std::uint64_t address[64];
  lane_addresses<S != Space::Global>(in, c, address);
  for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
    const unsigned l = lowest_lane(m);
    const std::uint64_t a = address[l];
    if ((a & (size - 1)) != 0) fault<S>(in, c, l, a, size, what, true);
    if constexpr (S == Space::Shared) {
      if (a >= c.shared_bytes || c.shared_bytes - a < size) fault<S>(in, c, l, a, size, what, false);
      host[l] = c.shared + a;
    } else if constexpr (S == Space::Local) {
      if (a >= c.local_bytes || c.local_bytes - a < size) fault<S>(in, c, l, a, size, what, false);
      host[l] = c.local + std::size_t{l} * c.local_bytes + a;
    } else {
      int i = c.allocation_cache[in.pc];
      if (i < 0 || a < c.global->at(i).base || a - c.global->at(i).base > c.global->at(i).size ||
          c.global->at(i).size - (a - c.global->at(i).base) < size)
        i = c.global->find(a, size);
      if (i < 0) fault<S>(in, c, l, a, size, what, false);
      c.allocation_cache[in.pc] = i;
      host[l] = c.global->at(i).data.get() + (a - c.global->at(i).base);
    }
  }
}

template <Space S, class M>
void load_element(M& to, const std::byte* from) {
  if constexpr (S == Space::Global)
    to = std::atomic_ref<M>(*reinterpret_cast<M*>(const_cast<std::byte*>(from))).load(std::memory_order_relaxed);
  else
    std::memcpy(&to, from, sizeof(M));
}

template <Space S, class M>
void store_element(std::byte* to, M value) {
  if constexpr (S == Space::Global)
    std::atomic_ref<M>(*reinterpret_cast<M*>(to)).store(value, std::memory_order_relaxed);
  else
    std::memcpy(to, &value, sizeof(M));
}

// ld[.vN]: element k of lane l goes to the k-th braced register (dst, then src[1..].offset);
// 8- and 16-bit elements are zero- or sign-extended by T, as scalar loads do.
template <Type T, Space S>
void load(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  using M = Element<T>;
  const unsigned n = in.vector > 1 ? in.vector : 1;
  std::byte* host[64];
  host_addresses<S>(in, c, static_cast<unsigned>(sizeof(M)) * n, "load", host);
  W* d[4] = {destination<W>(c, in.dst)};
  for (unsigned k = 1; k < n; ++k) d[k] = destination<W>(c, in.src[k].offset);
  for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
    const unsigned l = lowest_lane(m);
    for (unsigned k = 0; k < n; ++k) {
      M e;
      load_element<S>(e, host[l] + k * sizeof(M));
      if constexpr (kSigned<T> && kBits<T> < 32) d[k][l] = word_of<T>(static_cast<Value<T>>(e));
      else d[k][l] = static_cast<W>(e);
    }
  }
}

// st[.vN]: element k of lane l is src[k]'s low bits.
template <Type T, Space S>
void store(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  using M = Element<T>;
  const unsigned n = in.vector > 1 ? in.vector : 1;
  std::byte* host[64];
  host_addresses<S>(in, c, static_cast<unsigned>(sizeof(M)) * n, "store", host);
  const W* v[4] = {};
  for (unsigned k = 0; k < n; ++k) v[k] = source<W>(c, in.src[k]);
  for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
    const unsigned l = lowest_lane(m);
    for (unsigned k = 0; k < n; ++k) store_element<S>(host[l] + k * sizeof(M), static_cast<M>(v[k][l]));
  }
}

// mov.b64 {lo, hi}, x and mov.b32 {lo, hi}, x: the low and high halves of x.
template <class Whole, unsigned HalfBits>
void unpack(const Inst& in, LaneContext& c) {
  const Whole* x = source<Whole>(c, in.src[0]);
  std::uint32_t values[2][64];
  constexpr Whole low_mask = (Whole{1} << HalfBits) - 1;
  for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
    const unsigned l = lowest_lane(m);
    values[0][l] = static_cast<std::uint32_t>(x[l] & low_mask);
    values[1][l] = static_cast<std::uint32_t>(x[l] >> HalfBits);
  }
  std::uint32_t* lo = destination<std::uint32_t>(c, in.dst);
  std::uint32_t* hi = destination<std::uint32_t>(c, in.src[1].offset);
  for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
    const unsigned l = lowest_lane(m);
    lo[l] = values[0][l];
    hi[l] = values[1][l];
  }
}

// mov.b64 x, {lo, hi} and mov.b32 x, {lo, hi}.
template <class Whole, unsigned HalfBits>
void pack(const Inst& in, LaneContext& c) {
  const std::uint32_t* lo = source<std::uint32_t>(c, in.src[0]);
  const std::uint32_t* hi = source<std::uint32_t>(c, in.src[1]);
  constexpr Whole low_mask = (Whole{1} << HalfBits) - 1;
  write_lanes(destination<Whole>(c, in.dst), c,
              [&](unsigned l) { return static_cast<Whole>((Whole{lo[l]} & low_mask) | ((Whole{hi[l]} & low_mask) << HalfBits)); });
}

template <Space S>
ExecFn select_in_space(const isa::Instruction& inst) {
  using isa::Opcode;
  Type t = inst.type;  // bit types move bits as the unsigned type of their width does
  if (t == Type::B8) t = Type::U8;
  if (t == Type::B16) t = Type::U16;
  if (t == Type::B32) t = Type::U32;
  if (t == Type::B64) t = Type::U64;
  if (inst.op == Opcode::St) {  // a store writes the low bits: signedness does not matter
    if (t == Type::S8) t = Type::U8;
    if (t == Type::S16) t = Type::U16;
  }
#define WARPSIM_EACH(F)                \
  switch (t) {                         \
    case Type::U8: return &F<Type::U8, S>;   \
    case Type::S8: return &F<Type::S8, S>;   \
    case Type::U16: return &F<Type::U16, S>; \
    case Type::S16: return &F<Type::S16, S>; \
    case Type::U32: return &F<Type::U32, S>; \
    case Type::S32: return &F<Type::S32, S>; \
    case Type::U64: return &F<Type::U64, S>; \
    case Type::S64: return &F<Type::S64, S>; \
    case Type::F32: return &F<Type::F32, S>; \
    case Type::F64: return &F<Type::F64, S>; \
    default: return nullptr;           \
  }
  if (inst.op == Opcode::Ld) WARPSIM_EACH(load)
  if (inst.op == Opcode::St) WARPSIM_EACH(store)
#undef WARPSIM_EACH
  return nullptr;
}

}  // namespace

ExecFn select_vector(const isa::Instruction& inst) {
  if (inst.op == isa::Opcode::Mov) {
    if (inst.vector != 2) return nullptr;
    const bool unpacking = inst.vector_at == 0;
    if (inst.type == Type::B64) return unpacking ? &unpack<std::uint64_t, 32> : &pack<std::uint64_t, 32>;
    if (inst.type == Type::B32) return unpacking ? &unpack<std::uint32_t, 16> : &pack<std::uint32_t, 16>;
    return nullptr;
  }
  switch (inst.space) {
    case Space::Global: return select_in_space<Space::Global>(inst);
    case Space::Shared: return select_in_space<Space::Shared>(inst);
    case Space::Local: return select_in_space<Space::Local>(inst);
    case Space::None: break;
  }
  return nullptr;
}

}  // namespace warpsim::sim
