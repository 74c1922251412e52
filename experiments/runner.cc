// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/runner.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "experiments/builtin_registry.h"
#include "experiments/cost_model.h"
#include "experiments/machine_source.h"
#include "experiments/run_wiring.h"
#include "sim/simulator.h"
#include "sim/time.h"
#include "traces/trace_file.h"
#include "traces/trace_select.h"
#include "workloads/model_util.h"

namespace schedsim::experiments {
namespace {

// What every run of one sweep point shares.
struct Point {
  platform::Params params;
  sim::Workload workload;
};

absl::Status WithContext(const absl::Status& status,
                         const std::string& context) {
  return absl::Status(status.code(),
                      absl::StrCat(context, ": ", status.message()));
}

// "exp.json: variant 'boost', tasks=2, iteration 1 (seed 123)".
std::string RunName(const Experiment& e, int point, int variant,
                    int iteration) {
  std::string name =
      absl::StrCat(e.filename, ": variant '", e.variants[variant].name, "'");
  if (e.sweep) absl::StrAppend(&name, ", ", e.PointName(point));
  absl::StrAppend(&name, ", iteration ", iteration, " (seed ",
                  e.IterationSeed(iteration), ")");
  return name;
}

// One simulation. `trace` (optional) records the measured interval (and
// the warm-up with `trace_warmup`); `*end_ns` (optional) receives the
// simulated time at its end.
absl::StatusOr<RunResult> RunOne(const Experiment& e,
                                 const topology::Topology& machine,
                                 const Variant& variant, const Point& point,
                                 int iteration, bool keep_task_names,
                                 sim::TraceSink* trace,
                                 int64_t* end_ns = nullptr,
                                 bool trace_warmup = false) {
  RunResult result;
  result.seed = e.IterationSeed(iteration);
  RunSpec spec;
  spec.machine = &machine;
  spec.workload = &point.workload;
  spec.config = variant.config;
  spec.cpufreq = variant.cpufreq;
  spec.cpuidle = variant.cpuidle;
  spec.placement = variant.placement;
  spec.idle = variant.idle;
  spec.seed = result.seed;
  spec.warmup = sim::Milliseconds(e.warmup_ms);
  spec.duration = sim::Milliseconds(e.duration_ms);
  spec.trace_warmup = trace_warmup;
  spec.trace = trace;
  const workloads::SettleSpec* settles =
      e.model->settle && (!e.model->settle->applies ||
                          e.model->settle->applies(point.params))
          ? &*e.model->settle
          : nullptr;
  SettleRun settle_run;
  if (settles != nullptr && !e.fixed_length) {
    settle_run.options = e.settle;
    settle_run.count = [settles, &point](const sim::SimStats& stats) {
      return settles->count(point.params, stats);
    };
    settle_run.finished = [](const sim::SimStats& stats) {
      return workloads::AllExited(stats);
    };
    spec.settle = &settle_run;
  }
  SCHEDSIM_ASSIGN_OR_RETURN(RunOutput run, RunOnce(spec));
  if (end_ns != nullptr) *end_ns = run.end_ns;
  const sim::SimStats& stats = run.stats;
  std::vector<workloads::MetricValue> values =
      e.model->evaluate(point.params, stats);
  const std::vector<workloads::MetricInfo>& declared = e.model->metrics;
  bool match = values.size() == declared.size();
  for (size_t m = 0; match && m < values.size(); ++m) {
    match = values[m].name == declared[m].name;
  }
  if (!match) {
    std::vector<std::string> got, want;
    for (const workloads::MetricValue& v : values) got.push_back(v.name);
    for (const workloads::MetricInfo& m : declared) want.push_back(m.name);
    return absl::InternalError(
        absl::StrCat("workload model '", e.model->name,
                     "' evaluated the metrics [", absl::StrJoin(got, ", "),
                     "] but declares [", absl::StrJoin(want, ", "), "]"));
  }
  for (const workloads::MetricValue& v : values) {
    result.metrics.push_back(v.value);
  }
  if (settles != nullptr && e.fixed_length) {
    result.settle.emplace();
    result.settle->fixed_length = true;
    result.settle->stop_reason = "fixed_length";
    result.settle->measured_s = stats.duration_s();
  } else if (run.settle) {
    result.settle = run.settle;
    SettleOutcome& s = *result.settle;
    // A finished run's own metrics stand, and so do those of a run too
    // short to test (fewer than min_batches batches in its duration: the
    // whole window, as a fixed-length run); otherwise the settled rate
    // and what follows from it.
    if (s.stop_reason != "finished" && s.rate > 0 &&
        s.batches >= e.settle.min_batches) {
      result.metrics[settles->rate_metric] = s.rate;
      if (settles->derive) {
        for (const auto& [m, v] : settles->derive(point.params, s.rate)) {
          result.metrics[m] = v;
        }
      }
      if (settles->extrapolated_metric >= 0 && settles->derive) {
        const int m = settles->extrapolated_metric;
        const auto at = [&](double rate) {
          for (const auto& [i, v] : settles->derive(point.params, rate)) {
            if (i == m) return v;
          }
          return 0.0;
        };
        s.extrapolated_metric = declared[m].name;
        s.length = settles->length ? settles->length(point.params) : "";
        double a = at(std::max(s.ci_low, 1e-300));
        double b = at(s.ci_high);
        const double total =
            settles->total ? settles->total(point.params) : 0.0;
        if (total > 0 && s.warmup_count + s.count <= total) {
          // The time so far, then the rest at the rate (and its ends).
          const double rest = total - s.warmup_count - s.count;
          result.metrics[m] = s.elapsed_s + rest / s.rate;
          a = s.elapsed_s + rest / std::max(s.ci_low, 1e-300);
          b = s.elapsed_s + rest / s.ci_high;
        }
        s.extrapolated = result.metrics[m];
        s.extrapolated_low = std::min(a, b);
        s.extrapolated_high = std::max(a, b);
      }
    }
  }
  result.report = MakeRunReport(stats, machine);
  result.events = stats.events;
  if (keep_task_names) {
    for (const sim::TaskStats& t : stats.tasks) {
      result.task_names.push_back(t.name);
    }
  }
  return result;
}

// The machine, the resolved variants and each point's workload.
struct Prepared {
  std::shared_ptr<const topology::Topology> machine;
  std::vector<Variant> variants;
  std::vector<Point> points;
};

absl::StatusOr<Prepared> Prepare(const Experiment& e) {
  if (e.model == nullptr || e.variants.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(e.filename,
                     ": the experiment has no workload model or "
                     "no variants"));
  }
  absl::StatusOr<topology::Topology> machine = LoadMachine(e.machine);
  if (!machine.ok()) return WithContext(machine.status(), e.filename);
  Prepared p;
  p.machine = std::make_shared<const topology::Topology>(*std::move(machine));
  for (const Variant& v : e.variants) {
    Variant resolved = v;
    resolved.cpufreq = ResolvedCpufreq(v.cpufreq, *p.machine, v.config.hwp);
    // A state name the machine lacks fails here, before any run.
    SCHEDSIM_RETURN_IF_ERROR(ApplyIdleControl(*p.machine, v.idle).status());
    p.variants.push_back(std::move(resolved));
  }
  // Variants that differ only in policies the machine cannot express (no
  // frequency or no idle table) would come out identical: refuse them.
  const auto same = [](const PolicySpec& a, const PolicySpec& b) {
    return a.name == b.name && a.params == b.params;
  };
  bool cpufreq_differs = false;
  bool cpuidle_differs = false;
  for (const Variant& v : p.variants) {
    cpufreq_differs |= !same(v.cpufreq, p.variants[0].cpufreq);
    cpuidle_differs |= !same(v.cpuidle, p.variants[0].cpuidle);
  }
  const std::string hint =
      NoPowerTablesHint(*p.machine, cpufreq_differs, cpuidle_differs);
  if (!hint.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat(e.filename, ": the variants differ in ",
                     cpufreq_differs && cpuidle_differs
                         ? "cpufreq and cpuidle"
                         : (cpufreq_differs ? "cpufreq" : "cpuidle"),
                     " policy, but ", hint));
  }
  for (int i = 0; i < e.num_points(); ++i) {
    Point point;
    SCHEDSIM_ASSIGN_OR_RETURN(point.params, e.PointParams(i));
    absl::StatusOr<sim::Workload> workload =
        e.model->build(point.params, *p.machine);
    if (!workload.ok()) {
      std::string where =
          absl::StrCat(e.filename, ": workload '", e.model->name, "'");
      if (e.sweep) absl::StrAppend(&where, " at ", e.PointName(i));
      return WithContext(workload.status(), where);
    }
    point.workload = *std::move(workload);
    p.points.push_back(std::move(point));
  }
  return p;
}

}  // namespace

