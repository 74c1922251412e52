// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/flags.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace schedsim::cli {

void FlagSet::String(const std::string& name, std::string* out,
                     std::string help) {
  flags_.push_back({name, Type::kString, out, std::move(help), *out});
}

void FlagSet::Int(const std::string& name, int64_t* out, std::string help) {
  flags_.push_back(
      {name, Type::kInt, out, std::move(help), absl::StrCat(*out)});
}

void FlagSet::Double(const std::string& name, double* out, std::string help) {
  flags_.push_back(
      {name, Type::kDouble, out, std::move(help), absl::StrCat(*out)});
}

void FlagSet::Bool(const std::string& name, bool* out, std::string help) {
  flags_.push_back(
      {name, Type::kBool, out, std::move(help), *out ? "true" : "false"});
}

void FlagSet::OptionalDouble(const std::string& name, double* out,
                             double bare_value, std::string help) {
  flags_.push_back(
      {name, Type::kOptionalDouble, out, std::move(help), absl::StrCat(*out)});
  flags_.back().bare_value = bare_value;
}

FlagSet::Flag* FlagSet::Find(const std::string& name) {
  for (Flag& f : flags_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool FlagSet::Given(const std::string& name) const {
  for (const Flag& f : flags_) {
    if (f.name == name) return f.given;
  }
  return false;
}

absl::Status FlagSet::Set(Flag& flag, const std::string& value) {
  flag.given = true;
  switch (flag.type) {
    case Type::kString:
      *static_cast<std::string*>(flag.out) = value;
      return absl::OkStatus();
    case Type::kInt:
      if (!absl::SimpleAtoi(value, static_cast<int64_t*>(flag.out))) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--", flag.name, " expects an integer, got '", value, "'"));
      }
      return absl::OkStatus();
    case Type::kDouble:
    case Type::kOptionalDouble:
      if (!absl::SimpleAtod(value, static_cast<double*>(flag.out))) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--", flag.name, " expects a number, got '", value, "'"));
      }
      return absl::OkStatus();
    case Type::kBool:
      if (!absl::SimpleAtob(value, static_cast<bool*>(flag.out))) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--", flag.name, " expects true or false, got '", value, "'"));
      }
      return absl::OkStatus();
  }
  return absl::InternalError("unreachable");
}

absl::Status FlagSet::Parse(const std::vector<std::string>& args,
                            std::vector<std::string>* positional) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      positional->insert(positional->end(), args.begin() + i + 1, args.end());
      break;
    }
    if (arg.rfind("--", 0) != 0) {
      positional->push_back(arg);
      continue;
    }
    std::string body = arg.substr(2);
    size_t eq = body.find('=');
    std::string name = body.substr(0, eq);
    Flag* flag = Find(name);
    if (flag == nullptr) {
      std::vector<std::string> known;
      for (const Flag& f : flags_) known.push_back("--" + f.name);
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag --", name, " for 'schedsim ", command_,
                       "'; known flags: ", absl::StrJoin(known, ", ")));
    }
    if (eq != std::string::npos) {
      absl::Status s = Set(*flag, body.substr(eq + 1));
      if (!s.ok()) return s;
    } else if (flag->type == Type::kBool) {
      absl::Status s = Set(*flag, "true");
      if (!s.ok()) return s;
    } else if (flag->type == Type::kOptionalDouble) {
      flag->given = true;
      *static_cast<double*>(flag->out) = flag->bare_value;
    } else if (i + 1 < args.size()) {
      absl::Status s = Set(*flag, args[++i]);
      if (!s.ok()) return s;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("--", name, " needs a value"));
    }
  }
  return absl::OkStatus();
}

std::string FlagSet::Usage() const {
  std::string out;
  for (const Flag& f : flags_) {
    const char* type = f.type == Type::kString   ? "=<string>"
                       : f.type == Type::kInt    ? "=<int>"
                       : f.type == Type::kDouble ? "=<number>"
                       : f.type == Type::kBool   ? "=<bool>"
                                                 : "[=<number>]";
    absl::StrAppend(&out, "  --", f.name, type, "\n      ", f.help);
    if (f.type == Type::kOptionalDouble) {
      absl::StrAppend(&out, " (--", f.name,
                      " alone: ", absl::StrCat(f.bare_value), ")");
    }
    if (!f.default_text.empty()) {
      absl::StrAppend(&out, " (default: ", f.default_text, ")");
    }
    absl::StrAppend(&out, "\n");
  }
  return out;
}

CommandLine::CommandLine(std::string name, std::string usage, std::string about,
                         std::ostream& out, std::ostream& err,
                         bool usage_on_error)
    : name_(std::move(name)),
      usage_(std::move(usage)),
      about_(std::move(about)),
      out_(out),
      err_(err),
      usage_on_error_(usage_on_error),
      flags_(name_) {}

std::optional<int> CommandLine::Parse(const std::vector<std::string>& args,
                                      std::vector<std::string>* positional,
                                      size_t max_positional,
                                      const absl::Status& extra) {
  // Declared here, after the command's own flags: --help lists last.
  flags_.Bool("help", &help_, "show this help");
  const absl::Status parsed = flags_.Parse(args, positional);
  if (help_) {
    out_ << usage_ << "\n";
    if (!about_.empty()) out_ << about_ << "\n";
    out_ << flags_.Usage();
    return 0;
  }
  if (!extra.ok()) return UsageError(extra.message());
  if (!parsed.ok()) return UsageError(parsed.message());
  if (positional->size() > max_positional) {
    return UsageError(absl::StrCat("unexpected argument '",
                                   (*positional)[max_positional], "'"));
  }
  return std::nullopt;
}

int CommandLine::UsageError(absl::string_view message) const {
  err_ << "schedsim " << name_ << ": " << message << "\n";
  if (usage_on_error_) err_ << usage_;
  return 2;
}

std::optional<int> CommandLine::CheckChoice(
    absl::string_view flag, const std::string& value,
    const std::vector<std::string>& choices) const {
  for (const std::string& c : choices) {
    if (value == c) return std::nullopt;
  }
  std::string list;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) list += i + 1 == choices.size() ? " or " : ", ";
    list += choices[i];
  }
  return UsageError(
      absl::StrCat("--", flag, " must be ", list, ", got '", value, "'"));
}

}  // namespace schedsim::cli
