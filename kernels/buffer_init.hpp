// Buffer initialisers, shared by `--buffer` on the command line and by scenario files: one
// specification (type, count, initialiser) and the one routine that turns it into bytes, so that
// `random` means the same everywhere (docs/inputs.md lists every initialiser per type).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <span>
#include <vector>

#include "isa/types.hpp"

namespace warpsim::kernels {

struct BufferSpec {
  enum class Init { Zeros, Constant, Iota, Random, File };
  std::string name;
  isa::Type type = isa::Type::None;
  std::uint64_t count = 0;  // 0 with Init::File: as many elements as the file holds
  Init init = Init::Zeros;
  std::string value;        // Constant: the value; Iota: the start; Random: the bound ("" = none)
  std::string step;         // Iota: the step ("" = 1)
  std::string path;         // File
  std::string origin = "--buffer";  // names the buffer in messages: "--buffer a", "scenario.json: buffer a"

  // The command-line form, "a=f32[1003]:random" (what reports record and `--buffer` reads back).
  std::string text() const;
};

// "a=f32[1003]:random", "c=u32[64]:zeros", "x=f32[8]:const:1.5", "i=u32[10]:iota[:START[:STEP]]",
// "r=u32[64]:random:16", "d=f32:file:in.bin". Usage errors (exit 2) name what is wrong.
BufferSpec parse_buffer_spec(const std::string& text);
// Refuses what no initialiser can make: a bound of 0, a float bound that is not positive and finite.
void check_buffer_spec(const BufferSpec& spec);

// One value of `type` as the IR would write it (isa/literal.hpp); a usage error naming `what` else.
// s32 values come back as their 32-bit pattern.
std::uint64_t parse_value(std::string_view text, isa::Type type, const std::string& what);

// The elements a file buffer holds (the declared count must match the file when given).
std::uint64_t file_elements(const BufferSpec& spec);
// `count` elements, little-endian, as the initialiser makes them with `seed`.
std::vector<std::byte> make_contents(const BufferSpec& spec, std::uint64_t count, std::uint64_t seed);
// The same written into `out` (count times the element size bytes, zeroed where the initialiser is
// zeros): the simulator's device memory filled in place (Device::host_storage).
void fill_contents(const BufferSpec& spec, std::uint64_t count, std::uint64_t seed, std::span<std::byte> out);

}  // namespace warpsim::kernels
