// Built-in scenarios for warp formation, boundary checks, a divergent loop and reportClocks
// (TEXTBOOK.md sections 1, 2, 3 and 6), and vecadd and gray coarsened (section 5).
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "kernels/registry.hpp"

namespace warpsim::kernels {

namespace {

void fail_at(Outcome& out, std::string what) {
  out.checked = true;
  out.passed = false;
  out.check = std::move(what);
}
void pass(Outcome& out, std::string what) {
  out.checked = true;
  out.passed = true;
  out.check = std::move(what);
}

class WarpShapes final : public Scenario {
 public:
  std::string_view name() const override { return "warp-shapes"; }
  std::string_view description() const override {
    return "how 1D/2D/3D blocks are cut into warps (PMPP 5.3, CUDA Handbook 7.3)";
  }
  std::string_view kernel_file() const override { return "warp_shapes.kir"; }
  std::vector<ParamSpec> params() const override {
    return {{"block_x", 8, "threads per block in x", 1, kMaxBlockDim},
            {"block_y", 8, "threads per block in y", 1, kMaxBlockDim},
            {"block_z", 1, "threads per block in z", 1, kMaxBlockZ},
            {"grid", 1, "blocks (1D grid)", 1, kMaxGrid}};
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    const Dim3 block{static_cast<std::uint32_t>(p.at("block_x")), static_cast<std::uint32_t>(p.at("block_y")),
                     static_cast<std::uint32_t>(p.at("block_z"))};
    const auto grid = static_cast<std::uint32_t>(p.at("grid"));
    const std::uint64_t threads = block.count() * grid;
    const auto buffer = s.zeros("out", threads * 8);
    s.launch(s.kernel(kernel_file()), Dim3{grid, 1, 1}, block, {buffer});
    const auto got = s.download<std::uint32_t>(buffer, threads * 2);
    const std::uint32_t ws = device.limits().warp_size;
    for (std::uint64_t t = 0; t < threads; ++t) {
      const std::uint64_t linear = t % block.count();
      if (got[2 * t] != linear / ws || got[2 * t + 1] != linear % ws) {
        fail_at(out, fmt::format("thread {} of block {}: (warp, lane) = ({}, {}), expected ({}, {})", linear,
                                 t / block.count(), got[2 * t], got[2 * t + 1], linear / ws, linear % ws));
        return out;
      }
    }
    pass(out, fmt::format("{} threads: warp = linear / {}, lane = linear % {}", threads, ws, ws));
    return out;
  }
};

// vecadd, and with `coarsened` its PMPP 6.3 form: each thread adds `coarse` elements.
class VecAdd final : public Scenario {
 public:
  explicit VecAdd(bool coarsened) : coarsened_(coarsened) {}
  std::string_view name() const override { return coarsened_ ? "vecadd-coarsened" : "vecadd"; }
  std::string_view description() const override {
    return coarsened_ ? "vector add, coarse elements per thread: coarsening with nothing to save (PMPP 6.3)"
                      : "vector add with an i < n boundary check (PMPP 5.3)";
  }
  std::string_view kernel_file() const override { return coarsened_ ? "vecadd_coarsened.kir" : "vecadd.kir"; }
  std::vector<ParamSpec> params() const override {
    std::vector<ParamSpec> p{{"n", 1003, "elements", 1, kMaxElements}, {"block", 64, "threads per block", 1, kMaxBlockDim}};
    if (coarsened_) p.push_back({"coarse", 4, "elements per thread", 1, 1024});
    return p;
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    const auto n = p.at("n"), block = p.at("block"), coarse = coarsened_ ? p.at("coarse") : 1;
    const auto a = random_floats(n, options.seed), b = random_floats(n, options.seed + 1);
    const auto da = s.upload("a", a), db = s.upload("b", b), dc = s.zeros("c", n * 4);
    std::vector<std::uint64_t> args{da, db, dc, n};
    if (coarsened_) args.push_back(coarse);
    s.launch(s.kernel(kernel_file()), Dim3{ceil_div(n, block * coarse), 1, 1},
             Dim3{static_cast<std::uint32_t>(block), 1, 1}, std::move(args));
    const auto c = s.download<float>(dc, n);
    for (std::uint64_t i = 0; i < n; ++i)
      if (c[i] != a[i] + b[i]) {
        fail_at(out, fmt::format("c[{}] = {}, expected {}", i, c[i], a[i] + b[i]));
        return out;
      }
    pass(out, fmt::format("{} sums equal the host's exactly", n));
    return out;
  }

