// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What a run costs in wall time, for the estimates `schedsim run` and
// `schedsim validate` print, the order the pool starts runs in and the
// shards' balance. Measured, not assumed: wall seconds one job of a
// -c opt build spends per occupied simulated CPU-second (simulated seconds
// x min(the workload's tasks, the machine's CPUs): a CPU no task can use
// costs next to nothing), by workload family and machine size, fitted to
// the table `dev/cost-calibrate` prints (the dated measurement is in
// docs/notebook/, named beside the constants in cost_model.cc).
//
//   double s = RunWallSeconds("hackbench", /*cpus=*/256, /*tasks=*/5120,
//                             /*simulated_s=*/0.3);
//   double wall = Makespan(costs, /*jobs=*/2);  // largest first

#ifndef SCHEDSIM_EXPERIMENTS_COST_MODEL_H_
#define SCHEDSIM_EXPERIMENTS_COST_MODEL_H_

#include <cstdint>
#include <string>
#include <vector>

namespace schedsim::experiments {

// Machines with more CPUs than this are "large" (their runs cost more per
// CPU-second: longer idle-CPU searches and load-balance scans).
inline constexpr int kSmallMachineCpus = 16;

// A large machine with at least as many tasks as CPUs is busy (tbench's
// client-server pairs then wake across every CPU and cost twice as much
// per CPU-second); with this many tasks per CPU it is overloaded
// (hackbench's cost climbs once the queues have built up; a model may set
// its own threshold: tbench is cheap again from 4 per CPU).
inline constexpr int64_t kOverloadTasksPerCpu = 10;
// An overloaded run's first simulated seconds cost the rate below it: the
// queues build up over them (measured: 0.2-0.3 s runs of 64-512 hackbench
// groups on 256 CPUs cost the 1-32 group rate). A model may set its own.
inline constexpr double kOverloadOnsetSeconds = 0.3;

// Wall seconds per occupied simulated CPU-second of `model` on a machine
// of `cpus` CPUs running `tasks` tasks (once overloaded: after
// kOverloadOnsetSeconds); a model not measured gets the largest measured
// rate of its machine size (pessimistic).
double WallSecondsPerOccupiedCpuSecond(const std::string& model, int cpus,
                                       int64_t tasks = 0);

// The estimated wall seconds of one run on one job: `simulated_s` x
// min(max(tasks, 1), cpus) x the rate (an overloaded run's first
// kOverloadOnsetSeconds at the rate below it), plus kRunSetupSeconds.
double RunWallSeconds(const std::string& model, int cpus, int64_t tasks,
                      double simulated_s);
inline constexpr double kRunSetupSeconds = 0.002;

// The simulated seconds a run that stops when settled (settle.h) is
// expected to measure: its maximum `max_s`, or less: kExpectedSettleBatches
// batches (at least min_batches) of batch_s, measured on the hackbench,
// netperf and pgbench runs of the calibration.
double ExpectedSettledSeconds(double max_s, double batch_s, int min_batches);
inline constexpr int kExpectedSettleBatches = 40;

// The wall time of running `costs` on `jobs` threads that take them
// largest first (the pool's order): the latest finish of greedy list
// scheduling.
double Makespan(const std::vector<double>& costs, int jobs);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_COST_MODEL_H_