std::vector<double> ExperimentResult::Samples(int point, int variant,
                                              int metric) const {
  std::vector<double> out;
  for (const RunResult& r : runs[point][variant]) {
    out.push_back(r.metrics[metric]);
  }
  return out;
}

VariantReport ExperimentResult::Report(int point, int variant) const {
  std::vector<const RunReport*> reports;
  for (const RunResult& r : runs[point][variant]) reports.push_back(&r.report);
  const int throughput = ThroughputMetricIndex(metrics);
  std::vector<double> ops;
  std::string name;
  if (throughput >= 0) {
    ops = Samples(point, variant, throughput);
    name = metrics[throughput].name;
  }
  return CombineRunReports(reports, cstate_names, ops, name);
}

namespace {

absl::Status CheckRunCount(const Experiment& e) {
  const int64_t runs = NumRuns(e);
  if (runs > kMaxRuns) {
    return absl::InvalidArgumentError(absl::StrCat(
        e.filename, ": ", e.num_points(), " sweep values x ", e.variants.size(),
        " variants x ", e.iterations, " iterations = ", runs, " runs; at most ",
        kMaxRuns, " in one experiment"));
  }
  return absl::OkStatus();
}

// One run for the pool: run `run` of experiment `experiment`, the
// `index`-th run selected of that experiment.
struct PoolUnit {
  int experiment = 0;
  int run = 0;
  int index = 0;
};

// What the pool gives back for one experiment: the results in the order
// of its selected runs, or the first failure in that order.
struct PoolOutcome {
  std::vector<std::optional<RunResult>> results;
  std::vector<absl::Status> errors;
};

// Runs `units` on one pool of threads, largest cost first
// (LargestFirstOrder over `costs`). A failed run stops the runs of its
// experiment that come after it in selected order (the runs before it
// still run), so the first failure in selected order is the same whatever
// the number of threads and the order the runs were started in.
std::vector<PoolOutcome> RunPool(const std::vector<const Experiment*>& es,
                                 const std::vector<const Prepared*>& prepared,
                                 const std::vector<std::vector<int>>& selected,
                                 const std::vector<double>& costs,
                                 const RunnerOptions& options) {
  std::vector<PoolUnit> units;
  std::vector<PoolOutcome> out(es.size());
  for (size_t x = 0; x < es.size(); ++x) {
    out[x].results.resize(selected[x].size());
    out[x].errors.resize(selected[x].size());
    for (size_t i = 0; i < selected[x].size(); ++i) {
      units.push_back(
          {static_cast<int>(x), selected[x][i], static_cast<int>(i)});
    }
  }
  const std::vector<int> order = LargestFirstOrder(costs);
  const int total = static_cast<int>(units.size());
  // Per experiment, the lowest selected index that failed (total: none).
  std::vector<std::atomic<int>> first_failed(es.size());
  for (std::atomic<int>& f : first_failed) f.store(total);
  std::atomic<int> next{0};
  std::mutex progress_mutex;
  int done = 0;
  auto worker = [&]() {
    for (;;) {
      // With a `started` callback, a run is taken and announced under one
      // lock, so the calls come in the order the runs were taken (two
      // workers could otherwise announce theirs the other way round).
      std::unique_lock<std::mutex> start_lock(progress_mutex, std::defer_lock);
      if (options.started) start_lock.lock();
      const int slot = next.fetch_add(1);
      if (slot >= total) return;
      const PoolUnit& u = units[order[slot]];
      const Experiment& e = *es[u.experiment];
      const bool run_it = u.index <= first_failed[u.experiment].load();
      if (run_it && options.started) options.started(u.experiment, u.run);
      if (start_lock.owns_lock()) start_lock.unlock();
      if (run_it) {
        const RunKey key = KeyOfRun(e, u.run);
        const bool keep_names =
            key.point == 0 &&
            key.iteration == options.keep_task_names_iteration;
        const Prepared& p = *prepared[u.experiment];
        absl::StatusOr<RunResult> r =
            RunOne(e, *p.machine, p.variants[key.variant], p.points[key.point],
                   key.iteration, keep_names, nullptr);
        if (r.ok()) {
          out[u.experiment].results[u.index] = *std::move(r);
        } else {
          out[u.experiment].errors[u.index] = WithContext(
              r.status(), RunName(e, key.point, key.variant, key.iteration));
          std::atomic<int>& f = first_failed[u.experiment];
          int seen = f.load();
          while (u.index < seen && !f.compare_exchange_weak(seen, u.index)) {
          }
        }
      }
      if (options.progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        options.progress(++done, total);
      }
    }
  };
  int threads = options.jobs > 0
                    ? options.jobs
                    : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::clamp(threads, 1, std::max(total, 1));
  if (threads == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }
  return out;
}

// The results of one experiment's pool outcome, in selected order, or its
// first failure (`failed_run` set to the run's number).
absl::StatusOr<std::vector<RunResult>> Collect(PoolOutcome outcome,
                                               const std::vector<int>& selected,
                                               int* failed_run) {
  for (size_t i = 0; i < outcome.errors.size(); ++i) {
    if (outcome.errors[i].ok()) continue;
    if (failed_run != nullptr) *failed_run = selected[i];
    return outcome.errors[i];
  }
  std::vector<RunResult> out;
  out.reserve(outcome.results.size());
  for (std::optional<RunResult>& r : outcome.results) {
    out.push_back(*std::move(r));
  }
  return out;
}

// The estimated cost of each run in `selected` of a prepared experiment
// (`at_most`: settling runs at their maximum length).
std::vector<double> SelectedCosts(const Experiment& e, const Prepared& p,
                                  const std::vector<int>& selected,
                                  bool at_most = false);

// Runs `selected` (run numbers, ascending) on the pool, largest estimated
// cost first; the results in the order of `selected`.
absl::StatusOr<std::vector<RunResult>> RunPrepared(
    const Experiment& e, const Prepared& prepared,
    const std::vector<int>& selected, const RunnerOptions& options,
    int* failed_run) {
  std::vector<PoolOutcome> out =
      RunPool({&e}, {&prepared}, {selected},
              SelectedCosts(e, prepared, selected), options);
  return Collect(std::move(out[0]), selected, failed_run);
}

ExperimentResult Assemble(const Experiment& e, Prepared prepared,
                          std::vector<RunResult> runs) {
  const int points = e.num_points();
  const int variants = static_cast<int>(e.variants.size());
  ExperimentResult result;
  result.machine = prepared.machine;
  for (const topology::CState& s : prepared.machine->cstates()) {
    result.cstate_names.push_back(s.name);
  }
  result.metrics = e.model->metrics;
  result.variants = std::move(prepared.variants);
  for (Point& p : prepared.points) {
    result.point_params.push_back(std::move(p.params));
  }
  result.runs.assign(points, std::vector<std::vector<RunResult>>(variants));
  for (size_t run = 0; run < runs.size(); ++run) {
    const RunKey key = KeyOfRun(e, static_cast<int>(run));
    result.runs[key.point][key.variant].push_back(std::move(runs[run]));
  }
  return result;
}

}  // namespace

