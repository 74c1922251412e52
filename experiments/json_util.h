// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Reading JSON input files with error messages that say where and what:
// the shared helpers of the scenario (scenario.h) and experiment
// (experiment.h) parsers.
//
//   JsonFileReader r("exp.json");
//   nlohmann::ordered_json root;
//   SCHEDSIM_RETURN_IF_ERROR(r.ParseText(text, &root));
//   SCHEDSIM_RETURN_IF_ERROR(r.CheckKeys(root, "", {"machine", ...},
//                                        "an experiment"));
//   SCHEDSIM_ASSIGN_OR_RETURN(int64_t n,
//                             r.Int(root["iterations"], "iterations", 1, 100));
//
// Every error is an InvalidArgument "FILE: PATH: MESSAGE", PATH being the
// JSON path of the offending value (`variants[1].cpufreq.params`), or
// "FILE: MESSAGE" for the top level. Messages say what was expected and
// show (a shortened form of) what was found; unknown keys and names list the
// known ones, with a "did you mean" for a likely typo. Syntax errors give the
// line, column and byte offset; a key given twice in one object is an error
// (nlohmann would silently keep the last).

#ifndef SCHEDSIM_EXPERIMENTS_JSON_UTIL_H_
#define SCHEDSIM_EXPERIMENTS_JSON_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/names.h"
#include "experiments/machine_source.h"
#include "nlohmann/json.hpp"
#include "platform/registry.h"
#include "sim/config.h"
#include "sim/kernels.h"

namespace schedsim::experiments {

// Ordered: messages list names, and outputs keep keys, in file order.
using OrderedJson = nlohmann::ordered_json;

// "path.key" ("key" at the top level) and "path[index]".
std::string JsonField(const std::string& path, const std::string& key);
std::string JsonElement(const std::string& path, size_t index);

// A JSON value as messages show it: its type and (shortened) text, e.g.
// `string "abc"`, `an object {"a":1}`, `null`.
std::string ShowJson(const OrderedJson& j);

// "'a', 'b', 'c'".
std::string QuotedNames(const std::vector<std::string>& names);

// " (did you mean 'x'?)" when one of `known` is a likely typo of `got`
// (a small edit distance); "" otherwise.
using base::DidYouMean;

// The whole file; InvalidArgument "PATH: cannot open: ..." when it cannot
// be read.
absl::StatusOr<std::string> ReadFileText(const std::string& path,
                                         absl::string_view what = "JSON file");

// The `config` keys: every SimConfig field, by its C++ name, in
// declaration order (scenario_test checks them against sim/config.h).
std::vector<std::string> SimConfigKeys();

// Typed access to the values of one JSON file, with errors naming the file
// and the JSON path.
class JsonFileReader {
 public:
  explicit JsonFileReader(std::string filename) : file_(std::move(filename)) {}

  const std::string& filename() const { return file_; }

  // InvalidArgument "FILE: PATH: MESSAGE" ("FILE: MESSAGE" when `path` is
  // empty).
  absl::Status Error(const std::string& path, const std::string& message) const;

  // Parses strict JSON; syntax errors and duplicate keys are errors.
  absl::Status ParseText(const std::string& text, OrderedJson* root) const;

  // Type checks; `what` describes the expected value.
  absl::Status ExpectObject(const OrderedJson& j, const std::string& path,
                            const std::string& what) const;
  absl::Status ExpectArray(const OrderedJson& j, const std::string& path,
                           const std::string& what) const;
  // Every key of `object` is one of `known`; the message lists them.
  absl::Status CheckKeys(const OrderedJson& object, const std::string& path,
                         const std::vector<std::string>& known,
                         const std::string& what) const;

  // An integer in [lo, hi]; whole-valued numbers such as 1e6 are accepted.
  absl::StatusOr<int64_t> Int(const OrderedJson& j, const std::string& path,
                              int64_t lo, int64_t hi) const;
  // A finite number in [lo, hi].
  absl::StatusOr<double> Number(const OrderedJson& j, const std::string& path,
                                double lo, double hi) const;
  absl::StatusOr<std::string> String(const OrderedJson& j,
                                     const std::string& path) const;
  // A non-empty string; `what` names it ("a variant name").
  absl::StatusOr<std::string> Name(const OrderedJson& j,
                                   const std::string& path,
                                   const std::string& what) const;
  absl::StatusOr<bool> Bool(const OrderedJson& j,
                            const std::string& path) const;
  // A random seed, an integer in 0..2^64-1.
  absl::StatusOr<uint64_t> Seed(const OrderedJson& j,
                                const std::string& path) const;

  // The machine keys of `root`: exactly one of "machine" (a preset name),
  // "sysfs" and "hwloc" (paths, relative ones taken from the file's
  // directory), and with "sysfs" or "hwloc" an optional "power_model" (a
  // preset name).
  absl::StatusOr<MachineSource> Machine(const OrderedJson& root) const;

  // A kernel version string ("6.12"; sim/kernels.h).
  absl::StatusOr<sim::KernelVersion> Kernel(const OrderedJson& j,
                                            const std::string& path) const;

  // Sets the SimConfig fields named in the object `j` (at `path`).
  absl::Status ApplySimConfig(const OrderedJson& j, const std::string& path,
                              sim::SimConfig* config) const;

 private:
  std::string file_;
};

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_JSON_UTIL_H_
