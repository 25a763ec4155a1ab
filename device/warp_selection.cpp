#include "device/warp_selection.hpp"

#include <algorithm>

namespace warpsim {

WarpSelector::WarpSelector(const WarpSelection& selection, std::uint64_t warps_per_block)
    : selection_(selection), warps_per_block_(warps_per_block) {}

bool WarpSelector::less_efficient(const WarpStats& a, const WarpStats& b) const {
  // Exact comparison of thread / warp instruction ratios (the warp size is common to both).
  const unsigned __int128 lhs = static_cast<unsigned __int128>(a.thread_instructions) * b.warp_instructions;
  const unsigned __int128 rhs = static_cast<unsigned __int128>(b.thread_instructions) * a.warp_instructions;
  if (lhs != rhs) return lhs < rhs;
  return launch_order(a) < launch_order(b);
}

void WarpSelector::offer(std::vector<WarpStats>& heap, const WarpStats& w, bool by_efficiency) {
  auto before = [this, by_efficiency](const WarpStats& a, const WarpStats& b) {
    return by_efficiency ? less_efficient(a, b) : launch_order(a) < launch_order(b);
  };
  if (heap.size() < selection_.keep) {
    heap.push_back(w);
    std::push_heap(heap.begin(), heap.end(), before);
  } else if (!heap.empty() && before(w, heap.front())) {
    std::pop_heap(heap.begin(), heap.end(), before);
    heap.back() = w;
    std::push_heap(heap.begin(), heap.end(), before);
  }
}

void WarpSelector::add(const WarpStats& w) {
  switch (selection_.mode) {
    case WarpSelection::Mode::Default:
      offer(first_, w, false);
      offer(worst_, w, true);
      break;
    case WarpSelection::Mode::All: kept_.push_back(w); break;
    case WarpSelection::Mode::Divergent:
      if (w.divergent_branches > 0) kept_.push_back(w);
      break;
    case WarpSelection::Mode::BlockRange:
      if (w.block_linear >= selection_.first_block && w.block_linear <= selection_.last_block) kept_.push_back(w);
      break;
  }
}

void WarpSelector::merge(WarpSelector&& other) {
  for (const auto& w : other.first_) offer(first_, w, false);
  for (const auto& w : other.worst_) offer(worst_, w, true);
  kept_.insert(kept_.end(), std::make_move_iterator(other.kept_.begin()), std::make_move_iterator(other.kept_.end()));
}

std::vector<WarpStats> WarpSelector::finish() && {
  std::vector<WarpStats> out = std::move(kept_);
  out.insert(out.end(), first_.begin(), first_.end());
  out.insert(out.end(), worst_.begin(), worst_.end());
  auto order = [this](const WarpStats& a, const WarpStats& b) { return launch_order(a) < launch_order(b); };
  std::sort(out.begin(), out.end(), order);
  out.erase(std::unique(out.begin(), out.end(),
                        [this](const WarpStats& a, const WarpStats& b) { return launch_order(a) == launch_order(b); }),
            out.end());
  return out;
}

}  // namespace warpsim
