// nvc SOURCE OUT.cubin: NVRTC with warpsim's options (cuda/nvrtc.cpp default_nvrtc_options) for sm_90.
#include <nvrtc.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
int main(int argc, char** argv) {
  std::ifstream f(argv[1]); std::stringstream ss; ss << f.rdbuf(); std::string src = ss.str();
  nvrtcProgram p; nvrtcCreateProgram(&p, src.c_str(), "k.cu", 0, nullptr, nullptr);
  std::vector<const char*> o = {"--gpu-architecture=sm_90", "--std=c++17", "--fmad=false", "--prec-div=true", "--prec-sqrt=true", "--ftz=false", "-w"};
  nvrtcResult r = nvrtcCompileProgram(p, (int)o.size(), o.data());
  if (r) { size_t n; nvrtcGetProgramLogSize(p, &n); std::string log(n, 0); nvrtcGetProgramLog(p, log.data()); fputs(log.c_str(), stderr); return 1; }
  size_t n; nvrtcGetCUBINSize(p, &n); std::string c(n, 0); nvrtcGetCUBIN(p, c.data());
  std::ofstream(argv[2], std::ios::binary).write(c.data(), n); return 0;
}
