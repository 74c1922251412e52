// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// FlagSet: the per-subcommand flag parser of the schedsim CLI. Flags are
// `--name=value` (or `--name value`); booleans may be given as `--name`.
// A number flag with an optional value (OptionalDouble) is `--name` (its
// bare value) or `--name=value`, never `--name value` (the next argument
// stays a positional one):
//
//   double pct = 0;
//   flags.OptionalDouble("robustness", &pct, /*bare_value=*/25, "...");
//   // --robustness -> 25, --robustness=10 -> 10, absent -> 0.
// Unknown flags, missing values and values of the wrong type are errors
// naming the flag and listing what exists.

#ifndef SCHEDSIM_EXPERIMENTS_FLAGS_H_
#define SCHEDSIM_EXPERIMENTS_FLAGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace schedsim::experiments {

class FlagSet {
 public:
  explicit FlagSet(std::string command) : command_(std::move(command)) {}

  // Registers a flag; `out` keeps its value when the flag is absent.
  void String(const std::string& name, std::string* out, std::string help);
  void Int(const std::string& name, int64_t* out, std::string help);
  void Double(const std::string& name, double* out, std::string help);
  void Bool(const std::string& name, bool* out, std::string help);
  // A number whose value is optional: `--name` sets `bare_value`,
  // `--name=V` sets V.
  void OptionalDouble(const std::string& name, double* out, double bare_value,
                      std::string help);

  // Parses `args` (without the program and command names). Arguments that
  // do not start with "--" are appended to `positional`; "--" ends flags.
  absl::Status Parse(const std::vector<std::string>& args,
                     std::vector<std::string>* positional);

  // True if the flag was given on the command line.
  bool Given(const std::string& name) const;

  // One line per flag: "  --name=<type>  help (default: ...)".
  std::string Usage() const;

 private:
  enum class Type { kString, kInt, kDouble, kBool, kOptionalDouble };
  struct Flag {
    std::string name;
    Type type;
    void* out;
    std::string help;
    std::string default_text;
    bool given = false;
    double bare_value = 0;  // kOptionalDouble given without a value
  };
  Flag* Find(const std::string& name);
  absl::Status Set(Flag& flag, const std::string& value);

  std::string command_;
  std::vector<Flag> flags_;
};

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_FLAGS_H_
