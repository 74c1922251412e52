// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/run_command.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>  // NOLINT(build/c++11): hardware_concurrency
#include <variant>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/flags.h"
#include "cli/progress.h"
#include "experiments/compare.h"
#include "experiments/experiment.h"
#include "experiments/machine_source.h"
#include "experiments/metric_warnings.h"
#include "experiments/mmtests_export.h"
#include "experiments/plots.h"
#include "experiments/robustness.h"
#include "experiments/run_shard.h"
#include "experiments/runner.h"
#include "experiments/shard.h"
#include "traces/cpu_timeline.h"
#include "traces/trace_file.h"
#include "traces/trace_select.h"

namespace schedsim::cli {

using experiments::CapJobs;
using experiments::CheckCost;
using experiments::CheckRobustness;
using experiments::ComparisonTable;
using experiments::CostEstimate;
using experiments::EmptyMetricWarnings;
using experiments::EstimateCost;
using experiments::Experiment;
using experiments::ExperimentResult;
using experiments::kDefaultRobustnessPct;
using experiments::kMaxIterations;
using experiments::LoadMachine;
using experiments::OrderedJson;
using experiments::ParseExperiment;
using experiments::ParseShard;
using experiments::ReadFileText;
using experiments::ReportsSection;
using experiments::ResultCsv;
using experiments::ResultJson;
using experiments::RobustnessEntry;
using experiments::RobustnessJson;
using experiments::RobustnessParams;
using experiments::RobustnessText;
using experiments::RunExperiment;
using experiments::RunExperimentShard;
using experiments::RunnerOptions;
using experiments::Shard;
using experiments::ShardRuns;
using experiments::TimelinePlot;
using experiments::WriteMmtestsLogs;
using experiments::WritePartial;
using experiments::WritePlots;
using experiments::WriteTraceFile;
namespace {

constexpr int kMaxJobs = 4096;
// Time bins of the per-CPU timeline plots (--plots with --trace).
constexpr int kTimelineBins = 400;

constexpr char kUsage[] =
    "Usage: schedsim run FILE [--format=table|json|csv] [--out=DIR] "
    "[--jobs=N]\n"
    "                         [--trace=perfetto|perfetto-proto|csv|ftrace]\n"
    "                         [--trace-iteration=K] "
    "[--trace-window=FROM_MS:TO_MS]\n"
    "                         [--trace-cpus=LIST] [--trace-gzip]\n"
    "                         [--iterations=N] [--seed=N] "
    "[--robustness[=PCT]] [--yes] [--fixed-length]\n"
    "                         [--shard=I/N] [--plots=DIR] "
    "[--define=KEY=VALUE ...]\n"
    "                         [--mmtests=DIR]\n";

// What --help says between the usage and the flags.
constexpr char kAbout[] =
    "Runs every variant of the experiment FILE (docs/experiments.md "
    "describes the\nformat) for every sweep value and iteration, and "
    "prints an mmtests-style\ncomparison against the first variant, "
    "then the C-state, frequency, energy\nand placement reports.\n";

// Writes `text` to `path`; an error names the path.
bool WriteFile(const std::string& command, const std::string& path,
               const std::string& text, std::ostream& err) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) f << text;
  if (f) f.close();
  if (!f) {
    err << "schedsim " << command << ": cannot write " << path << "\n";
    return false;
  }
  return true;
}

std::string JoinPath(const std::string& dir, const std::string& file) {
  if (dir.empty()) return file;
  return dir.back() == '/' ? absl::StrCat(dir, file)
                           : absl::StrCat(dir, "/", file);
}

}  // namespace

