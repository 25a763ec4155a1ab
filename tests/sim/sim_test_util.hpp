// Helpers for the simulator tests: compile .kir text, move buffers, launch.
#pragma once
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "device/device.hpp"
#include "device/errors.hpp"
#include "isa/analysis.hpp"
#include "isa/parser.hpp"
#include "isa/verifier.hpp"
#include "sim/gpu.hpp"

namespace warpsim::sim::test {

// Lanes of the 64-wide warps the lane-function tests run.
constexpr unsigned kLanes = 64;

// Lanes of one warp take a lock with atom.cas. Under the IPDOM stack the winner waits at the loop's
// exit for the losers, which spin on a lock the winner never releases (a deadlock); under convergence
// barriers the spinners yield and the winner goes on (as on Volta and later).
inline const char* const kSpinLock = R"(kernel spin_lock(ptr.u32 lock, ptr.u32 count) {
    reg u32 old, v
    reg pred wait
spin:
    atom.cas.global.u32 old, [lock], 0, 1
    setp.ne.u32 wait, old, 0
    @wait bra spin
    ld.global.u32 v, [count]
    add.u32 v, v, 1
    st.global.u32 [count], v
    atom.exch.global.u32 old, [lock], 0
    exit
}
)";

struct Compiled {
  std::string text;
  isa::Module module;
  isa::KernelAnalysis analysis;
  const isa::Kernel& kernel() const { return module.kernels.front(); }
};

inline std::unique_ptr<Compiled> compile(const std::string& text) {
  auto c = std::make_unique<Compiled>();
  c->text = text;
  auto parsed = isa::parse(text, "test.kir");
  std::string messages;
  for (const auto& d : parsed.diagnostics) messages += d.format();
  INFO(messages);
  REQUIRE(parsed.ok());
  auto diagnostics = isa::verify(parsed.module, text);
  for (const auto& d : diagnostics) messages += d.format();
  INFO(messages);
  REQUIRE_FALSE(isa::has_errors(diagnostics));
  REQUIRE(parsed.module.kernels.size() >= 1);
  c->module = std::move(parsed.module);
  c->analysis = isa::analyze(c->module.kernels.front());
  return c;
}

inline LaunchSpec spec(const Compiled& c, Dim3 grid, Dim3 block, std::vector<std::uint64_t> args = {}) {
  LaunchSpec s;
  s.kernel = &c.kernel();
  s.analysis = &c.analysis;
  s.file = "test.kir";
  s.source_text = c.text;
  s.grid = grid;
  s.block = block;
  s.args = std::move(args);
  s.warps.mode = WarpSelection::Mode::All;
  return s;
}

template <class T>
std::uint64_t upload(Device& d, const std::vector<T>& values, const std::string& label) {
  const std::uint64_t a = d.allocate(values.size() * sizeof(T), label);
  d.write(a, std::as_bytes(std::span<const T>(values)));
  return a;
}

template <class T>
std::vector<T> download(Device& d, std::uint64_t address, std::size_t count) {
  std::vector<T> out(count);
  d.read(address, std::as_writable_bytes(std::span<T>(out)));
  return out;
}

inline std::uint64_t f32_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// The message of the KernelFault a launch raises; fails the test when it does not fault.
inline std::string fault_of(Gpu& gpu, const LaunchSpec& s) {
  try {
    gpu.launch(s);
  } catch (const KernelFault& e) {
    return e.what();
  }
  FAIL("the launch did not fault");
  return {};
}

// thread + idle lane slots must equal issued * warp size, overall and per warp.
inline void check_invariant(const LaunchStats& s) {
  CHECK(s.thread_instructions + s.idle_lane_slots.total() == s.warp_instructions * s.warp_size);
  std::uint64_t histogram = 0;
  for (auto h : s.active_lanes_histogram) histogram += h;
  CHECK(histogram == s.warp_instructions);
  for (const auto& w : s.warps)
    CHECK(w.thread_instructions + w.idle.total() == w.warp_instructions * s.warp_size);
}

}  // namespace warpsim::sim::test
