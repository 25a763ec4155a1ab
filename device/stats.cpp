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
