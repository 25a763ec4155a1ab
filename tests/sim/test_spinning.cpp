// Functional mode: a kernel that cannot finish is stopped within seconds, at the same point for any
// --threads, with where each warp spins; a kernel that is merely long is refused up front or says
// it reached the launch's limit (Config::spin_limit, Config::max_instructions, docs/testing.md).
#include <ctime>

#include "tests/sim/sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim::test;

namespace {

// A loop that never ends and never touches memory.
const char* kEndless = R"(kernel endless(ptr.u32 out) {
    reg u32 i
    mov.u32 i, 0
top:
    add.u32 i, i, 1
    bra top
}
)";

// Block 0 waits for a flag block 1 sets: blocks run in block order, so block 1 never starts.
const char* kWaitForLater = R"(kernel wait_for_later(ptr.u32 flag) {
    reg u32 v
    reg pred first, wait
    setp.eq.u32 first, %ctaid.x, 0
    @!first bra set
spin:
    atom.add.global.u32 v, [flag], 0
    setp.eq.u32 wait, v, 0
    @wait bra spin
    exit
set:
    atom.exch.global.u32 v, [flag], 1
    exit
}
)";

// Counts down from a parameter, storing the counter each time: slow but always progressing.
const char* kCountdown = R"(kernel countdown(ptr.u32 out, u32 n) {
    reg u32 i
    reg pred more
    mov.u32 i, n
top:
    sub.u32 i, i, 1
    st.global.u32 [out], i
    setp.ne.u32 more, i, 0
    @more bra top
    exit
}
)";

const char* kTiny = R"(kernel tiny(ptr.u32 out) {
    reg u64 p
    mov.u64 p, out
    st.global.u32 [p], 1
    exit
}
)";

// Runs `c` functionally with `buffers` zeroed one-word buffers and then `scalars` as arguments;
// the fault's message, or "finished".
std::string fault_of(const Compiled& c, sim::Config config, Dim3 grid, Dim3 block, unsigned buffers,
                     std::vector<std::uint64_t> scalars = {}) {
  config.mode = sim::Mode::Functional;
  sim::Gpu gpu(config);
  std::vector<std::uint64_t> args;
  for (unsigned i = 0; i < buffers; ++i) args.push_back(upload(gpu, std::vector<std::uint32_t>{0}, fmt::format("b{}", i)));
  args.insert(args.end(), scalars.begin(), scalars.end());
  try {
    gpu.launch(spec(c, grid, block, args));
  } catch (const KernelFault& e) {
    return e.what();
  }
  return "finished";
}

// Processor time of this process since `start` (the test machine may be shared: wall time is not
// the simulator's).
double seconds_since(std::clock_t start) { return double(std::clock() - start) / CLOCKS_PER_SEC; }

}  // namespace

TEST_CASE("under ipdom a spin lock inside one warp is stopped within seconds, saying where the lanes spin") {
  const auto c = compile(kSpinLock);
  sim::Config config;
  config.reconvergence = sim::ReconvergenceModel::Ipdom;  // the lock holder waits for the spinners
  const std::clock_t start = std::clock();
  const std::string message = fault_of(*c, config, {1, 1, 1}, {32, 1, 1}, 2);
  INFO(message);
  CHECK(seconds_since(start) < 10.0);
  CHECK(message.find("block (0,0,0) spins") != std::string::npos);
  CHECK(message.find("warp 0 spins in pcs 0-2 (lines 5-7)") != std::string::npos);
  CHECK(message.find("--spin-limit") != std::string::npos);
}

TEST_CASE("a spin lock inside one warp finishes under convergence barriers: the spinners yield to the lock holder") {
  // The H100 runs it: ptxas puts a YIELD in the spin loop, and the barrier where the holder waits
  // for the lanes that leave the loop clears without the yielded spinners (docs/design.md).
  const auto c = compile(kSpinLock);
  sim::Config config;
  config.reconvergence = sim::ReconvergenceModel::Volta;
  config.mode = sim::Mode::Functional;
  sim::Gpu gpu(config);
  const auto lock = upload(gpu, std::vector<std::uint32_t>{0}, "lock");
  const auto count = upload(gpu, std::vector<std::uint32_t>{0}, "count");
  gpu.launch(spec(*c, {1, 1, 1}, {32, 1, 1}, {lock, count}));
  CHECK(download<std::uint32_t>(gpu, count, 1) == std::vector<std::uint32_t>{32});
  CHECK(download<std::uint32_t>(gpu, lock, 1) == std::vector<std::uint32_t>{0});
}

