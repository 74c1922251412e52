// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/merge_command.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "cli/flags.h"
#include "cli/run_command.h"
#include "experiments/run_shard.h"
#include "experiments/shard.h"

namespace schedsim::cli {

using experiments::FindPartialMerger;
using experiments::LoadedPartial;
using experiments::LoadPartials;
using experiments::MergedRun;
using experiments::MergeOptions;
using experiments::MergeRunPartials;
using experiments::PartialMerger;
using experiments::RegisterPartialMerger;
namespace {

constexpr int kUsageError = 2;

constexpr char kUsage[] =
    "Usage: schedsim merge DIR... [--format=FORMAT] [--out=DIR]\n";

// What --help says between the usage and the flags.
constexpr char kAbout[] =
    "Merges the partial results (shard-I-of-N.json) that `schedsim "
    "run FILE --shard=I/N`\nor `schedsim validate --shard=I/N` wrote "
    "into DIR (or given as files) into the\nresult the unsharded "
    "command gives (docs/scale-out.md). Every shard 0..N-1 must\nbe "
    "there once, all of one file, seed and schedsim build.\n";

// The "run" kind: the experiment's result, as `schedsim run` prints it.
int MergeRun(const std::vector<LoadedPartial>& partials,
             const MergeOptions& options, std::ostream& out,
             std::ostream& err) {
  const std::string format = options.format.empty() ? "table" : options.format;
  if (format != "table" && format != "json" && format != "csv") {
    err << "schedsim merge: --format must be table, json or csv for shards "
           "of `schedsim run`, got '"
        << format << "'\n"
        << kUsage;
    return kUsageError;
  }
  absl::StatusOr<MergedRun> merged = MergeRunPartials(partials);
  if (!merged.ok()) {
    err << "schedsim merge: " << merged.status().message() << "\n";
    return 1;
  }
  return PrintRunResult("merge", merged->experiment, merged->result,
                        /*verdicts=*/nullptr, /*robustness_pct=*/0, format,
                        options.out_dir, out, err);
}

const bool kRunRegistered = RegisterPartialMerger("run", &MergeRun);

}  // namespace

int MergeCommand(const std::vector<std::string>& args, std::ostream& out,
                 std::ostream& err) {
  MergeOptions options;
  CommandLine cl("merge", kUsage, kAbout, out, err,
                 /*usage_on_error=*/true);
  FlagSet& flags = cl.flags();
  flags.String("format", &options.format,
               "what to print: as the sharded command's --format (run: "
               "table, json or csv; validate: table, json or markdown); "
               "default table");
  flags.String("out", &options.out_dir,
               "a directory to write the merged result to, as the sharded "
               "command's --out does; created if missing");
  std::vector<std::string> positional;
  if (std::optional<int> done =
          cl.Parse(args, &positional, static_cast<size_t>(-1))) {
    return *done;
  }
  auto usage_error = [&](const std::string& message) {
    return cl.UsageError(message);
  };
  if (positional.empty()) {
    return usage_error(
        "expected one or more directories (or files) of partial results");
  }
  absl::StatusOr<std::vector<LoadedPartial>> partials =
      LoadPartials(positional);
  if (!partials.ok()) {
    err << "schedsim merge: " << partials.status().message() << "\n";
    return 1;
  }
  const std::string& kind = (*partials)[0].kind;
  PartialMerger merger = FindPartialMerger(kind);
  if (merger == nullptr) {
    err << "schedsim merge: " << (*partials)[0].path
        << ": partial results of `schedsim " << kind
        << "`, which this schedsim cannot merge (it merges run"
        << (FindPartialMerger("validate") ? " and validate" : "") << ")\n";
    return 1;
  }
  return merger(*partials, options, out, err);
}

}  // namespace schedsim::cli
