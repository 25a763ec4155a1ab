// Random structured kernels for differential testing: a small tree language (assignments, ifs,
// bounded loops with break and continue out of several levels, early exits, guarded instructions,
// own-slot stores, commutative atomics, and, in uniform code, shuffles, votes and barrier
// exchanges), a generator, and the .kir text of a program. The oracle is fuzz/reference.hpp.
//
// Kernels are race-free by construction, so one answer is right whatever order threads run in:
// a thread writes only its own global and shared slots; atomics only add, take the minimum or the
// maximum and their old value is never used; threads read another thread's slot only between the
// two barriers of an exchange, in code every thread of the block reaches (the top level).
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace warpsim::fuzz {

constexpr std::uint32_t kRegisters = 6;     // r0..r5, u32
constexpr std::uint32_t kOutSlots = 4;      // global `out`: per thread, kOutSlots words
constexpr std::uint32_t kSharedSlots = 2;   // shared `own`: per thread
constexpr std::uint32_t kCounters = 3;      // shared and global counters: add, min, max
constexpr std::uint32_t kInputWords = 4;    // global `input`: per thread
constexpr std::uint32_t kMaxDepth = 4;      // nesting of ifs and loops

// An operand: a register, an immediate or one of the thread's fixed values.
struct Operand {
  enum class Kind : std::uint8_t { Register, Immediate, Tid, Lane, Block, LoopCounter };
  Kind kind = Kind::Immediate;
  std::uint32_t value = 0;  // register number, immediate, or loop level (0: outermost)
};

enum class Cmp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
struct Condition {
  Operand a, b;
  Cmp cmp = Cmp::Eq;
};

enum class BinOp : std::uint8_t { Add, Sub, Mul, And, Or, Xor, Min, Max, Shl, Shr };
enum class ShuffleKind : std::uint8_t { Down, Up, Xor, Idx };
enum class VoteKind : std::uint8_t { Any, All, Ballot, ActiveMask };
enum class AtomOp : std::uint8_t { Add, Min, Max };  // counter k always uses AtomOp(k)

struct Stmt {
  enum class Kind : std::uint8_t {
    Assign,       // rD = a op b
    Guarded,      // if (cond) rD = a op b, as one predicated instruction
    If,           // if (cond) body else other
    Loop,         // for (i = 0; i < (a & 7); ++i) body
    Break,        // if (cond) break out of `levels` loops (1: the innermost)
    Continue,     // if (cond) continue the loop `levels` up (1: the innermost)
    Exit,         // if (cond) the thread ends
    LoadInput,    // rD = input[gid * kInputWords + slot]
    StoreGlobal,  // out[gid * kOutSlots + slot] = a
    StoreShared,  // own[tid * kSharedSlots + slot] = a
    LoadShared,   // rD = own[tid * kSharedSlots + slot]
    AtomShared,   // counter `slot` in shared memory op= a
    AtomGlobal,   // counter `slot` in global memory op= a
    // Top level only (every live thread of the block reaches them together):
    Shuffle,      // rD = shfl.kind(a, lane operand `slot`)
    Vote,         // rD = vote.kind(cond)
    Exchange,     // snap[tid] = a; bar.sync; rD = snap[(tid + slot) % block]; bar.sync
  };
  Kind kind = Kind::Assign;
  std::uint32_t dst = 0;
  BinOp op = BinOp::Add;
  Operand a, b;
  Condition cond;
  std::uint32_t slot = 0;    // see the kinds; Break/Continue: levels
  ShuffleKind shuffle = ShuffleKind::Down;
  VoteKind vote = VoteKind::Any;
  std::vector<Stmt> body, other;
};

struct Program {
  std::vector<Stmt> body;
  std::uint32_t block_threads = 32;
  std::uint32_t blocks = 1;
};

// A random program from `rng`; sizes stay small enough to run in milliseconds.
Program generate(std::mt19937_64& rng);

// The kernel's .kir text. Parameters: ptr.u32 input, out, regs, counters; u32 n (threads in all).
// At the end every live thread stores its registers to regs[gid * kRegisters + j], and after a
// last barrier thread k < kCounters of each block adds the block's shared counter k into the
// global counter kCounters + k (with the counter's own operation).
std::string to_kir(const Program& program);

// Threads in the launch and the words of each buffer.
inline std::uint32_t total_threads(const Program& p) { return p.blocks * p.block_threads; }
inline std::uint32_t counter_words() { return 2 * kCounters; }
// The initial value of global counter k (the minimum counter starts high).
inline std::uint32_t counter_initial(std::uint32_t k) { return k % kCounters == 1 ? 0xffffffffu : 0u; }

}  // namespace warpsim::fuzz
