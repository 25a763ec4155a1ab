// The microbenchmark suite of `warpsim calibrate`: IR kernels (kernels/microbench/) that time
// themselves with %clock64, or are timed with kernel_ms, each reduced to one raw figure. The same
// code runs them on the GPU and on the simulator, so the two raw figures compare directly.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "device/device.hpp"

namespace warpsim::calib {

// How a preset value follows from a microbenchmark's raw figure.
enum class Fit {
  None,         // compared only
  Additive,     // raw grows by `slope` per unit of the parameter (latencies, intervals)
  Proportional,  // raw is proportional to the parameter (bandwidths)
  Inverse        // raw is inversely proportional to the parameter (cycles per element against a rate)
};

// What a microbenchmark needs from the device it runs on.
struct Target {
  std::function<std::unique_ptr<Device>()> make_device;  // a fresh device per microbenchmark (cold caches)
  bool hardware = false;                                 // kernel time from kernel_ms, not cycles
  double clock_mhz = 1980;                               // converts kernel_ms to cycles
  double launch_us = 0;                                  // subtracted from kernel_ms (hardware)
};

struct BenchInfo {
  std::string name;   // "lat-int"
  std::string what;   // one line: what it runs
  std::string unit;   // "cycles/op"
  std::string param;  // the preset key it fits ("pipeline.int_latency"), "" when compared only
  Fit fit = Fit::None;
  double slope = 1;  // Additive: raw figure per unit of the parameter
  std::function<double(const Target&)> run;
  double step = 1;  // the fitted value is rounded to a multiple of this (1: a whole number)
};

// The whole suite, in the order it runs ("launch" first: the others subtract its time).
const std::vector<BenchInfo>& suite();
const BenchInfo* find_bench(const std::string& name);

}  // namespace warpsim::calib
