#include "kernels/size_expr.hpp"

#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "isa/literal.hpp"

namespace warpsim::kernels {

namespace {

// Recursive descent over the text; every mistake names the expression and the offending place.
class Evaluator {
 public:
  Evaluator(std::string_view text, const SizeNames& names, const std::string& what)
      : text_(text), names_(names), what_(what) {}

  std::uint64_t all() {
    const auto v = sum();
    skip();
    if (at_ < text_.size()) fail(fmt::format("unexpected '{}'", text_.substr(at_)));
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw Error(fmt::format("{}: '{}': {}", what_, text_, why));
  }
  void skip() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool eat(char c) {
    skip();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  std::uint64_t sum() {
    auto v = product();
    while (true) {
      if (eat('+')) {
        const auto r = product();
        if (v + r < v) fail("the sum is larger than 2^64-1");
        v += r;
      } else if (eat('-')) {
        const auto r = product();
        if (r > v) fail(fmt::format("{} - {} is below 0", v, r));
        v -= r;
      } else {
        return v;
      }
    }
  }
  std::uint64_t product() {
    auto v = factor();
    while (true) {
      if (eat('*')) {
        const auto r = factor();
        if (r != 0 && v > ~std::uint64_t{0} / r) fail("the product is larger than 2^64-1");
        v *= r;
      } else if (eat('/')) {
        v /= divisor();
      } else if (eat('%')) {
        v %= divisor();
      } else {
        return v;
      }
    }
  }
  std::uint64_t divisor() {
    const auto r = factor();
    if (r == 0) fail("division by 0");
    return r;
  }
  std::uint64_t factor() {
    skip();
    if (eat('(')) {
      const auto v = sum();
      if (!eat(')')) fail("a '(' is not closed");
      return v;
    }
    const std::size_t start = at_;
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
    const auto word = text_.substr(start, at_ - start);
    if (word.empty()) fail(at_ < text_.size() ? fmt::format("expected a number or a name at '{}'", text_.substr(at_))
                                              : "expected a number or a name at the end");
    if (std::isdigit(static_cast<unsigned char>(word[0]))) {
      std::string why;
      const auto v = isa::parse_literal(word, isa::Type::U64, why);
      if (!v) fail(why);
      return *v;
    }
    if (eat('(')) return call(word);
    if (const auto v = names_.name(word)) return *v;
    fail(fmt::format("no parameter named '{}'", word));
  }
  std::uint64_t call(std::string_view function) {
    if (function == "count") {
      skip();
      const std::size_t start = at_;
      while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
      const auto buffer = text_.substr(start, at_ - start);
      if (!eat(')')) fail("count takes one buffer name: count(NAME)");
      if (const auto v = names_.count(buffer)) return *v;
      fail(fmt::format("count({}): no buffer of that name is declared before this point", buffer));
    }
    std::vector<std::uint64_t> args{sum()};
    while (eat(',')) args.push_back(sum());
    if (!eat(')')) fail(fmt::format("{}( is not closed", function));
    if (args.size() != 2) fail(fmt::format("{} takes two arguments", function));
    if (function == "min") return std::min(args[0], args[1]);
    if (function == "max") return std::max(args[0], args[1]);
    if (function == "cdiv") {
      if (args[1] == 0) fail("cdiv by 0");
      return args[0] / args[1] + (args[0] % args[1] != 0);
    }
    fail(fmt::format("unknown function '{}' (cdiv, min, max, count)", function));
  }

  std::string_view text_;
  const SizeNames& names_;
  const std::string& what_;
  std::size_t at_ = 0;
};

}  // namespace

std::uint64_t evaluate_size(std::string_view text, const SizeNames& names, const std::string& what) {
  return Evaluator(text, names, what).all();
}

}  // namespace warpsim::kernels