int PrintRunResult(const std::string& command, const Experiment& e,
                   const ExperimentResult& result,
                   const std::vector<RobustnessEntry>* verdicts,
                   double robustness_pct, const std::string& format,
                   const std::string& out_dir, std::ostream& out,
                   std::ostream& err) {
  std::string table;
  if (format == "table" || !out_dir.empty()) {
    table = ComparisonTable(e, result);
    if (verdicts != nullptr) {
      absl::StrAppend(&table, RobustnessText(e, *verdicts, robustness_pct));
    }
    absl::StrAppend(&table, SettleSection(e, result));
    absl::StrAppend(&table, ReportsSection(e, result));
  }
  std::string json;
  if (format == "json" || !out_dir.empty()) {
    OrderedJson j = ResultJson(e, result);
    if (verdicts != nullptr) j["robustness"] = RobustnessJson(e, *verdicts);
    json = j.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
  }
  std::string csv;
  if (format == "csv" || !out_dir.empty()) csv = ResultCsv(e, result);
  out << (format == "json" ? json : format == "csv" ? csv : table);

  if (!out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) {
      err << "schedsim " << command << ": cannot create " << out_dir << ": "
          << ec.message() << "\n";
      return 1;
    }
    if (!WriteFile(command, JoinPath(out_dir, "result.json"), json, err) ||
        !WriteFile(command, JoinPath(out_dir, "result.csv"), csv, err) ||
        !WriteFile(command, JoinPath(out_dir, "result.txt"), table, err)) {
      return 1;
    }
  }
  return 0;
}