int64_t NumRuns(const Experiment& e) {
  return int64_t{e.num_points()} * static_cast<int64_t>(e.variants.size()) *
         e.iterations;
}

RunKey KeyOfRun(const Experiment& e, int run) {
  const int variants = static_cast<int>(e.variants.size());
  RunKey key;
  key.iteration = run % e.iterations;
  key.variant = (run / e.iterations) % variants;
  key.point = run / (e.iterations * variants);
  return key;
}

namespace {

std::vector<double> SelectedCosts(const Experiment& e, const Prepared& p,
                                  const std::vector<int>& selected,
                                  bool at_most) {
  std::vector<double> costs;
  costs.reserve(selected.size());
  const int cpus = p.machine->num_cpus();
  for (int run : selected) {
    const RunKey key = KeyOfRun(e, run);
    const Point& point = p.points[key.point];
    int64_t tasks = 0;
    for (const sim::TaskSpec& t : point.workload.tasks) tasks += t.count;
    double measured_s = static_cast<double>(e.duration_ms) / 1e3;
    const bool settles =
        e.model->settle && !e.fixed_length &&
        (!e.model->settle->applies || e.model->settle->applies(point.params));
    if (settles && !at_most) {
      measured_s = ExpectedSettledSeconds(
          measured_s, static_cast<double>(e.settle.batch_ms) / 1e3,
          e.settle.min_batches);
    }
    costs.push_back(
        RunWallSeconds(e.model->name, cpus, tasks,
                       static_cast<double>(e.warmup_ms) / 1e3 + measured_s));
  }
  return costs;
}

}  // namespace

