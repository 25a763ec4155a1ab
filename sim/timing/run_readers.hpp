// Who reads the value an instruction writes within its straight-line run: the compiler shape's
// fusions ask it (fuse_logic's LOP3 and funnel shifts, lower64.cpp's IMAD.WIDE and LEA). NVVM
// writes a register once, so a value read nowhere else in the kernel has its one reader.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/decode.hpp"

namespace warpsim::sim {

class RunReaders {
 public:
  RunReaders(const std::vector<Inst>& code, std::uint32_t slots) : code_(code), readers_(slots, 0) {
    for (const Inst& in : code)
      for (unsigned k = 0; k < in.read_count; ++k)
        if (in.reads[k] < slots) ++readers_[in.reads[k]];
  }
  // Whether register r is read by one instruction in the whole kernel.
  bool single(std::uint32_t r) const { return r < readers_.size() && readers_[r] == 1; }
  // The instruction of pc's straight-line run after pc that reads r, or 0 (none, a control-flow
  // reader, or r written first: its value is gone unread).
  std::uint32_t reader_in_run(std::uint32_t pc, std::uint32_t r) const {
    for (std::uint32_t k = pc + 1; k < code_.size(); ++k) {
      const Inst& next = code_[k];
      if (next.block_start) return 0;
      for (unsigned j = 0; j < next.read_count; ++j)
        if (next.reads[j] == r) return next.flow == Flow::Normal ? k : 0;
      if (next.flow != Flow::Normal || next.write == r) return 0;
    }
    return 0;
  }
  // Whether the value pc writes is read by `reader` only: the register is written again in the run
  // before any other read, or nothing else in the kernel reads it.
  bool only_reader(std::uint32_t pc, std::uint32_t reader) const {
    const std::uint32_t reg = code_[pc].write;
    if (code_[reader].write == reg) return true;
    for (std::uint32_t k = reader + 1; k < code_.size(); ++k) {
      const Inst& next = code_[k];
      if (next.block_start) break;
      for (unsigned j = 0; j < next.read_count; ++j)
        if (next.reads[j] == reg) return false;
      if (next.write == reg && !next.guarded) return true;  // a guarded write may leave the value
      if (next.flow != Flow::Normal) break;
    }
    return single(reg);
  }

 private:
  const std::vector<Inst>& code_;
  std::vector<std::uint32_t> readers_;
};

}  // namespace warpsim::sim