TEST_CASE("an endless loop without memory traffic is stopped by default within seconds") {
  const auto c = compile(kEndless);
  const std::clock_t start = std::clock();
  const std::string message = fault_of(*c, {}, {1, 1, 1}, {64, 1, 1}, 1);
  INFO(message);
  CHECK(seconds_since(start) < 10.0);
  CHECK(message.find("warp 0 spins in pcs 1-2 (lines 5-6)") != std::string::npos);
  CHECK(message.find("warp 1 spins in pcs 1-2 (lines 5-6)") != std::string::npos);
}

TEST_CASE("a block waiting for a later block's flag stops at the same point for any host thread count") {
  const auto c = compile(kWaitForLater);
  sim::Config config;
  config.spin_limit = 1 << 12;
  std::vector<std::string> messages;
  for (std::uint32_t threads : {1u, 2u, 4u}) {
    config.threads = threads;
    messages.push_back(fault_of(*c, config, {8, 1, 1}, {32, 1, 1}, 1));
  }
  INFO(messages[0]);
  CHECK(messages[0].find("block (0,0,0) spins: after 4096 warp instructions its warps issued 4096 more") !=
        std::string::npos);
  CHECK(messages[0].find("warp 0 spins in pcs 2-4 (lines 7-9)") != std::string::npos);
  CHECK(messages[1] == messages[0]);
  CHECK(messages[2] == messages[0]);
}

TEST_CASE("a long loop that keeps changing memory is not taken for a spin") {
  const auto c = compile(kCountdown);
  sim::Config config;
  config.spin_limit = 64;
  CHECK(fault_of(*c, config, {1, 1, 1}, {32, 1, 1}, 1, {100000}) == "finished");
}

TEST_CASE("a spin limit of 0 turns the watch off and the launch limit stops the kernel instead") {
  const auto c = compile(kEndless);
  sim::Config config;
  config.spin_limit = 0;
  config.max_instructions = 1 << 20;
  const std::string message = fault_of(*c, config, {1, 1, 1}, {32, 1, 1}, 1);
  INFO(message);
  CHECK(message.find("reached the limit of 1048576 warp instructions per launch") != std::string::npos);
}

TEST_CASE("a long kernel that reaches the launch limit says so rather than that it spins") {
  const auto c = compile(kCountdown);
  sim::Config config;
  config.max_instructions = 1 << 16;
  for (std::uint32_t threads : {1u, 2u}) {
    config.threads = threads;
    const std::string message = fault_of(*c, config, {64, 1, 1}, {32, 1, 1}, 1, {1000});
    INFO(message);
    CHECK(message.find("reached the limit of 65536 warp instructions per launch before its 64 blocks finished") !=
          std::string::npos);
    CHECK(message.find("long rather than stuck") != std::string::npos);
  }
}

TEST_CASE("a grid of 2^31-1 blocks that must exceed the launch limit is refused before it runs") {
  const auto c = compile(kTiny);
  sim::Config config;
  config.mode = sim::Mode::Functional;
  sim::Gpu gpu(config);
  const auto out = upload(gpu, std::vector<std::uint32_t>{0}, "out");
  const std::clock_t start = std::clock();
  try {
    gpu.launch(spec(*c, {0x7fffffffu, 1, 1}, {32, 1, 1}, {out}));
    FAIL("the launch ran");
  } catch (const Error& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK(message.find("2147483647 warps would issue at least 3 warp instructions each (6442450941 in all)") !=
          std::string::npos);
  }
  CHECK(seconds_since(start) < 1.0);
}