std::vector<int> LargestFirstOrder(const std::vector<double>& costs) {
  std::vector<int> order(costs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&costs](int a, int b) { return costs[a] > costs[b]; });
  return order;
}

int CapJobs(int requested, int hardware, std::string* note) {
  hardware = std::max(hardware, 1);
  if (requested <= hardware) return requested;
  if (note != nullptr) {
    *note = absl::StrCat("--jobs=", requested, " is more than the ", hardware,
                         " hardware threads; using ", hardware);
  }
  return hardware;
}

absl::StatusOr<std::vector<double>> EstimateRunCosts(const Experiment& e,
                                                     bool at_most) {
  SCHEDSIM_RETURN_IF_ERROR(CheckRunCount(e));
  SCHEDSIM_ASSIGN_OR_RETURN(Prepared prepared, Prepare(e));
  std::vector<int> all(NumRuns(e));
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  return SelectedCosts(e, prepared, all, at_most);
}

std::vector<absl::StatusOr<ExperimentResult>> RunExperiments(
    const std::vector<const Experiment*>& experiments,
    const RunnerOptions& options) {
  std::vector<absl::StatusOr<ExperimentResult>> out(
      experiments.size(), absl::UnknownError("not run"));
  std::vector<std::optional<Prepared>> prepared(experiments.size());
  std::vector<const Experiment*> es;
  std::vector<const Prepared*> ps;
  std::vector<std::vector<int>> selected;
  std::vector<int> which;  // index in `experiments` of each of `es`
  std::vector<double> costs;
  for (size_t x = 0; x < experiments.size(); ++x) {
    const Experiment& e = *experiments[x];
    absl::Status ok = CheckRunCount(e);
    if (ok.ok()) {
      absl::StatusOr<Prepared> p = Prepare(e);
      if (p.ok()) {
        prepared[x] = *std::move(p);
      } else {
        ok = p.status();
      }
    }
    if (!ok.ok()) {
      out[x] = ok;
      continue;
    }
    std::vector<int> all(NumRuns(e));
    for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
    for (double c : SelectedCosts(e, *prepared[x], all)) costs.push_back(c);
    es.push_back(&e);
    ps.push_back(&*prepared[x]);
    selected.push_back(std::move(all));
    which.push_back(static_cast<int>(x));
  }
  std::vector<PoolOutcome> outcomes = RunPool(es, ps, selected, costs, options);
  for (size_t i = 0; i < es.size(); ++i) {
    const int x = which[i];
    absl::StatusOr<std::vector<RunResult>> runs =
        Collect(std::move(outcomes[i]), selected[i], nullptr);
    if (!runs.ok()) {
      out[x] = runs.status();
    } else {
      out[x] = Assemble(*es[i], *std::move(prepared[x]), *std::move(runs));
    }
  }
  return out;
}

