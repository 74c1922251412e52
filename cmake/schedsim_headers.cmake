# The headers the CMake build installs (CMakeLists.txt).

# The public headers, installed as <prefix>/include/schedsim/NAME.h
# (testing.h goes with the test kit, cli.h with the command-line tool).
set(SCHEDSIM_PUBLIC_HEADERS
  include/schedsim/machine.h
  include/schedsim/metrics.h
  include/schedsim/params.h
  include/schedsim/policy.h
  include/schedsim/schedsim.h
  include/schedsim/simulation.h
  include/schedsim/trace.h
  include/schedsim/workload.h)

# The internal headers the public ones re-export (the policy interfaces and
# registry, the machine types, the engine's program, workload and statistics
# types, the model-parameter struct), installed under
# <prefix>/include/schedsim/detail/ with their repository paths, which that
# directory on the include path resolves. Keep in step with the data of
# //include/schedsim:include_rule_test; dev/test-cmake compiles every
# installed public header against the installed tree alone.
set(SCHEDSIM_DETAIL_HEADERS
  platform/cpufreq.h
  platform/cpuidle.h
  platform/placement.h
  platform/registry.h
  sim/config.h
  sim/histogram.h
  sim/program.h
  sim/rng.h
  sim/stats.h
  sim/workload.h
  topology/cpuset.h
  topology/sched_domains.h
  topology/topology.h
  workloads/replay_options.h)
set(SCHEDSIM_TESTING_DETAIL_HEADERS
  platform/testing/fake_freq.h
  platform/testing/fake_idle.h
  platform/testing/fake_sched.h)