int RunCommand(const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err) {
  std::string format = "table";
  std::string out_dir;
  int64_t jobs = 0;
  std::string trace;
  std::string plots_dir;
  std::string mmtests_dir;
  int64_t trace_iteration = 0;
  std::string trace_window;
  std::string trace_cpus;
  bool trace_gzip = false;
  int64_t iterations = 0;
  std::string seed;
  double robustness = 0;
  bool yes = false;
  bool fixed_length = false;
  std::string shard_text;
  CommandLine cl("run", kUsage, kAbout, out, err,
                 /*usage_on_error=*/true);
  FlagSet& flags = cl.flags();
  flags.String("format", &format,
               "what to print: table (the comparison and the reports), json "
               "or csv");
  flags.String("out", &out_dir,
               "a directory to write result.json, result.csv and result.txt "
               "(the table) to, and the traces; created if missing");
  flags.Int("jobs", &jobs,
            "runs in parallel; 0 = one per hardware thread (the output does "
            "not depend on it)");
  flags.String("trace", &trace,
               "write a trace of one iteration of every variant at the first "
               "sweep value to trace-VARIANT.EXT in --out (or the current "
               "directory): perfetto: Chrome JSON (ui.perfetto.dev), .json; "
               "perfetto-proto: Perfetto's protobuf format (CPU, cpufreq and "
               "cpuidle tracks), .pftrace; csv: one row per event, .csv; "
               "ftrace: ftrace text (trace-cmd report -t layout), .txt");
  flags.String("trace-window", &trace_window,
               "FROM_MS:TO_MS: only the events in this window of simulated "
               "time (ms since the start, warm-up included; the trace covers "
               "the measured interval), with each CPU's state at FROM");
  flags.String("trace-cpus", &trace_cpus,
               "LIST: only the events of these CPUs (a kernel cpulist, e.g. "
               "0-15 or 0,64-71)");
  flags.Bool("trace-gzip", &trace_gzip,
             "gzip the trace (.gz after the extension); ui.perfetto.dev opens "
             "it as it is");
  flags.String("plots", &plots_dir,
               "a directory to draw the result in with gnuplot (PNG, with "
               "the data files and the script plots.gp); created if missing");
  flags.String("mmtests", &mmtests_dir,
               "a directory to write the result to as mmtests' per-benchmark "
               "logs, one test run per variant, for mmtests' "
               "compare-kernels.sh (hackbench: "
               "VARIANT/iter-0/hackbench/logs/hackbench-GROUPS-N)");
  flags.Int("trace-iteration", &trace_iteration,
            "the iteration --trace records, 0..iterations-1");
  flags.Int("iterations", &iterations,
            "runs per variant and sweep value, overriding the file's "
            "\"iterations\"; 0 keeps the file's");
  flags.String("seed", &seed,
               "the experiment seed, an integer 0..2^64-1, overriding the "
               "file's \"seed\"");
  flags.OptionalDouble(
      "robustness", &robustness, kDefaultRobustnessPct,
      "also re-run with each cost parameter scaled by -PCT% and +PCT%, one "
      "at a time, and report whether the sign of each difference against "
      "the baseline holds (robust) or which parameters flip it (fragile); "
      "PCT in (0, 100); (1 + 2 x parameters) x the runs");
  flags.Bool("fixed-length", &fixed_length,
             "run every run for the file's duration_ms, also those of models "
             "that run until stopped (hackbench, netperf, tbench, pgbench), "
             "which otherwise stop when their rate has settled (the file's "
             "\"settle\": false does the same)");
  flags.Bool("yes", &yes,
             "run even when the cost estimate is above the limits (more "
             "runs than the file's \"max_runs\", default 10000, or more than "
             "24 h of estimated wall time)");
  flags.String("shard", &shard_text,
               "I/N: run only shard I (0..N-1) of N, a deterministic share "
               "of the runs balanced by estimated cost, and write its partial "
               "result to shard-I-of-N.json in --out (or the current "
               "directory) for `schedsim merge` (docs/scale-out.md)");
  // --define=KEY=VALUE is repeatable: taken out before the flag set.
  std::vector<std::string> defines;
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") {
      rest.insert(rest.end(), args.begin() + i, args.end());
      break;
    }
    if (absl::StartsWith(args[i], "--define=")) {
      defines.push_back(args[i].substr(9));
    } else if (args[i] == "--define" && i + 1 < args.size()) {
      defines.push_back(args[++i]);
    } else {
      rest.push_back(args[i]);
    }
  }
  std::vector<std::string> positional;
  if (std::optional<int> done =
          cl.Parse(rest, &positional, static_cast<size_t>(-1))) {
    return *done;
  }
  auto usage_error = [&](const std::string& message) {
    return cl.UsageError(message);
  };
  if (positional.size() != 1) {
    return usage_error(positional.empty()
                           ? std::string("expected an experiment FILE")
                           : absl::StrCat("expected one experiment FILE, got ",
                                          positional.size(), ": ",
                                          absl::StrJoin(positional, " ")));
  }
  if (format != "table" && format != "json" && format != "csv") {
    return usage_error(absl::StrCat(
        "--format must be table, json or csv, got '", format, "'"));
  }
  if (jobs < 0 || jobs > kMaxJobs) {
    return usage_error(
        absl::StrCat("--jobs must be in 0..", kMaxJobs, ", got ", jobs));
  }
  {
    // More jobs than hardware threads only share the cores: capped, with a
    // note.
    std::string note;
    jobs =
        CapJobs(static_cast<int>(jobs),
                static_cast<int>(std::thread::hardware_concurrency()), &note);
    if (!note.empty()) err << "schedsim run: note: " << note << "\n";
  }
  traces::TraceFileOptions trace_options;
  if (flags.Given("trace")) {
    absl::StatusOr<traces::TraceFileFormat> trace_format =
        traces::ParseTraceFileFormat(trace);
    if (!trace_format.ok()) {
      return usage_error(
          absl::StrCat("--trace: ", trace_format.status().message()));
    }
    trace_options.format = *trace_format;
  }
  trace_options.gzip = trace_gzip;
  for (const char* bound : {"trace-window", "trace-cpus", "trace-gzip"}) {
    if (flags.Given(bound) && trace.empty()) {
      return usage_error(absl::StrCat(
          "--", bound, " needs --trace=", traces::TraceFileFormatNames()));
    }
  }
  if (flags.Given("trace-window")) {
    absl::Status window =
        traces::ParseTraceWindow(trace_window, &trace_options.selection);
    if (!window.ok()) {
      return usage_error(absl::StrCat("--trace-window: ", window.message()));
    }
  }
  if (flags.Given("mmtests") && mmtests_dir.empty()) {
    return usage_error(
        "--mmtests expects a directory, e.g. --mmtests=work/log");
  }
  if (flags.Given("plots") && plots_dir.empty()) {
    return usage_error("--plots expects a directory, e.g. --plots=plots");
  }
  if (flags.Given("trace-iteration") && trace.empty()) {
    return usage_error(absl::StrCat("--trace-iteration needs --trace=",
                                    traces::TraceFileFormatNames()));
  }
  if (iterations < 0 || iterations > kMaxIterations) {
    return usage_error(absl::StrCat("--iterations must be in 0..",
                                    kMaxIterations, ", got ", iterations));
  }
  if (flags.Given("robustness") &&
      !(std::isfinite(robustness) && robustness > 0 && robustness < 100)) {
    return usage_error(
        absl::StrCat("--robustness expects a percentage in (0, 100) (e.g. "
                     "--robustness=25, or --robustness alone for ",
                     kDefaultRobustnessPct, "), got ", robustness));
  }
  uint64_t seed_value = 0;
  if (flags.Given("seed") && !absl::SimpleAtoi(seed, &seed_value)) {
    return usage_error(absl::StrCat("--seed expects an integer in 0..",
                                    UINT64_MAX, ", got '", seed, "'"));
  }
  std::optional<Shard> shard;
  if (flags.Given("shard")) {
    absl::StatusOr<Shard> parsed_shard = ParseShard(shard_text);
    if (!parsed_shard.ok()) {
      return usage_error(std::string(parsed_shard.status().message()));
    }
    for (const char* other :
         {"format", "trace", "robustness", "plots", "mmtests"}) {
      if (flags.Given(other)) {
        return usage_error(absl::StrCat(
            "--shard writes a partial result; --", other,
            " goes to `schedsim run` without --shard (or --format to "
            "`schedsim merge`)"));
      }
    }
    shard = *parsed_shard;
  }

  absl::StatusOr<std::string> file_text =
      ReadFileText(positional[0], "experiment file");
  absl::StatusOr<Experiment> experiment =
      file_text.ok() ? ParseExperiment(*file_text, positional[0])
                     : absl::StatusOr<Experiment>(file_text.status());
  if (!experiment.ok()) {
    err << "schedsim run: " << experiment.status().message() << "\n";
    return 1;
  }
  Experiment& e = *experiment;
  if (!defines.empty()) {
    const bool takes_defines =
        std::any_of(e.model->params.begin(), e.model->params.end(),
                    [](const auto& p) { return p.name == "define"; });
    if (!takes_defines) {
      return usage_error(absl::StrCat(
          "--define is for workload models read from templates (rtapp); ",
          positional[0], "'s model is ", e.model->name));
    }
    for (const std::string& d : defines) {
      const size_t eq = d.find('=');
      if (eq == std::string::npos || eq == 0 ||
          d.find(',') != std::string::npos) {
        return usage_error(absl::StrCat(
            "--define expects KEY=VALUE (no comma), got '", d, "'"));
      }
    }
    std::string joined;
    auto given = e.params.find("define");
    if (given != e.params.end() &&
        std::holds_alternative<std::string>(given->second)) {
      joined = std::get<std::string>(given->second);
    }
    for (const std::string& d : defines) {
      absl::StrAppend(&joined, joined.empty() ? "" : ",", d);
    }
    e.params["define"] = joined;
  }
  if (iterations > 0) e.iterations = static_cast<int>(iterations);
  if (flags.Given("seed")) e.seed = seed_value;
  if (fixed_length) e.fixed_length = true;
  if (trace_iteration < 0 || trace_iteration >= e.iterations) {
    return usage_error(absl::StrCat("--trace-iteration must be in 0..",
                                    e.iterations - 1, " (", e.iterations,
                                    " iterations), got ", trace_iteration));
  }
  if (trace_options.selection.HasWindow() &&
      trace_options.selection.from_ns >=
          (e.warmup_ms + e.duration_ms) * 1000000) {
    return usage_error(absl::StrCat(
        "--trace-window=", trace_window, " starts after the run ends at ",
        e.warmup_ms + e.duration_ms, " ms (", positional[0], ": warmup_ms ",
        e.warmup_ms, ", duration_ms ", e.duration_ms, ")"));
  }
  if (flags.Given("trace-cpus")) {
    absl::StatusOr<topology::Topology> machine = LoadMachine(e.machine);
    if (!machine.ok()) {
      err << "schedsim run: " << machine.status().message() << "\n";
      return 1;
    }
    absl::Status cpus = traces::ParseTraceCpus(trace_cpus, machine->num_cpus(),
                                               &trace_options.selection);
    if (!cpus.ok()) {
      return usage_error(absl::StrCat("--trace-cpus: ", cpus.message(),
                                      " of machine ", machine->name()));
    }
  }

  RunnerOptions options;
  options.jobs = static_cast<int>(jobs);
  if (!trace.empty()) {
    options.keep_task_names_iteration = static_cast<int>(trace_iteration);
  }
  const bool check_robustness = flags.Given("robustness");
  std::vector<int> shard_runs;
  if (shard) {
    absl::StatusOr<std::vector<int>> runs = ShardRuns(e, *shard);
    if (!runs.ok()) {
      err << "schedsim run: " << runs.status().message() << "\n";
      return 1;
    }
    shard_runs = *std::move(runs);
    err << "schedsim run: shard " << shard->Text() << ": " << shard_runs.size()
        << " of " << NumRuns(e) << " runs\n";
  }
  const int64_t nominal_runs =
      shard ? static_cast<int64_t>(shard_runs.size()) : NumRuns(e);
  const int64_t scaled_runs = check_robustness ? RobustnessRunCount(e) : 0;
  if (check_robustness) {
    err << "schedsim run: --robustness=" << robustness << ": "
        << RobustnessParams(e).size() << " cost parameters x 2 scalings + "
        << "the nominal = " << nominal_runs + scaled_runs << " runs ("
        << nominal_runs << " per pass)\n";
  }
  // The cost, before anything runs (docs/experiments.md, "Cost").
  double estimate_wall_s = 0;
  {
    absl::StatusOr<topology::Topology> machine = LoadMachine(e.machine);
    if (!machine.ok()) {
      err << "schedsim run: " << e.filename << ": "
          << machine.status().message() << "\n";
      return 1;
    }
    const int hardware =
        static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // Each run's estimated cost (the shard's runs with --shard); a file
    // whose workloads do not build fails below, with its error.
    std::vector<double> run_costs;
    if (absl::StatusOr<std::vector<double>> c = EstimateRunCosts(e); c.ok()) {
      if (shard) {
        for (int r : shard_runs) run_costs.push_back((*c)[r]);
      } else {
        run_costs = *std::move(c);
      }
    }
    const CostEstimate cost =
        EstimateCost(e, nominal_runs + scaled_runs, machine->num_cpus(),
                     jobs > 0 ? static_cast<int>(jobs) : hardware, run_costs);
    err << "schedsim run: estimate: " << cost.Text() << "\n";
    estimate_wall_s = cost.wall_s;
    absl::Status allowed = CheckCost(e, cost, yes);
    if (!allowed.ok()) {
      err << "schedsim run: refused: " << allowed.message() << "\n";
      return 1;
    }
  }
  std::unique_ptr<ProgressLine> bar;
  if (&err == &std::cerr && isatty(STDERR_FILENO)) {
    bar = std::make_unique<ProgressLine>(&err, "runs", estimate_wall_s);
    ProgressLine* b = bar.get();
    const int all = static_cast<int>(
        std::min<int64_t>(nominal_runs + scaled_runs, INT32_MAX));
    options.progress = [b, all](int done, int) { b->Update(done, all); };
  }
  if (shard) {
    absl::StatusOr<OrderedJson> partial = RunExperimentShard(
        e, positional[0], *file_text, *shard, shard_runs, options);
    if (bar) bar->Clear();
    absl::StatusOr<std::string> path =
        partial.ok() ? WritePartial(*partial, *shard, out_dir)
                     : absl::StatusOr<std::string>(partial.status());
    if (!path.ok()) {
      err << "schedsim run: " << path.status().message() << "\n";
      return 1;
    }
    err << "schedsim run: wrote " << *path << " (shard " << shard->Text()
        << ", " << shard_runs.size() << " runs)\n";
    return 0;
  }
  const auto runs_start = std::chrono::steady_clock::now();
  absl::StatusOr<ExperimentResult> result = RunExperiment(e, options);
  const auto runs_end = std::chrono::steady_clock::now();
  if (!result.ok()) {
    if (bar) bar->Clear();
    err << "schedsim run: " << result.status().message() << "\n";
    return 1;
  }
  std::vector<RobustnessEntry> verdicts;
  if (check_robustness) {
    RunnerOptions scaled_options = options;
    if (bar) {
      ProgressLine* b = bar.get();
      const int offset = static_cast<int>(nominal_runs);
      const int all = static_cast<int>(
          std::min<int64_t>(nominal_runs + scaled_runs, INT32_MAX));
      scaled_options.progress = [b, offset, all](int done, int) {
        b->Update(offset + done, all);
      };
    }
    absl::StatusOr<std::vector<RobustnessEntry>> checked =
        CheckRobustness(e, *result, robustness, scaled_options);
    if (!checked.ok()) {
      if (bar) bar->Clear();
      err << "schedsim run: --robustness: " << checked.status().message()
          << "\n";
      return 1;
    }
    verdicts = *std::move(checked);
  }
  if (bar) bar->Clear();

  const int printed =
      PrintRunResult("run", e, *result, check_robustness ? &verdicts : nullptr,
                     robustness, format, out_dir, out, err);
  if (printed != 0) return printed;
  for (const std::string& w : EmptyMetricWarnings(e, *result)) {
    err << "schedsim run: warning: " << w << "\n";
  }
  if (flags.Given("mmtests")) {
    absl::StatusOr<std::vector<std::string>> logs =
        WriteMmtestsLogs(e, *result, mmtests_dir);
    if (!logs.ok()) {
      err << "schedsim run: " << logs.status().message() << "\n";
      return 1;
    }
    err << "schedsim run: wrote " << logs->size() << " mmtests logs under "
        << mmtests_dir << "\n";
  }
  // With --plots, each traced run also feeds a per-CPU timeline.
  const bool timelines_wanted = flags.Given("plots") && !trace.empty();
  std::vector<std::unique_ptr<traces::CpuTimeline>> timelines;
  std::vector<TimelinePlot> timeline_plots;
  if (!trace.empty()) {
    const int64_t run_end_ns = (e.warmup_ms + e.duration_ms) * 1000000;
    const traces::TraceSelection& sel = trace_options.selection;
    const int64_t from_ns = sel.HasWindow() ? std::max<int64_t>(sel.from_ns, 0)
                                            : e.warmup_ms * 1000000;
    const int64_t to_ns =
        sel.HasWindow() ? std::min(sel.to_ns, run_end_ns) : run_end_ns;
    std::unique_ptr<ProgressLine> trace_bar;
    if (bar) {
      // One traced re-run per variant, each about as long as a run was.
      const double per_run_s =
          std::chrono::duration<double>(runs_end - runs_start).count() /
          static_cast<double>(std::max<int64_t>(1, nominal_runs));
      trace_bar = std::make_unique<ProgressLine>(&err, "traced re-runs",
                                                 per_run_s * e.variants.size());
    }
    for (size_t v = 0; v < e.variants.size(); ++v) {
      const std::string path =
          JoinPath(out_dir.empty() ? "." : out_dir,
                   absl::StrCat("trace-", e.variants[v].name,
                                traces::TraceFileExtension(
                                    trace_options.format, trace_options.gzip)));
      if (timelines_wanted) {
        timelines.push_back(std::make_unique<traces::CpuTimeline>(
            result->machine->num_cpus(), from_ns, to_ns, kTimelineBins,
            sel.cpus));
        timeline_plots.push_back({e.variants[v].name, timelines.back().get()});
      }
      absl::Status written =
          WriteTraceFile(e, *result, /*point=*/0, static_cast<int>(v),
                         static_cast<int>(trace_iteration), trace_options, path,
                         timelines_wanted ? timelines.back().get() : nullptr);
      if (!written.ok()) {
        err << "schedsim run: " << written.message() << "\n";
        return 1;
      }
      if (trace_bar) {
        trace_bar->Print(absl::StrCat("schedsim run: wrote ", path));
      } else {
        err << "schedsim run: wrote " << path << "\n";
      }
    }
    if (trace_bar) trace_bar->Clear();
  }
  if (flags.Given("plots")) {
    absl::Status drawn =
        WritePlots(e, *result, plots_dir, "gnuplot", timeline_plots);
    if (!drawn.ok()) {
      err << "schedsim run: " << drawn.message() << "\n";
      return 1;
    }
    err << "schedsim run: drew " << plots_dir << "/*.png\n";
  }
  return 0;
}

}  // namespace schedsim::cli