absl::StatusOr<std::vector<RunResult>> RunSelected(const Experiment& e,
                                                   const std::vector<int>& runs,
                                                   const RunnerOptions& options,
                                                   int* failed_run) {
  SCHEDSIM_RETURN_IF_ERROR(CheckRunCount(e));
  const int64_t total = NumRuns(e);
  for (size_t i = 0; i < runs.size(); ++i) {
    if (runs[i] < 0 || runs[i] >= total || (i > 0 && runs[i] <= runs[i - 1])) {
      return absl::InvalidArgumentError(absl::StrCat(
          e.filename, ": run numbers must be ascending and in 0..", total - 1));
    }
  }
  SCHEDSIM_ASSIGN_OR_RETURN(Prepared prepared, Prepare(e));
  return RunPrepared(e, prepared, runs, options, failed_run);
}

absl::StatusOr<ExperimentResult> AssembleResult(const Experiment& e,
                                                std::vector<RunResult> runs) {
  SCHEDSIM_RETURN_IF_ERROR(CheckRunCount(e));
  if (static_cast<int64_t>(runs.size()) != NumRuns(e)) {
    return absl::InvalidArgumentError(
        absl::StrCat(e.filename, ": ", runs.size(), " run results for ",
                     NumRuns(e), " runs"));
  }
  SCHEDSIM_ASSIGN_OR_RETURN(Prepared prepared, Prepare(e));
  for (const RunResult& r : runs) {
    if (r.metrics.size() != e.model->metrics.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(e.filename, ": a run result has ", r.metrics.size(),
                       " metrics; workload model '", e.model->name, "' has ",
                       e.model->metrics.size()));
    }
  }
  return Assemble(e, std::move(prepared), std::move(runs));
}

