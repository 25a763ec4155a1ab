// The small arithmetic of scenario files: sizes, grids and scalar arguments written in terms of the
// scenario's parameters and the element counts of its buffers ("cdiv(n, block)", "count(partial)").
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace warpsim::kernels {

// Looks up a name (a parameter) or count(BUFFER); nullopt when there is no such thing.
struct SizeNames {
  std::function<std::optional<std::uint64_t>(std::string_view)> name;
  std::function<std::optional<std::uint64_t>(std::string_view)> count;
};

// Evaluates `text`: unsigned 64-bit integers (decimal or 0x hex), names, + - * / % (integer
// division; a result below 0 or over 2^64-1 is an error, never wrapped), parentheses, and the
// functions cdiv(a, b) (a / b rounded up), min(a, b), max(a, b) and count(BUFFER). Throws Error
// (exit 1) naming `what` and the problem.
std::uint64_t evaluate_size(std::string_view text, const SizeNames& names, const std::string& what);

}  // namespace warpsim::kernels
