#include "device/stats.hpp"

namespace warpsim {

IdleLanes& IdleLanes::operator+=(const IdleLanes& o) {
  padding += o.padding;
  divergence += o.divergence;
  exited += o.exited;
  predicated += o.predicated;
  return *this;
}

}  // namespace warpsim

namespace warpsim {

StallBreakdown& StallBreakdown::operator+=(const StallBreakdown& o) {
  issued += o.issued;
  dependency += o.dependency;
  memory += o.memory;
  barrier += o.barrier;
  not_selected += o.not_selected;
  unit_busy += o.unit_busy;
  no_instruction += o.no_instruction;
  return *this;
}

MemoryStats& MemoryStats::operator+=(const MemoryStats& o) {
  global_load_requests += o.global_load_requests;
  global_store_requests += o.global_store_requests;
  global_atomic_requests += o.global_atomic_requests;
  global_sectors += o.global_sectors;
  l1_sector_accesses += o.l1_sector_accesses;
  l1_sector_hits += o.l1_sector_hits;
  l2_sector_accesses += o.l2_sector_accesses;
  l2_sector_hits += o.l2_sector_hits;
  dram_bytes += o.dram_bytes;
  shared_requests += o.shared_requests;
  shared_passes += o.shared_passes;
  return *this;
}

}  // namespace warpsim