absl::StatusOr<ExperimentResult> RunExperiment(const Experiment& e,
                                               const RunnerOptions& options) {
  SCHEDSIM_RETURN_IF_ERROR(CheckRunCount(e));
  SCHEDSIM_ASSIGN_OR_RETURN(Prepared prepared, Prepare(e));
  std::vector<int> all(NumRuns(e));
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  SCHEDSIM_ASSIGN_OR_RETURN(std::vector<RunResult> runs,
                            RunPrepared(e, prepared, all, options, nullptr));
  return Assemble(e, std::move(prepared), std::move(runs));
}

namespace {

// WriteTrace and WriteTraceFile: to `out` when `path` is empty.
absl::Status WriteTraceTo(const Experiment& e, const ExperimentResult& result,
                          int point, int variant, int iteration,
                          traces::TraceFileOptions options, std::ostream* out,
                          const std::string& path,
                          traces::CpuTimeline* timeline) {
  if (point < 0 || point >= e.num_points() || variant < 0 ||
      variant >= static_cast<int>(e.variants.size()) || iteration < 0 ||
      iteration >= e.iterations) {
    return absl::InvalidArgumentError(
        absl::StrCat(e.filename, ": no run (point ", point, ", variant ",
                     variant, ", iteration ", iteration, ") to trace"));
  }
  Point p;
  p.params = result.point_params[point];
  absl::StatusOr<sim::Workload> workload =
      e.model->build(p.params, *result.machine);
  if (!workload.ok()) return WithContext(workload.status(), e.filename);
  p.workload = *std::move(workload);
  std::vector<std::string> names;
  const RunResult& run = result.runs[point][variant][iteration];
  if (!run.task_names.empty()) {
    names = run.task_names;
  } else {
    // The tasks present at the start (forked ones show as "task N").
    for (const sim::TaskSpec& t : p.workload.tasks) {
      for (int i = 0; i < t.count; ++i) names.push_back(t.name);
    }
  }
  options.num_cpus = result.machine->num_cpus();
  // With a window (or a timeline) the run is traced from its start, so that
  // each CPU's state at the window's start is known; without one, the
  // window is the measured interval.
  const bool from_start = options.selection.HasWindow() || timeline != nullptr;
  if (from_start && !options.selection.HasWindow()) {
    options.selection.from_ns = e.warmup_ms * 1000000;
    options.selection.to_ns = (e.warmup_ms + e.duration_ms) * 1000000;
  }
  std::unique_ptr<traces::TraceFile> file;
  if (path.empty()) {
    file = traces::TraceFile::ToStream(out, options, std::move(names));
  } else {
    absl::StatusOr<std::unique_ptr<traces::TraceFile>> created =
        traces::TraceFile::Create(path, options, std::move(names));
    if (!created.ok()) return created.status();
    file = *std::move(created);
  }
  int64_t end_ns = 0;
  traces::TeeTraceSink tee({file->sink(), timeline});
  absl::StatusOr<RunResult> r =
      RunOne(e, *result.machine, result.variants[variant], p, iteration,
             /*keep_task_names=*/false, &tee, &end_ns, from_start);
  if (!r.ok()) {
    return WithContext(r.status(), RunName(e, point, variant, iteration));
  }
  if (timeline != nullptr) timeline->Finish(end_ns);
  absl::Status finished = file->Finish(end_ns);
  if (!finished.ok()) {
    return absl::InternalError(absl::StrCat(
        e.filename, ": writing the trace failed: ", finished.message()));
  }
  if (out != nullptr && !*out) {
    return absl::InternalError(
        absl::StrCat(e.filename, ": writing the trace failed"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteTrace(const Experiment& e, const ExperimentResult& result,
                        int point, int variant, int iteration,
                        std::ostream& out) {
  return WriteTrace(e, result, point, variant, iteration,
                    TraceFormat::kPerfetto, out);
}

absl::Status WriteTrace(const Experiment& e, const ExperimentResult& result,
                        int point, int variant, int iteration,
                        TraceFormat format, std::ostream& out) {
  traces::TraceFileOptions options;
  options.format = format == TraceFormat::kFtrace
                       ? traces::TraceFileFormat::kFtrace
                       : traces::TraceFileFormat::kChromeJson;
  return WriteTraceTo(e, result, point, variant, iteration, options, &out, "",
                      nullptr);
}

absl::Status WriteTraceFile(const Experiment& e, const ExperimentResult& result,
                            int point, int variant, int iteration,
                            const traces::TraceFileOptions& options,
                            const std::string& path,
                            traces::CpuTimeline* timeline) {
  return WriteTraceTo(e, result, point, variant, iteration, options, nullptr,
                      path, timeline);
}

}  // namespace schedsim::experiments
