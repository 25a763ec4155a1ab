#include <catch2/catch.hpp>

#include "isa/analysis.hpp"
#include "sim/ipdom_stack.hpp"

using namespace warpsim::sim;

TEST_CASE("a divergent branch runs the taken path first, then the not-taken path, then reconverges", "[sim][ipdom]") {
  IpdomStack s;
  s.reset(0, 0xff);
  CHECK(s.depth() == 1);
  CHECK(s.watch_pc() == kNoPc);
  s.on_branch(2, 0xf0, 0x0f, 10, 3, 20);
  CHECK(s.depth() == 3);
  CHECK(s.current().pc == 10);
  CHECK(s.current().mask == 0xf0);
  CHECK(s.watch_pc() == 20);
  s.advance(19, 20);  // the taken path reached the reconvergence pc
  CHECK(s.current().pc == 3);
  CHECK(s.current().mask == 0x0f);
  s.advance(19, 20);
  CHECK(s.depth() == 1);
  CHECK(s.current().pc == 20);
  CHECK(s.current().mask == 0xff);
}

TEST_CASE("a path that starts at the reconvergence pc is not pushed", "[sim][ipdom]") {
  IpdomStack s;
  s.reset(0, 0xff);
  s.on_branch(2, 0x01, 0xfe, 8, 3, 3);  // if-then without else: the not-taken path is the join
  CHECK(s.depth() == 2);
  CHECK(s.current().pc == 8);
  CHECK(s.current().mask == 0x01);
  s.advance(2, 3);
  CHECK(s.depth() == 1);
  CHECK(s.current().mask == 0xff);
}

TEST_CASE("a uniform branch only moves the current path", "[sim][ipdom]") {
  IpdomStack s;
  s.reset(0, 0xff);
  s.on_branch(2, 0xff, 0, 8, 3, 5);
  CHECK(s.depth() == 1);
  CHECK(s.current().pc == 8);
}

TEST_CASE("a loop that diverges on every iteration keeps a fixed stack depth", "[sim][ipdom]") {
  IpdomStack s;
  s.reset(0, 0xff);
  s.on_branch(9, 0xfe, 0x01, 4, 10, 10);  // lanes 1-7 loop again, lane 0 leaves
  CHECK(s.depth() == 2);
  s.on_branch(9, 0xfc, 0x02, 4, 10, 10);
  CHECK(s.depth() == 2);
  CHECK(s.current().mask == 0xfc);
  s.on_branch(9, 0, 0xfc, 4, 10, 10);  // the rest leave
  CHECK(s.depth() == 1);
  CHECK(s.current().pc == 10);
  CHECK(s.current().mask == 0xff);
}

TEST_CASE("exited lanes leave every entry and empty entries pop", "[sim][ipdom]") {
  IpdomStack s;
  s.reset(0, 0xff);
  s.on_branch(2, 0xf0, 0x0f, 10, 3, warpsim::isa::kExitPc);
  s.on_exit(0xf0);  // the taken path exits
  CHECK(s.current().pc == 3);
  CHECK(s.current().mask == 0x0f);
  s.on_exit(0x0f);
  CHECK(s.current().mask == 0);
  CHECK(s.depth() == 0);
}
