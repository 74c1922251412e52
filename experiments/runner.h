// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Runs an experiment: every (sweep point x variant x iteration), each run
// with its own Simulator and its own policy objects, in parallel on a pool
// of threads. Iteration i of every variant and sweep point uses the seed
// DeriveSeed(experiment seed, i), so variants are compared on the same
// random streams (paired runs). Results are stored by (point, variant,
// iteration), never by completion order, so they do not depend on the
// number of threads.
//
//   absl::StatusOr<Experiment> e = LoadExperimentFile("exp.json");
//   RunnerOptions options;
//   options.jobs = 4;
//   absl::StatusOr<ExperimentResult> r = RunExperiment(*e, options);
//   std::vector<double> ops = r->Samples(/*point=*/0, /*variant=*/1,
//                                        /*metric=*/0);
//
// Each run: build the model's workload for the point's parameters, create
// the variant's policies through the registry, run warmup_ms, reset the
// statistics, run duration_ms, evaluate the model's metrics and keep a
// compact report (reports.h).

#ifndef SCHEDSIM_EXPERIMENTS_RUNNER_H_
#define SCHEDSIM_EXPERIMENTS_RUNNER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "experiments/experiment.h"
#include "experiments/reports.h"
#include "experiments/settle.h"
#include "platform/registry.h"
#include "topology/topology.h"
#include "traces/cpu_timeline.h"
#include "traces/trace_file.h"
#include "workloads/model_registry.h"

namespace schedsim::experiments {

// The most runs (sweep values x variants x iterations) one experiment may
// ask for.
inline constexpr int64_t kMaxRuns = 10000000;

struct RunnerOptions {
  // Worker threads; 0 = one per hardware thread. Never more than the runs.
  // They take the runs largest estimated cost first (LargestFirstOrder).
  int jobs = 0;
  // Called after each run with (runs done, runs in all); from the worker
  // threads, one call at a time.
  std::function<void(int done, int total)> progress;
  // Called as each run starts, with the experiment's index (0 but in
  // RunExperiments) and the run's number; from the worker threads, one
  // call at a time, in the order the runs are taken from the pool.
  // Optional (the tests check the order with it).
  std::function<void(int experiment, int run)> started;
  // Keep the task names of this iteration's runs at the first sweep point
  // (WriteTrace needs them); -1 keeps none.
  int keep_task_names_iteration = -1;
};

// One run.
struct RunResult {
  uint64_t seed = 0;
  std::vector<double> metrics;  // the model's metrics, in its order
  RunReport report;
  uint64_t events = 0;
  std::vector<std::string> task_names;  // see keep_task_names_iteration
  // For a model that runs until stopped: how the run settled and why it
  // stopped, or that it ran its fixed length (fixed_length).
  std::optional<SettleOutcome> settle;
};

struct ExperimentResult {
  std::shared_ptr<const topology::Topology> machine;
  std::vector<std::string> cstate_names;       // the machine's idle states
  std::vector<workloads::MetricInfo> metrics;  // the model's
  // The variants as run: the cpufreq default resolved for the machine.
  std::vector<Variant> variants;
  // The model's parameters at each sweep point.
  std::vector<platform::Params> point_params;
  // runs[point][variant][iteration].
  std::vector<std::vector<std::vector<RunResult>>> runs;

