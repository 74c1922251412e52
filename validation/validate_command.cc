// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "validation/validate_command.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <system_error>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "cli/flags.h"
#include "cli/progress.h"
#include "experiments/json_util.h"
#include "experiments/runner.h"
#include "experiments/shard.h"
#include "validation/catalogue.h"
#include "validation/scoreboard.h"
#include "validation/seeds.h"
#include "validation/validate.h"

namespace schedsim::validation {
namespace {

constexpr int kUsageError = 2;
constexpr int kMaxJobs = 4096;
constexpr int kMaxSeeds = 16;

constexpr char kUsage[] =
    "Usage: schedsim validate [--tier=quick|full] [--only=REGEX]\n"
    "                         [--format=table|json|markdown] [--jobs=N] "
    "[--out=DIR]\n"
    "                         [--robustness[=PCT]] [--check-floor] "
    "[--floor=FILE]\n"
    "                         [--catalogue=PATH] [--seed=N] [--label=TEXT] "
    "[--list]\n"
    "                         [--shard=I/N] [--seeds=LIST]\n";

// What --help says between the usage and the flags.
constexpr char kAbout[] =
    "Runs every row of the validation catalogue (the published "
    "results of the seed\nreports, docs/validation.md) as an "
    "experiment and prints, per row, the\npublished and simulated "
    "change, the verdict and the ratios, then a summary.\n";

std::string Duration(double s) {
  if (!std::isfinite(s) || s < 0) s = 0;
  const int64_t t = static_cast<int64_t>(std::llround(s));
  if (t >= 3600) {
    return absl::StrFormat("%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60);
  }
  return absl::StrFormat("%d:%02d", t / 60, t % 60);
}

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

// A group key as a file name: letters, digits, '-', '_', '.', '@'.
std::string FileName(const std::string& key) {
  std::string out;
  for (char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                    c == '.' || c == '@';
    out.push_back(ok ? c : '_');
  }
  return out;
}

// Prints the scoreboard in `format` and writes scoreboard.{json,md,txt}
// and the groups' experiment files to `out_dir` (when not empty).
int PrintScoreboard(const std::string& command, const ValidationResult& result,
                    const std::vector<Group>& groups, const std::string& format,
                    const std::string& out_dir, const std::string& label,
                    std::ostream& out, std::ostream& err) {
  const std::string table = ScoreboardTable(result.rows, result.summary);
  const std::string json =
      ScoreboardJson(result.rows, result.summary)
          .dump(2, ' ', false,
                experiments::OrderedJson::error_handler_t::replace) +
      "\n";
  const std::string markdown =
      ScoreboardMarkdown(result.rows, result.summary, label);
  out << (format == "json" ? json : format == "markdown" ? markdown : table);

  if (!out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(
        std::filesystem::path(out_dir) / "experiments", ec);
    if (ec) {
      err << "schedsim " << command << ": cannot create " << out_dir << ": "
          << ec.message() << "\n";
      return 1;
    }
    const std::filesystem::path dir(out_dir);
    if (!WriteFile(command, (dir / "scoreboard.json").string(), json, err) ||
        !WriteFile(command, (dir / "scoreboard.md").string(), markdown, err) ||
        !WriteFile(command, (dir / "scoreboard.txt").string(), table, err)) {
      return 1;
    }
    for (const Group& g : groups) {
      const std::string path =
          (dir / "experiments" / (FileName(g.key) + ".json")).string();
      if (!WriteFile(command, path, g.file.dump(2) + "\n", err)) return 1;
    }
  }
  return 0;
}

// `schedsim merge` of validate shards (experiments/shard.h).
int MergeValidate(const std::vector<experiments::LoadedPartial>& partials,
                  const experiments::MergeOptions& merge, std::ostream& out,
                  std::ostream& err) {
  const std::string format = merge.format.empty() ? "table" : merge.format;
  if (format != "table" && format != "json" && format != "markdown") {
    err << "schedsim merge: --format must be table, json or markdown for "
           "shards of `schedsim validate`, got '"
        << format << "'\n";
    return kUsageError;
  }
  const experiments::LoadedPartial& first = partials[0];
  const experiments::OrderedJson& s = first.settings;
  ValidateOptions options;
  if (!s.is_object() ||
      !s.value("tier", experiments::OrderedJson()).is_string() ||
      !s.value("only", experiments::OrderedJson()).is_string() ||
      !s.value("seed", experiments::OrderedJson()).is_number_unsigned()) {
    err << "schedsim merge: " << first.path
        << ": \"settings\": expected {\"tier\", \"only\", \"seed\"}, got "
        << s.dump() << "\n";
    return 1;
  }
  options.tier = s["tier"].get<std::string>();
  options.only = s["only"].get<std::string>();
  options.seed = s["seed"].get<uint64_t>();
  absl::StatusOr<Catalogue> catalogue =
      ParseCatalogue(first.source_text, first.source_file);
  std::vector<Group> groups;
  absl::StatusOr<ValidationResult> result =
      catalogue.ok()
          ? MergeValidationPartials(*catalogue, options, partials, &groups)
          : absl::StatusOr<ValidationResult>(catalogue.status());
  if (!result.ok()) {
    err << "schedsim merge: " << result.status().message() << "\n";
    return 1;
  }
  const int printed = PrintScoreboard("merge", *result, groups, format,
                                      merge.out_dir, "", out, err);
  if (printed != 0) return printed;
  err << "schedsim merge: summary: " << SummaryLine(result->summary) << "\n";
  return 0;
}

}  // namespace

bool RegisterValidateMerger() {
  return experiments::RegisterPartialMerger("validate", &MergeValidate);
}

int ValidateCommand(const std::vector<std::string>& args, std::ostream& out,
                    std::ostream& err) {
  std::string tier = "quick";
  std::string only;
  std::string format = "table";
  int64_t jobs = 0;
  std::string out_dir;
  std::string robustness;
  bool check_floor = false;
  std::string floor_file;
  std::string catalogue_file;
  std::string seed = "1";
  std::string label;
  bool list = false;
  bool progress_flag = false;
  std::string shard_text;
  std::string seeds_text;
  cli::CommandLine cl("validate", kUsage, kAbout, out, err,
                      /*usage_on_error=*/true);
  cli::FlagSet& flags = cl.flags();
  flags.String("tier", &tier,
               "quick (shorter, fewer iterations; about 6 minutes on 2 "
               "cores) or full (long enough for small CoeffVars)");
  flags.String("only", &only,
               "run only the rows whose id matches this regular expression "
               "(ECMAScript), e.g. '^001/hackbench'");
  flags.String("format", &format, "table, json or markdown");
  flags.Int("jobs", &jobs,
            "runs in parallel; 0 = one per hardware thread (the scoreboard "
            "does not depend on it)");
  flags.String("out", &out_dir,
               "a directory to write scoreboard.{json,md,txt} and the "
               "experiment file of every group (experiments/) to");
  flags.String("robustness", &robustness,
               "also re-run every group with each cost parameter scaled by "
               "-PCT% and +PCT% and report whether the sign of each row's "
               "change holds; --robustness alone means 25");
  flags.Bool("check-floor", &check_floor,
             "exit 1 when the summary falls below the committed floor "
             "(validation/floor.json, or --floor)");
  flags.String("floor", &floor_file,
               "a floor file to check against instead of the built-in one "
               "(implies --check-floor)");
  flags.String("catalogue", &catalogue_file,
               "a catalogue file, or a directory of them (merged in "
               "file-name order), instead of the built-in "
               "validation/catalogue/");
  flags.String("seed", &seed, "the experiment seed of every group");
  flags.String("label", &label,
               "what the scoreboard is made from (commit, date), shown in "
               "the markdown");
  flags.Bool("list", &list, "list the rows and their groups; run nothing");
  flags.Bool("progress", &progress_flag,
             "print a progress line per row on stderr even when it is not a "
             "terminal");
  flags.String("shard", &shard_text,
               "I/N: run only shard I (0..N-1) of N of the selected rows' "
               "runs and write its partial result to shard-I-of-N.json in "
               "--out (or the current directory) for `schedsim merge` "
               "(docs/scale-out.md)");
  flags.String("seeds", &seeds_text,
               "run the tier at each experiment seed of this comma-separated "
               "list (2 to 16 distinct seeds) and report the rows whose "
               "verdict differs between them, with each figure's range "
               "(docs/validation.md, 'Verdicts across seeds')");
  std::vector<std::string> positional;
  // --robustness without a value.
  std::vector<std::string> argv;
  for (const std::string& a : args) {
    argv.push_back(a == "--robustness" ? "--robustness=25" : a);
  }
  if (std::optional<int> done =
          cl.Parse(argv, &positional, static_cast<size_t>(-1))) {
    return *done;
  }
  auto usage_error = [&](const std::string& message) {
    return cl.UsageError(message);
  };
  if (!positional.empty()) {
    return usage_error(
        absl::StrCat("unexpected argument '", positional[0], "'"));
  }
  if (tier != "quick" && tier != "full") {
    return usage_error(
        absl::StrCat("--tier must be quick or full, got '", tier, "'"));
  }
  if (format != "table" && format != "json" && format != "markdown") {
    return usage_error(absl::StrCat(
        "--format must be table, json or markdown, got '", format, "'"));
  }
  if (jobs < 0 || jobs > kMaxJobs) {
    return usage_error(
        absl::StrCat("--jobs must be in 0..", kMaxJobs, ", got ", jobs));
  }
  {
    // More jobs than hardware threads only share the cores: capped, with a
    // note.
    std::string note;
    jobs = experiments::CapJobs(
        static_cast<int>(jobs),
        static_cast<int>(std::thread::hardware_concurrency()), &note);
    if (!note.empty()) err << "schedsim validate: note: " << note << "\n";
  }
  ValidateOptions options;
  options.tier = tier;
  options.only = only;
  options.jobs = static_cast<int>(jobs);
  if (!absl::SimpleAtoi(seed, &options.seed)) {
    return usage_error(absl::StrCat(
        "--seed expects an integer in 0..2^64-1, got '", seed, "'"));
  }
  if (flags.Given("robustness")) {
    double pct = 0;
    if (!absl::SimpleAtod(robustness, &pct) || !(pct > 0 && pct < 100)) {
      return usage_error(
          absl::StrCat("--robustness expects a percentage in (0, 100), got '",
                       robustness, "'"));
    }
    options.robustness_pct = pct;
  }
  if (!floor_file.empty()) check_floor = true;
  std::vector<uint64_t> seeds;
  if (flags.Given("seeds")) {
    for (const char* other : {"seed", "shard", "check-floor", "floor",
                              "robustness", "out", "label", "list"}) {
      if (flags.Given(other)) {
        return usage_error(
            absl::StrCat("--seeds compares whole scoreboards; it does not "
                         "combine with --",
                         other));
      }
    }
    if (format == "markdown") {
      return usage_error("--seeds prints a table or json, not markdown");
    }
    for (absl::string_view part : absl::StrSplit(seeds_text, ',')) {
      uint64_t value = 0;
      if (!absl::SimpleAtoi(part, &value)) {
        return usage_error(
            absl::StrCat("--seeds expects integers in 0..2^64-1 separated by "
                         "commas, got '",
                         seeds_text, "'"));
      }
      if (std::find(seeds.begin(), seeds.end(), value) != seeds.end()) {
        return usage_error(
            absl::StrCat("--seeds: seed ", value, " is given twice"));
      }
      seeds.push_back(value);
    }
    if (seeds.size() < 2 || seeds.size() > kMaxSeeds) {
      return usage_error(absl::StrCat("--seeds expects 2 to ", kMaxSeeds,
                                      " seeds, got ", seeds.size()));
    }
  }
  std::optional<experiments::Shard> shard;
  if (flags.Given("shard")) {
    absl::StatusOr<experiments::Shard> parsed_shard =
        experiments::ParseShard(shard_text);
    if (!parsed_shard.ok()) {
      return usage_error(std::string(parsed_shard.status().message()));
    }
    for (const char* other :
         {"format", "robustness", "check-floor", "floor", "label", "list"}) {
      if (flags.Given(other)) {
        return usage_error(absl::StrCat(
            "--shard writes a partial result; --", other,
            " goes to `schedsim validate` without --shard",
            std::string(other) == "format" ? " (or to `schedsim merge`)" : ""));
      }
    }
    shard = *parsed_shard;
  }

  auto fail = [&](const absl::Status& status) {
    err << "schedsim validate: " << status.message() << "\n";
    return 1;
  };
  // The built-in text, or the file's; `name` is what errors name.
  auto text_of = [](const std::string& file, absl::string_view builtin,
                    const char* builtin_name,
                    std::string* name) -> absl::StatusOr<std::string> {
    *name = file.empty() ? builtin_name : file;
    if (file.empty()) return std::string(builtin);
    return experiments::ReadFileText(file, "validation JSON file");
  };
  // The built-in catalogue, or --catalogue's file or directory.
  absl::StatusOr<Catalogue> catalogue = catalogue_file.empty()
                                            ? BuiltinCatalogue()
                                            : ReadCatalogue(catalogue_file);
  if (!catalogue.ok()) return fail(catalogue.status());
  const std::string catalogue_text = catalogue->text;
  std::string name;
  std::optional<Floor> floor;
  if (check_floor) {
    absl::StatusOr<std::string> text =
        text_of(floor_file, BuiltinFloorText(), "validation/floor.json", &name);
    if (!text.ok()) return fail(text.status());
    absl::StatusOr<Floor> f = ParseFloor(*text, name);
    if (!f.ok()) return fail(f.status());
    if (f->tier != tier) {
      return usage_error(absl::StrCat("the floor is for the ", f->tier,
                                      " tier; add --tier=", f->tier));
    }
    floor = *f;
  }

  absl::StatusOr<std::vector<Group>> groups = BuildGroups(*catalogue, options);
  if (!groups.ok()) return fail(groups.status());
  if (list) {
    // Issue 49 #5: --only filters the rows as it does the groups (a bad
    // expression was refused by BuildGroups above).
    std::optional<std::regex> only_rows;
    if (!options.only.empty()) only_rows.emplace(options.only);
    for (const Row& row : catalogue->rows) {
      if (only_rows && !std::regex_search(row.id, *only_rows)) continue;
      // The kernel the row's report ran (its template's "kernel").
      std::string kernel = row.kernel.empty() ? "-" : row.kernel;
      auto t = catalogue->experiments.find(row.experiment);
      if (t != catalogue->experiments.end() &&
          t->second.spec.contains("kernel") &&
          t->second.spec["kernel"].is_string()) {
        kernel = t->second.spec["kernel"].get<std::string>();
      }
      out << absl::StrFormat(
          "%-42s %-11s %-6s %s%s\n", row.id,
          RowClassName(Classify(row.published)), kernel,
          row.not_expressible.empty() ? row.experiment : "not expressible",
          row.quick ? "" : " (full tier only)");
    }
    for (const Group& g : *groups) {
      out << absl::StrFormat("group %s: %d rows, %d runs\n", g.key,
                             g.rows.size(), g.runs);
    }
    // The model's to-do list: the rows it cannot express, by reason.
    out << NotExpressibleList(*catalogue, only_rows ? &*only_rows : nullptr);
    return 0;
  }
  if (shard) {
    int runs = 0;
    absl::StatusOr<experiments::OrderedJson> partial =
        RunValidationShard(*catalogue, catalogue_text, options, *shard, &runs);
    absl::StatusOr<std::string> path =
        partial.ok() ? experiments::WritePartial(*partial, *shard, out_dir)
                     : absl::StatusOr<std::string>(partial.status());
    if (!path.ok()) return fail(path.status());
    err << "schedsim validate: wrote " << *path << " (shard " << shard->Text()
        << ", " << runs << " runs)\n";
    return 0;
  }
  const auto started = std::chrono::steady_clock::now();
  // "took 5 min 40 s (estimated 6 min 2 s, -6%)", for the last line.
  auto took = [&started](double estimate_s) {
    const double s = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - started)
                         .count();
    return absl::StrFormat("took %s (estimated %s, %+.0f%%)", Duration(s),
                           Duration(estimate_s),
                           estimate_s > 0 ? 100.0 * (estimate_s - s) / s : 0.0);
  };
  Estimate estimate =
      EstimateCost(*groups, options.jobs, options.robustness_pct);
  const int rounds = seeds.empty() ? 1 : static_cast<int>(seeds.size());
  estimate.runs *= rounds;
  estimate.sim_cpu_s *= rounds;
  estimate.wall_s *= rounds;
  estimate.wall_max_s *= rounds;
  // The rows that run and the not expressible ones (BuildGroups checked
  // the regular expression).
  int rows_total = 0;
  for (const Group& g : *groups) rows_total += static_cast<int>(g.rows.size());
  const std::regex only_re(options.only.empty() ? "." : options.only);
  for (const Row& row : catalogue->rows) {
    if (!row.not_expressible.empty() && InTier(row, tier) &&
        std::regex_search(row.id, only_re)) {
      ++rows_total;
    }
  }
  err << absl::StrFormat(
      "schedsim validate: %s tier: %d rows, %d experiments, %d runs, %.0f "
      "simulated CPU-seconds; estimated %s on %d job%s%s%s\n",
      tier, rows_total, groups->size(), estimate.runs, estimate.sim_cpu_s,
      Duration(estimate.wall_s), estimate.jobs, estimate.jobs == 1 ? "" : "s",
      estimate.wall_max_s > 1.1 * estimate.wall_s
          ? absl::StrCat(" (up to ", Duration(estimate.wall_max_s),
                         " if no run settles before its maximum)")
          : std::string(),
      options.robustness_pct > 0 ? " (robustness re-runs included)"
      : rounds > 1               ? absl::StrCat(" (", rounds, " seeds)")
                                 : std::string());
  rows_total *= rounds;
  const bool tty = &err == &std::cerr && isatty(STDERR_FILENO);
  const bool show_progress = progress_flag || tty;
  int rows_done = 0;
  // On a terminal, a progress line with the ETA, redrawn every second and
  // after every run (cli/progress.h), under the rows' lines.
  std::unique_ptr<cli::ProgressLine> bar;
  if (tty) {
    bar = std::make_unique<cli::ProgressLine>(&err, "runs", estimate.wall_s);
  }
  const int round_runs = estimate.runs / rounds;
  int round_base = 0;  // runs of the seeds already done
  if (show_progress) {
    options.progress = [&](const std::vector<ScoredRow>& rows, int runs_done,
                           int runs_total, double eta_s) {
      for (const ScoredRow& s : rows) {
        ++rows_done;
        const std::string line = absl::StrFormat(
            "[%3d/%d] %s  (runs %d/%d, ETA %s)", rows_done, rows_total,
            ProgressLine(s), runs_done, runs_total, Duration(eta_s));
        if (bar) {
          bar->Print(line);
        } else {
          err << line << "\n";
        }
      }
      if (bar) {
        bar->Update(round_base + runs_done, estimate.runs);
      } else {
        err << std::flush;
      }
    };
  }
  if (bar) {
    cli::ProgressLine* b = bar.get();
    const int all = estimate.runs;
    options.run_progress = [b, all, &round_base](int done, int) {
      b->Update(round_base + done, all);
    };
  }
  auto clear_bar = [&] {
    if (bar) bar->Clear();
  };
  if (!seeds.empty()) {
    std::vector<SeedScoreboard> runs;
    for (uint64_t s : seeds) {
      options.seed = s;
      absl::StatusOr<ValidationResult> r = RunValidation(*catalogue, options);
      round_base += round_runs;
      if (!r.ok()) {
        clear_bar();
        return fail(r.status());
      }
      if (bar) bar->Clear();
      err << "schedsim validate: seed " << s << ": " << SummaryLine(r->summary)
          << "\n";
      runs.push_back({s, std::move(r->rows), r->summary});
    }
    clear_bar();
    absl::StatusOr<AcrossSeeds> across = CompareSeeds(runs);
    if (!across.ok()) return fail(across.status());
    if (format == "json") {
      out << AcrossSeedsJson(runs, *across)
                 .dump(2, ' ', false,
                       experiments::OrderedJson::error_handler_t::replace)
          << "\n";
    } else {
      out << AcrossSeedsTable(runs, *across);
    }
    err << "schedsim validate: " << AcrossSeedsLine(runs, *across) << "\n";
    err << "schedsim validate: " << took(estimate.wall_s) << "\n";
    return 0;
  }
  absl::StatusOr<ValidationResult> result = RunValidation(*catalogue, options);
  clear_bar();
  if (!result.ok()) return fail(result.status());
  const int printed = PrintScoreboard("validate", *result, *groups, format,
                                      out_dir, label, out, err);
  if (printed != 0) return printed;
  err << "schedsim validate: summary: " << SummaryLine(result->summary) << "\n";
  if (result->summary.mechanism.rows > 0) {
    err << "schedsim validate: summary: " << MechanismLine(result->summary)
        << "\n";
  }
  err << "schedsim validate: " << took(estimate.wall_s) << "\n";
  if (floor) {
    // Like with like: the floor's own sources' rows only.
    absl::Status ok = CheckFloor(FloorSummary(result->rows, *floor), *floor);
    if (!ok.ok()) {
      err << "schedsim validate: " << ok.message() << "\n";
      return 1;
    }
    err << "schedsim validate: at or above the floor\n";
  }
  return 0;
}

}  // namespace schedsim::validation
