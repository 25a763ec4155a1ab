// Stop 36's microbenchmarks (compared only), kept beside suite.cpp's list: what the arithmetic
// between a loaded index and the load it addresses costs (kernels/microbench/mb_addr.kir). The
// lowering rules sm.fold_widenings and sm.fuse_addresses, which the SASS supports, made kernels whose
// loads' addresses go through that arithmetic faster than the GPU in the held-out replay; these say
// what the chain itself takes on the GPU and in the model.
#include "tools/calibrate/suite_run.hpp"

namespace warpsim::calib::suite_detail {

namespace {

// One thread's chase over 64 random lines of 8 KiB (word 32 n holds the next node's word index),
// `warm` untimed steps first; cycles per dependent load.
double index_chase(const Target& t, const std::string& kernel) {
  Run run(t);
  constexpr std::size_t nodes = 64, bytes = nodes * 128;
  const auto base = run.zeros(bytes);
  const auto order = chain_order(nodes);
  std::vector<std::uint64_t> words(bytes / 8, 0);  // pairs of u32 words, little-endian
  for (std::size_t i = 0; i < nodes; ++i)
    words[std::size_t{order[i]} * 16] = std::uint64_t{order[(i + 1) % nodes]} * 32;
  run.write(base, words);
  const auto out = run.zeros(16);
  constexpr std::uint32_t warm = 64, steps = 1024;
  run.launch("mb_addr.kir", kernel, 1, 1, {base, out, warm, steps});
  return double(run.read_u64(out, 1)[0]) / steps;
}

}  // namespace

void add_stop36(std::vector<BenchInfo>& s) {
  const std::pair<const char*, const char*> cases[] = {
      {"wide", "the address mul.wide.u32 and add.u64 of the index (IMAD.WIDE.U32)"},
      {"zext", "the address cvt.u64.u32, shl.b64 and add.u64 of the index (LEA, LEA.HI.X)"},
      {"sext", "the address cvt.s64.s32, shl.b64 and add.u64 of the index (LEA, LEA.HI.X.SX32)"},
  };
  for (const auto& [name, what] : cases)
    s.push_back({fmt::format("chase-idx-{}-l1", name),
                 fmt::format("one thread, random chase of u32 indices over 64 lines (8 KiB), warmed; {}", what),
                 "cycles/load", "", Fit::None, 1,
                 [kernel = fmt::format("chase_idx_{}", name)](const Target& t) { return index_chase(t, kernel); }});
}

}  // namespace warpsim::calib::suite_detail
