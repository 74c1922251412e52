// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Scale-out (docs/scale-out.md): a shard is a deterministic 1/N of the runs
// of an experiment (`schedsim run FILE --shard=I/N`) or of the validation
// catalogue (`schedsim validate --shard=I/N`); it writes a partial result,
// and `schedsim merge` puts the partial results of all N shards back into
// the result the unsharded command gives.
//
//   absl::StatusOr<Shard> s = ParseShard("2/4");       // index 2 of 0..3
//   std::vector<std::vector<int>> runs = AssignShards(costs, s->count);
//   // runs[s->index]: the run numbers shard 2 runs, ascending.
//
// Shards are numbered from 0, as Slurm numbers the tasks of a job array
// submitted with --array=0-(N-1) ($SLURM_ARRAY_TASK_ID). The assignment is
// greedy longest-processing-time: runs by estimated cost, largest first
// (ties: the lower run number), each to the shard with the least cost so
// far (ties: the lower shard). It depends only on the costs and N.
//
// A partial result is one JSON file, shard-I-of-N.json:
//
//   {"schedsim_partial": 1, "kind": "run" or "validate",
//    "schedsim": {"version", "commit"},       the build; merge wants one
//    "shard": {"index": I, "count": N},
//    "source": {"file", "hash", "text"},      the experiment file or the
//                                             catalogue, as given
//    "settings": {...},                       what else changes the runs
//    ...the kind's results}
//
// Each run's result (RunResultJson) keeps every number the statistics and
// reports are computed from, exactly (doubles round-trip; NaN and
// infinities are the strings "nan", "inf", "-inf").

#ifndef SCHEDSIM_EXPERIMENTS_SHARD_H_
#define SCHEDSIM_EXPERIMENTS_SHARD_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "experiments/json_util.h"
#include "experiments/runner.h"

namespace schedsim::experiments {

inline constexpr int kMaxShards = 100000;
// 2: with "digest", the FNV-1a 64 of the rest of the file (issue 49 #13).
inline constexpr int kPartialFormat = 2;

struct Shard {
  int index = 0;  // 0..count-1
  int count = 1;
  // "2/4".
  std::string Text() const;
  // "shard-2-of-4.json".
  std::string FileName() const;
};

// "I/N" with N in 1..kMaxShards and I in 0..N-1; the error names `flag`
// ("--shard") and says what is expected.
absl::StatusOr<Shard> ParseShard(const std::string& text,
                                 const std::string& flag = "--shard");

// The run numbers (indices of `costs`) of each of `count` shards,
// ascending; every run is in exactly one shard (see above).
std::vector<std::vector<int>> AssignShards(const std::vector<double>& costs,
                                           int count);

// "fnv1a64:0123456789abcdef": FNV-1a (64 bits) of `text`.
std::string ContentHash(absl::string_view text);

// A double as JSON that reads back exactly; ReadExactNumber reverses it
// (errors name `where`).
OrderedJson ExactNumber(double value);
absl::StatusOr<double> ReadExactNumber(const OrderedJson& j,
                                       const std::string& where);

// One run's result, without task names (merge never traces), added to
// `j` (an object).
OrderedJson RunResultJson(const RunResult& run,
                          OrderedJson j = OrderedJson::object());
absl::StatusOr<RunResult> ParseRunResult(const OrderedJson& j,
                                         const std::string& where);

// The fields every partial result starts with.
OrderedJson PartialHeader(const std::string& kind, const Shard& shard,
                          const std::string& source_file,
                          const std::string& source_text,
                          const OrderedJson& settings);

// ContentHash of `partial` without its "digest" key, as written by
// WritePartial and checked by LoadPartials.
std::string PartialDigest(const OrderedJson& partial);

// Writes `partial` to DIR/shard-I-of-N.json (DIR created if missing; ""
// is the current directory) and returns the path.
absl::StatusOr<std::string> WritePartial(const OrderedJson& partial,
                                         const Shard& shard,
                                         const std::string& dir);

// A partial result read back by merge.
struct LoadedPartial {
  std::string path;  // the file, for messages
  std::string kind;
  Shard shard;
  std::string source_file;
  std::string source_text;
  OrderedJson settings;
  OrderedJson json;  // the whole file
};

// Reads the partial results in `paths` (files, or directories whose
// shard-*-of-*.json files are read) and checks that they are one complete
// set: the same kind, build, source (by hash), settings and shard count,
// every shard 0..N-1 exactly once. Errors name the files: "missing shards
// 2/3 in DIR", "shard 1/3 twice: A and B", "A and B are shards of
// different experiment files (...)". The result is in shard order.
absl::StatusOr<std::vector<LoadedPartial>> LoadPartials(
    const std::vector<std::string>& paths);

// What `schedsim merge` does with one kind of partial result: print the
// merged result in `format` to `out` and write it to `out_dir` if not
// empty. Returns the exit code.
struct MergeOptions {
  std::string format;  // "" = the kind's default
  std::string out_dir;
};
using PartialMerger = int (*)(const std::vector<LoadedPartial>& partials,
                              const MergeOptions& options, std::ostream& out,
                              std::ostream& err);
// Registers the merger of partial results of `kind` made by a package
// above experiments/ (validation/'s "validate"); returns true, to
// initialise a static. FindPartialMerger returns nullptr for an unknown
// kind.
bool RegisterPartialMerger(const std::string& kind, PartialMerger merger);
PartialMerger FindPartialMerger(const std::string& kind);

// The run results in `sources` (each a file's path and a JSON array of
// RunResultJson objects with their "run" number) in run order: every run
// 0..total-1 exactly once, else an error naming the file and `what`.
struct RunSource {
  std::string path;
  const OrderedJson* runs = nullptr;
};
absl::StatusOr<std::vector<RunResult>> CollectRuns(
    const std::vector<RunSource>& sources, int64_t total,
    const std::string& what);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_SHARD_H_
