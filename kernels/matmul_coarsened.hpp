// The text of the coarsened tiled matrix multiply (PMPP 6.3) for one coarsening factor. The IR has
// no arrays of registers, and the book keeps its COARSE_FACTOR accumulators in registers, so the
// kernel is generated once per factor with the coarsening loop unrolled, as nvcc unrolls it.
// kernels/matmul_coarsened_c{1,2,4,8,16}.kir are this function's output, committed so that every
// tool (cfg, emit-cuda, the report's line numbers) reads a real file; tests/kernels checks they
// still match it, and WARPSIM_UPDATE_GOLDEN=1 rewrites them.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace warpsim::kernels {

constexpr std::array<std::uint32_t, 5> kMatmulCoarseFactors{1, 2, 4, 8, 16};

std::string matmul_coarsened_file(std::uint32_t coarse);  // "matmul_coarsened_c4.kir"
std::string matmul_coarsened_kir(std::uint32_t coarse);

}  // namespace warpsim::kernels