 private:
  bool coarsened_;
};

// gray, and with `coarsened` its PMPP 6.3 form: each thread converts `coarse` pixels of its row.
class Gray final : public Scenario {
 public:
  explicit Gray(bool coarsened) : coarsened_(coarsened) {}
  std::string_view name() const override { return coarsened_ ? "gray-coarsened" : "gray"; }
  std::string_view description() const override {
    return coarsened_ ? "colour to greyscale, coarse pixels per thread along x: nothing to save (PMPP 6.3)"
                      : "colour to greyscale, one thread per pixel, col < width && row < height (PMPP 5.3)";
  }
  std::string_view kernel_file() const override { return coarsened_ ? "gray_coarsened.kir" : "gray.kir"; }
  std::vector<ParamSpec> params() const override {
    std::vector<ParamSpec> p{{"width", 76, "image width", 1, 65536},
                             {"height", 62, "image height", 1, 65536},
                             {"block_x", 16, "block width", 1, kMaxBlockDim},
                             {"block_y", 16, "block height", 1, kMaxBlockDim}};
    if (coarsened_) p.push_back({"coarse", 4, "pixels per thread along x", 1, 1024});
    return p;
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    const auto w = p.at("width"), h = p.at("height"), bx = p.at("block_x"), by = p.at("block_y");
    const auto coarse = coarsened_ ? p.at("coarse") : 1;
    if (w == 0 || h == 0 || w * h > (1ull << 28)) throw Error(fmt::format("{}: {}x{} is not a usable image size", name(), w, h));
    const auto rgb = random_u32(w * h * 3, options.seed, 256);
    const auto drgb = s.upload("rgb", rgb), dgrey = s.zeros("grey", w * h * 4);
    std::vector<std::uint64_t> args{drgb, dgrey, w, h};
    if (coarsened_) args.push_back(coarse);
    s.launch(s.kernel(kernel_file()), Dim3{ceil_div(w, bx * coarse), ceil_div(h, by), 1},
             Dim3{static_cast<std::uint32_t>(bx), static_cast<std::uint32_t>(by), 1}, std::move(args));
    const auto grey = s.download<std::uint32_t>(dgrey, w * h);
    for (std::uint64_t i = 0; i < w * h; ++i) {
      // The kernel's order of operations, each rounded to float, no fused multiply-add.
      float sum = static_cast<float>(rgb[3 * i]) * 0.21f;
      sum = sum + static_cast<float>(rgb[3 * i + 1]) * 0.71f;
      sum = sum + static_cast<float>(rgb[3 * i + 2]) * 0.07f;
      const auto expected = static_cast<std::uint32_t>(sum);
      if (grey[i] != expected) {
        fail_at(out, fmt::format("grey[{}] (row {}, col {}) = {}, expected {}", i, i / w, i % w, grey[i], expected));
        return out;
      }
    }
    pass(out, fmt::format("{}x{} grey pixels equal the host's", w, h));
    return out;
  }

 private:
  bool coarsened_;
};

class DivergentLoop final : public Scenario {
 public:
  std::string_view name() const override { return "divergent-loop"; }
  std::string_view description() const override {
    return "a loop of 6, 7 or 8 iterations by lane (t % 3), PMPP 5.3";
  }
  std::string_view kernel_file() const override { return "divergent_loop.kir"; }
  std::vector<ParamSpec> params() const override { return {{"block", 32, "threads (one block)", 1, kMaxBlockDim}}; }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    const auto block = p.at("block");
    const auto d = s.zeros("out", block * 4);
    s.launch(s.kernel(kernel_file()), Dim3{1, 1, 1}, Dim3{static_cast<std::uint32_t>(block), 1, 1}, {d});
    const auto got = s.download<std::uint32_t>(d, block);
    for (std::uint64_t t = 0; t < block; ++t) {
      const std::uint64_t trips = 6 + t % 3, expected = trips * (trips - 1) / 2;
      if (got[t] != expected) {
        fail_at(out, fmt::format("out[{}] = {}, expected {} ({} iterations)", t, got[t], expected, trips));
        return out;
      }
    }
    pass(out, fmt::format("{} threads ran 6, 7 or 8 iterations each", block));
    return out;
  }
};

class ReportClocks final : public Scenario {
 public:
  std::string_view name() const override { return "report-clocks"; }
  std::string_view description() const override {
    return "every thread writes clock(); values come one per warp (CUDA Handbook 7.3)";
  }
  std::string_view kernel_file() const override { return "report_clocks.kir"; }
  std::vector<ParamSpec> params() const override {
    return {{"block_x", 14, "block width", 1, kMaxBlockDim}, {"block_y", 8, "block height", 1, kMaxBlockDim},
            {"grid", 4, "blocks", 1, kMaxGrid}};
  }
  Outcome run(Device& device, const Params& p, const RunOptions& options) const override {
    Outcome out;
    Session s(device, options, out);
    const Dim3 block{static_cast<std::uint32_t>(p.at("block_x")), static_cast<std::uint32_t>(p.at("block_y")), 1};
    const auto grid = static_cast<std::uint32_t>(p.at("grid"));
    const std::uint64_t per_block = block.count(), threads = per_block * grid;
    const auto d = s.zeros("out", threads * 4);
    s.launch(s.kernel(kernel_file()), Dim3{grid, 1, 1}, block, {d});
    const auto clocks = s.download<std::uint32_t>(d, threads);
    out.outputs.back().device_specific = true;
    const std::uint32_t ws = device.limits().warp_size;
    std::string groups;
    for (std::uint64_t b = 0; b < grid; ++b) {
      std::set<std::uint32_t> distinct;
      for (std::uint64_t t = 0; t < per_block; ++t) {
        const auto v = clocks[b * per_block + t], first = clocks[b * per_block + t / ws * ws];
        if (v != first) {
          fail_at(out, fmt::format("block {}: thread {} read clock {}, but lane 0 of its warp read {}", b, t, v, first));
          return out;
        }
        distinct.insert(v);
      }
      if (b == 0) groups = fmt::format("{} distinct values in block 0", distinct.size());
    }
    pass(out, fmt::format("every warp's lanes read one clock value; {} ({} warps of up to {} threads)", groups,
                          (per_block + ws - 1) / ws, ws));
    return out;
  }
};

}  // namespace

void register_basic_scenarios(std::vector<std::unique_ptr<Scenario>>& out) {
  out.push_back(std::make_unique<WarpShapes>());
  out.push_back(std::make_unique<VecAdd>(false));
  out.push_back(std::make_unique<VecAdd>(true));
  out.push_back(std::make_unique<Gray>(false));
  out.push_back(std::make_unique<Gray>(true));
  out.push_back(std::make_unique<DivergentLoop>());
  out.push_back(std::make_unique<ReportClocks>());
}

}  // namespace warpsim::kernels
