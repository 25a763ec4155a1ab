#!/bin/sh
# Issue 12 on the H100 (for the lead's GPU batch): scenario files and the fault report on hardware.
# Run from the repository root after building; output goes to docs/validation/h100/scenario-files.txt.
set -x
{
  build/tools/warpsim validate tests/data/scenarios/two_pass.json          # two launches, both devices, masks and outputs
  build/tools/warpsim validate strided-copy --set stride=4 --set n=4096    # a built-in that is now a scenario file
  build/tools/warpsim run tests/data/scenarios/two_pass.json --backend cuda   # check passed on hardware
  build/tools/warpsim run tests/data/scenarios/fault.json --backend cuda; echo "exit $?"   # FAULT line from the GPU (no site)
  build/tools/warpsim validate tests/data/scenarios/fault.json; echo "exit $?"   # the report up to the simulator's fault
} > docs/validation/h100/scenario-files.txt 2>&1
