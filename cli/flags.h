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

#ifndef SCHEDSIM_CLI_FLAGS_H_
#define SCHEDSIM_CLI_FLAGS_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace schedsim::cli {

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

// The steps every command shares before its own work: its flags with
// --help, parsing, the --help text and the form of a usage error
// ("schedsim NAME: MESSAGE", then the usage line when the command has
// one that long, exit code 2). A command declares its flags on flags(),
// calls Parse, and returns what Parse returns when it returns a value:
//
//   CommandLine cl("kernels", "Usage: schedsim kernels [--format=...]\n",
//                  "", out, err);
//   cl.flags().String("format", &format, "text or json");
//   std::vector<std::string> positional;
//   if (std::optional<int> done = cl.Parse(args, &positional)) return *done;
//   if (auto bad = cl.CheckChoice("format", format, {"text", "json"}))
//     return *bad;
class CommandLine {
 public:
  // `usage`: the usage line(s), ending in a newline. `about`: what --help
  // prints between the usage and the flags (may be empty).
  // `usage_on_error`: a usage error also prints the usage lines.
  CommandLine(std::string name, std::string usage, std::string about,
              std::ostream& out, std::ostream& err,
              bool usage_on_error = false);

  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  FlagSet& flags() { return flags_; }

  // Parses `args`: with --help prints the help and returns 0; on a parse
  // error, or more than `max_positional` positional arguments ("unexpected
  // argument 'X'"), prints the usage error and returns 2; otherwise
  // returns nullopt (go on). `extra` is an earlier error of the command's
  // own argument handling (e.g. --param extraction), reported after --help
  // is honoured.
  std::optional<int> Parse(const std::vector<std::string>& args,
                           std::vector<std::string>* positional,
                           size_t max_positional = 0,
                           const absl::Status& extra = absl::OkStatus());

  // Prints the usage error and returns 2.
  int UsageError(absl::string_view message) const;

  // nullopt when `value` is one of `choices`; else the usage error
  // "--FLAG must be a, b or c, got 'VALUE'" (returns 2).
  std::optional<int> CheckChoice(absl::string_view flag,
                                 const std::string& value,
                                 const std::vector<std::string>& choices) const;

 private:
  std::string name_;
  std::string usage_;
  std::string about_;
  std::ostream& out_;
  std::ostream& err_;
  bool usage_on_error_;
  bool help_ = false;
  FlagSet flags_;
};

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_FLAGS_H_
