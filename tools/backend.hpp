// Options every running command shares (backend, warp size, threads, limits, seed, warp
// selection), and the Device they build.
#pragma once
#include <memory>
#include <string>

#include "device/device.hpp"
#include "kernels/scenario.hpp"
#include "sim/config.hpp"
#include "tools/cli.hpp"
#include "tools/report/report.hpp"

namespace warpsim::cli {

void add_run_options(po::options_description& options);
// Builds the device the options name; throws Error(NoDevice) for --backend cuda without a GPU.
std::unique_ptr<Device> make_device(const po::variables_map& vm);
std::unique_ptr<Device> make_sim_device(const po::variables_map& vm);
kernels::RunOptions run_options(const po::variables_map& vm);
std::string backend_name(const po::variables_map& vm);
// What a JSON report records to be run again: `argv` as given, and the settings it resolved to.
report::Reproduction reproduction(const po::variables_map& vm, std::vector<std::string> argv);
// --mode and --gpu/--gpu-set as the simulator takes them; usage errors name the option.
sim::ReconvergenceModel reconvergence_option(const std::string& name);  // exit 2 when unknown
sim::Mode mode_option(const po::variables_map& vm);
sim::GpuPreset gpu_option(const po::variables_map& vm);
// --gpu-trace: true for on; exit 2 for an unknown value, or for off without --backend cuda.
bool gpu_trace_option(const po::variables_map& vm);
// --gpu-build: true for source (an imported kernel's own build), false for emitted; exit 2 for an
// unknown value. gpu_build_option also refuses it without --backend cuda.
bool gpu_build_value(const po::variables_map& vm);
bool gpu_build_option(const po::variables_map& vm);
// A non-negative option that must fit 32 bits (--warp-size, --threads); "-1" is refused, not wrapped.
std::uint32_t small_option(const po::variables_map& vm, const char* name);

}  // namespace warpsim::cli
