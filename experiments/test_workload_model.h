// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A tiny workload model for the experiments tests (testonly): `tasks`
// tasks, each looping "stamp; compute `cycles` cycles plus `stall_ns` of
// stall ("model only", default 0); sleep an exponentially distributed
// `sleep_us`; count one op". Linking the library
// registers it in WorkloadRegistry::Global() as kTestModelName, so tests
// do not depend on the real benchmark models in workloads/.
//
// Metrics: ops_per_s (ops/s, higher is better, harmonic mean) and
// op_latency_us (us from stamp to mark, lower is better, arithmetic mean).

#ifndef SCHEDSIM_EXPERIMENTS_TEST_WORKLOAD_MODEL_H_
#define SCHEDSIM_EXPERIMENTS_TEST_WORKLOAD_MODEL_H_

namespace schedsim::experiments {

inline constexpr char kTestModelName[] = "test_compute_sleep";

// The largest `tasks` the model builds; more is a build error (for tests of
// error reporting).
inline constexpr int kTestModelMaxTasks = 64;

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_TEST_WORKLOAD_MODEL_H_