  // Metric `metric` of every iteration of (point, variant).
  std::vector<double> Samples(int point, int variant, int metric) const;
  // The iterations' reports of (point, variant), combined.
  VariantReport Report(int point, int variant) const;
};

// Runs every run of `experiment`. Errors name the file and the run
// (variant, sweep point, iteration and seed); when several runs fail, the
// first in (point, variant, iteration) order is reported.
absl::StatusOr<ExperimentResult> RunExperiment(const Experiment& experiment,
                                               const RunnerOptions& options);

// The runs of an experiment are numbered in (point, variant, iteration)
// nesting order: run r is iteration r % iterations of variant
// (r / iterations) % variants at point r / (iterations x variants).
// A run's seed depends only on its iteration (Experiment::IterationSeed),
// never on which other runs run with it, so a subset of the runs (a shard,
// docs/scale-out.md) gives each run the result the whole experiment gives
// it.
struct RunKey {
  int point = 0;
  int variant = 0;
  int iteration = 0;
};
int64_t NumRuns(const Experiment& experiment);
RunKey KeyOfRun(const Experiment& experiment, int run);

// The estimated cost of each run on one job, in wall seconds, in run
// order (cost_model.h: the model's measured rate x the simulated seconds
// x min(tasks, CPUs); a run that stops when settled counts its expected
// length), for the estimates, the pool's order and balancing shards.
// Deterministic: it depends only on the experiment. `at_most`: every
// settling run at its maximum length instead (the bound when no run
// settles early).
absl::StatusOr<std::vector<double>> EstimateRunCosts(
    const Experiment& experiment, bool at_most = false);

// The order in which the pool starts runs of estimated costs `costs`:
// largest first (so that no thread is left with a long run at the end),
// ties in run order. The results never depend on it.
std::vector<int> LargestFirstOrder(const std::vector<double>& costs);

// `requested` jobs (> 0), capped at `hardware` threads (more only share
// the cores and slow every run); when capped, `note` (if given) gets a
// one-line note saying so.
int CapJobs(int requested, int hardware, std::string* note);

// Runs every run of every experiment on one pool of options.jobs threads,
// largest estimated cost first across all of them; each experiment's
// result or its error as RunExperiment gives it (a failure in one does not
// stop the others). options.progress counts the runs of all of them.
std::vector<absl::StatusOr<ExperimentResult>> RunExperiments(
    const std::vector<const Experiment*>& experiments,
    const RunnerOptions& options);

// Runs only the runs numbered `runs` (ascending) and returns their results
// in that order; errors as RunExperiment's, the first in `runs` order
// (when a run failed, `failed_run`, if given, is set to its number).
absl::StatusOr<std::vector<RunResult>> RunSelected(const Experiment& experiment,
                                                   const std::vector<int>& runs,
                                                   const RunnerOptions& options,
                                                   int* failed_run = nullptr);

// The result of the experiment from the results of all its runs, in run
// order: RunExperiment is RunSelected over every run, then this.
absl::StatusOr<ExperimentResult> AssembleResult(const Experiment& experiment,
                                                std::vector<RunResult> runs);

// Runs (point, variant, iteration) again with a trace of its measured
// interval written to `out`: Chrome JSON (Perfetto) unless `format` says. Task
// names come from `result` when it kept them for that iteration
// (RunnerOptions).
absl::Status WriteTrace(const Experiment& experiment,
                        const ExperimentResult& result, int point, int variant,
                        int iteration, std::ostream& out);

// The trace formats WriteTrace can write.
enum class TraceFormat {
  kPerfetto,  // Chrome JSON (traces/chrome_json.h)
  kFtrace,    // ftrace text, `trace-cmd report -t` (traces/ftrace_writer.h)
};
absl::Status WriteTrace(const Experiment& experiment,
                        const ExperimentResult& result, int point, int variant,
                        int iteration, TraceFormat format, std::ostream& out);

// Runs (point, variant, iteration) again with its trace written to `path` in
// any format, bounded to a window and CPUs and compressed as `options` say
// (traces/trace_file.h; options.num_cpus is set from the machine). Without
// a window the trace is the measured interval (simulated time warm-up ..
// warm-up + duration); with one, the run is traced from its start and the
// window may cover the warm-up. `timeline` (optional; see
// traces/cpu_timeline.h) also receives every event from the start, and the
// trace then begins with each CPU's state at its window's start.
absl::Status WriteTraceFile(const Experiment& experiment,
                            const ExperimentResult& result, int point,
                            int variant, int iteration,
                            const traces::TraceFileOptions& options,
                            const std::string& path,
                            traces::CpuTimeline* timeline = nullptr);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_RUNNER_H_
