// One expectation of a scenario file: a buffer (or one element of it) against a file, another
// buffer, a value or the sum of a buffer, exactly or within a tolerance.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "isa/types.hpp"

namespace warpsim::kernels {

struct Expectation {
  enum class Against { File, Buffer, Initial, Value, SumOf };
  std::string buffer;              // what is checked: a buffer as the device left it
  Against against = Against::Value;
  std::string reference;           // File: the path as written; Buffer, Initial, SumOf: a buffer; Value: the value
  std::string stride = "1", offset = "0";  // Buffer and Initial: element i is compared with reference[offset + i*stride]
  std::string index;               // one element only (a scalar result); "" = every element
  std::string count;               // the first `count` elements only; "" = every element
  double tolerance = 0;            // |got - want| <= tolerance + relative * |want|
  double relative = 0;
};

// The elements an expectation compares, once sizes are evaluated.
struct Comparison {
  std::span<const std::byte> got;   // the checked buffer's bytes
  isa::Type type = isa::Type::U32;
  std::uint64_t first = 0, count = 0;  // elements [first, first + count) of `got`
  // Element i of `got` is compared with element offset + (i - first) * stride of `want`, or with
  // `want`'s only element when it holds one (a value, a sum).
  std::span<const std::byte> want;
  isa::Type want_type = isa::Type::U32;
  std::uint64_t offset = 0, stride = 1;
  bool want_is_sum = false;         // `want` is one f64 sum, compared in double precision
};

struct Verdict {
  bool passed = false;
  std::string text;  // what was compared, or the first difference
};

// `what` names the reference in the text ("initial in[2*i]", "file c.bin").
Verdict compare(const Expectation& e, const Comparison& c, const std::string& what);

}  // namespace warpsim::kernels
