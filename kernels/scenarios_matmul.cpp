// Built-in matrix multiply scenarios (TEXTBOOK.md section 5): one thread per output, the tiled
// kernel of PMPP chapter 5 and its coarsened form (PMPP 6.3), all checked against the host.
#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "kernels/matmul_coarsened.hpp"
#include "kernels/registry.hpp"

namespace warpsim::kernels {

namespace {

enum class MatmulKind { Naive, Tiled, Coarsened };

// The largest tile: a TILE x TILE block holds at most 1024 threads, and the kernels' shared
// tiles hold 32 x 32 floats.
constexpr std::uint64_t kMaxTile = 32;

// "1, 2, 4, 8 or 16"
std::string coarse_factor_list() {
  std::string out;
  for (const auto c : kMatmulCoarseFactors) {
    if (!out.empty()) out += c == kMatmulCoarseFactors.back() ? " or " : ", ";
    out += std::to_string(c);
  }
  return out;
}

class Matmul final : public Scenario {
 public:
  Matmul(std::string name, std::string description, std::string file, MatmulKind kind)
      : name_(std::move(name)), description_(std::move(description)), file_(std::move(file)), kind_(kind) {}
  std::string_view name() const override { return name_; }
  std::string_view description() const override { return description_; }
  std::string_view kernel_file() const override { return file_; }
  std::vector<ParamSpec> params() const override {
    std::vector<ParamSpec> p{{"rows", 100, "rows of M and of P", 1, 65535},
                             {"inner", 70, "columns of M, rows of N", 1, 65535},
                             {"cols", 120, "columns of N and of P", 1, 65535},
                             {"tile", 16, "block width and height (TILE), at most 32", 1, kMaxBlockDim}};
    if (kind_ == MatmulKind::Coarsened)
      p.push_back({"coarse", 4, "outputs per thread along a row (COARSE_FACTOR): " + coarse_factor_list(), 1, 1024});
    return p;
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    const auto rows = p.at("rows"), inner = p.at("inner"), cols = p.at("cols"), tile = p.at("tile");
    const std::uint64_t coarse = kind_ == MatmulKind::Coarsened ? p.at("coarse") : 1;
    check_shape(rows, inner, cols, tile, coarse);
    Outcome out;
    Session s(device, options, out);
    const auto m = random_floats(rows * inner, options.seed), n = random_floats(inner * cols, options.seed + 1);
    const auto dm = s.upload("M", m), dn = s.upload("N", n), dp = s.zeros("P", rows * cols * 4);
    const auto file =
        kind_ == MatmulKind::Coarsened ? matmul_coarsened_file(static_cast<std::uint32_t>(coarse)) : file_;
    const auto t = static_cast<std::uint32_t>(tile);
    s.launch(s.kernel(file), Dim3{ceil_div(cols, tile * coarse), ceil_div(rows, tile), 1}, Dim3{t, t, 1},
             {dm, dn, dp, rows, inner, cols});
    const auto got = s.download<float>(dp, rows * cols);
    // Every kernel adds the products in k order with one fused multiply-add each (the tiles'
    // zero padding adds +0, which changes nothing), so the host's fma gives the same bits.
    for (std::uint64_t r = 0; r < rows; ++r)
      for (std::uint64_t c = 0; c < cols; ++c) {
        float want = 0.0f;
        for (std::uint64_t k = 0; k < inner; ++k) want = std::fma(m[r * inner + k], n[k * cols + c], want);
        if (std::bit_cast<std::uint32_t>(got[r * cols + c]) != std::bit_cast<std::uint32_t>(want)) {
          out.checked = true;
          out.check = fmt::format("P[{}][{}] = {:.9g}, expected {:.9g}", r, c, got[r * cols + c], want);
          return out;
        }
      }
    out.checked = out.passed = true;
    out.check = fmt::format("{}x{} outputs equal the host's fused multiply-adds in k order exactly", rows, cols);
    return out;
  }

 private:
  void check_shape(std::uint64_t rows, std::uint64_t inner, std::uint64_t cols, std::uint64_t tile,
                   std::uint64_t coarse) const {
    if (tile > kMaxTile)
      throw Error(
          fmt::format("{}: tile = {} makes a {}x{} block of {} threads, over the 1024 a block may hold "
                      "(tile is at most {})",
                      name_, tile, tile, tile, tile * tile, kMaxTile));
    if (std::find(kMatmulCoarseFactors.begin(), kMatmulCoarseFactors.end(), coarse) == kMatmulCoarseFactors.end())
      throw Error(
          fmt::format("{}: coarse = {}: the coarsened kernel exists for coarse = {} "
                      "(kernels/matmul_coarsened_cN.kir)",
                      name_, coarse, coarse_factor_list()));
    for (const auto& [what, count] : {std::pair{"M", rows * inner}, {"N", inner * cols}, {"P", rows * cols}})
      if (count > kMaxElements)
        throw Error(fmt::format("{}: {} would hold {} elements, more than the {} a scenario allocates", name_, what,
                                count, kMaxElements));
  }

  std::string name_, description_, file_;
  MatmulKind kind_;
};

}  // namespace

void register_matmul_scenarios(std::vector<std::unique_ptr<Scenario>>& out) {
  out.push_back(std::make_unique<Matmul>("matmul-naive",
                                         "P = M x N, one thread per output, row < rows && col < cols (PMPP 3.4)",
                                         "matmul_naive.kir", MatmulKind::Naive));
  out.push_back(std::make_unique<Matmul>(
      "matmul-tiled", "P = M x N with TILE x TILE shared tiles of M and N, two barriers per phase (PMPP 5.4-5.5)",
      "matmul_tiled.kir", MatmulKind::Tiled));
  out.push_back(std::make_unique<Matmul>(
      "matmul-coarsened",
      "tiled P = M x N coarsened: TILE x TILE*coarse outputs per block, the M tile reused coarse times (PMPP 6.3)",
      "matmul_coarsened_c{coarse}.kir", MatmulKind::Coarsened));
}

}  // namespace warpsim::kernels
