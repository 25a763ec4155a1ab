// The built-in GPU presets (sim/presets/*.ini), embedded at configure time by sim/CMakeLists.txt.
#pragma once
#include <span>
#include <string_view>

namespace warpsim::sim::presets {

struct EmbeddedPreset {
  std::string_view name;  // the file name without .ini
  std::string_view text;
};

// In the order `warpsim gpus` lists them: h100 first (the default), then by name.
std::span<const EmbeddedPreset> embedded();

}  // namespace warpsim::sim::presets
