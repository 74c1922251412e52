// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/slurm_command.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <system_error>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/flags.h"
#include "experiments/experiment.h"
#include "experiments/runner.h"
#include "experiments/shard.h"

namespace schedsim::cli {

using experiments::Experiment;
using experiments::kMaxIterations;
using experiments::kMaxShards;
using experiments::LoadExperimentFile;
namespace {

namespace fs = std::filesystem;

constexpr char kUsage[] =
    "Usage: schedsim slurm FILE --shards=N --out=DIR [--partition=P] "
    "[--time=T]\n"
    "                      [--cpus-per-task=C] [--submit] "
    "[--schedsim=PATH]\n"
    "                      [--iterations=N] [--seed=N] [--job-name=NAME]\n"
    "       schedsim slurm --validate [--tier=quick|full] [--only=REGEX] "
    "--shards=N\n"
    "                      --out=DIR [the same Slurm flags]\n";

// What --help says between the usage and the flags.
constexpr char kAbout[] =
    "Writes Slurm batch scripts that run the experiment FILE (or the "
    "validation\ncatalogue) as a job array of N shards (`schedsim run "
    "FILE --shard=I/N`) and a\nmerge job that runs when all succeeded "
    "(--dependency=afterok), and submits\nthem with --submit "
    "(docs/scale-out.md).\n";

// 'text' for the shell.
std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// Every user string that reaches a script is quoted for the shell, but a
// line break would still end a `#` comment or an #SBATCH line, and other
// control characters have no business in a path: such strings are refused.
// The message names what holds one and where.
std::string ControlCharacterIn(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      return absl::StrCat("a control character (byte 0x",
                          absl::Hex(c, absl::kZeroPad2), " at offset ", i, ")");
    }
  }
  return "";
}

bool WriteFile(const fs::path& path, const std::string& text, bool executable,
               std::ostream& err) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) f << text;
  if (f) f.close();
  if (!f) {
    err << "schedsim slurm: cannot write " << path.string() << "\n";
    return false;
  }
  if (executable) {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec,
                    fs::perm_options::add, ec);
  }
  return true;
}

// Runs `command` through the shell, copying its output to `out`; its exit
// status.
int Shell(const std::string& command, std::ostream& out) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
    out.write(buffer, static_cast<std::streamsize>(n));
  }
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

int SlurmCommand(const std::vector<std::string>& args, std::ostream& out,
                 std::ostream& err) {
  int64_t shards = 0;
  std::string out_dir;
  std::string partition;
  std::string time;
  int64_t cpus = 1;
  bool submit = false;
  std::string schedsim;
  int64_t iterations = 0;
  std::string seed;
  std::string job_name = "schedsim";
  bool validate = false;
  std::string tier;
  std::string only;
  CommandLine cl("slurm", kUsage, kAbout, out, err,
                 /*usage_on_error=*/true);
  FlagSet& flags = cl.flags();
  flags.Int("shards", &shards,
            "the shards, one task of the job array each (--array=0-(N-1))");
  flags.String("out", &out_dir,
               "the directory for the scripts, the shards' partial results "
               "(shards/), the logs (logs/) and the merged result; on a file "
               "system every node shares");
  flags.String("partition", &partition, "sbatch --partition");
  flags.String("time", &time,
               "sbatch --time of each shard and of the merge (MM, MM:SS, "
               "HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS)");
  flags.Int("cpus-per-task", &cpus,
            "sbatch --cpus-per-task; each shard runs with --jobs=C");
  flags.Bool("submit", &submit,
             "submit the array and the merge (afterok) with sbatch");
  flags.String("schedsim", &schedsim,
               "the schedsim binary the jobs run (default: this one; it must "
               "be at that path on every node)");
  flags.Int("iterations", &iterations,
            "passed to `schedsim run` (0 keeps the file's)");
  flags.String("seed", &seed, "passed to `schedsim run` or `validate`");
  flags.String("job-name", &job_name, "the jobs' name prefix");
  flags.Bool("validate", &validate,
             "shard `schedsim validate` instead of an experiment FILE");
  flags.String("tier", &tier, "with --validate: passed to validate");
  flags.String("only", &only, "with --validate: passed to validate");
  std::vector<std::string> positional;
  if (std::optional<int> done =
          cl.Parse(args, &positional, static_cast<size_t>(-1))) {
    return *done;
  }
  auto usage_error = [&](const std::string& message) {
    return cl.UsageError(message);
  };
  if (validate && !positional.empty()) {
    return usage_error(absl::StrCat("--validate takes no FILE, got '",
                                    absl::StrJoin(positional, " "), "'"));
  }
  if (!validate && positional.size() != 1) {
    return usage_error(positional.empty()
                           ? "expected an experiment FILE (or --validate)"
                           : absl::StrCat("expected one experiment FILE, got ",
                                          absl::StrJoin(positional, " ")));
  }
  if (!validate && (flags.Given("tier") || flags.Given("only"))) {
    return usage_error("--tier and --only go with --validate");
  }
  if (validate && flags.Given("iterations")) {
    return usage_error("--iterations goes with an experiment FILE");
  }
  if (!flags.Given("shards") || shards < 1 || shards > kMaxShards) {
    return usage_error(absl::StrCat("--shards must be in 1..", kMaxShards,
                                    flags.Given("shards")
                                        ? absl::StrCat(", got ", shards)
                                        : std::string(" (required)")));
  }
  if (out_dir.empty()) return usage_error("--out=DIR is required");
  const std::regex safe("[A-Za-z0-9_.,:/+@=-]+");
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{
           {"out", out_dir},
           {"partition", partition},
           {"job-name", job_name}}) {
    if (!value.empty() && !std::regex_match(value, safe)) {
      return usage_error(absl::StrCat(
          "--", name,
          " must be letters, digits and _ . , : / + @ = - only (it goes "
          "into #SBATCH lines), got '",
          value, "'"));
    }
  }
  if (!time.empty() &&
      !std::regex_match(time, std::regex("\\d+(:\\d+){0,2}|\\d+-\\d+(:\\d+){0,"
                                         "2}"))) {
    return usage_error(absl::StrCat(
        "--time must be MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS, "
        "got '",
        time, "'"));
  }
  if (cpus < 1 || cpus > 4096) {
    return usage_error(
        absl::StrCat("--cpus-per-task must be in 1..4096, got ", cpus));
  }
  if (iterations < 0 || iterations > kMaxIterations) {
    return usage_error(absl::StrCat("--iterations must be in 0..",
                                    kMaxIterations, ", got ", iterations));
  }
  uint64_t seed_value = 0;
  if (flags.Given("seed") && !absl::SimpleAtoi(seed, &seed_value)) {
    return usage_error(absl::StrCat(
        "--seed expects an integer in 0..2^64-1, got '", seed, "'"));
  }
  if (validate && !tier.empty() && tier != "quick" && tier != "full") {
    return usage_error(
        absl::StrCat("--tier must be quick or full, got '", tier, "'"));
  }

  // Issue 49 #11: nothing a user typed may end a script line.
  for (const auto& [what, value] :
       std::vector<std::pair<std::string, std::string>>{
           {"the experiment FILE", validate ? "" : positional[0]},
           {"--only", only},
           {"--schedsim", schedsim}}) {
    const std::string bad = ControlCharacterIn(value);
    if (!bad.empty()) {
      return usage_error(absl::StrCat(what, " holds ", bad,
                                      ", which would end a line of the batch "
                                      "scripts; got '",
                                      absl::CEscape(value), "'"));
    }
  }

  // The command each shard runs, less --shard and --out.
  std::string command;
  if (validate) {
    command = "validate";
    if (!tier.empty()) absl::StrAppend(&command, " --tier=", tier);
    if (!only.empty()) absl::StrAppend(&command, " --only=", Quote(only));
  } else {
    absl::StatusOr<Experiment> e = LoadExperimentFile(positional[0]);
    if (!e.ok()) {
      err << "schedsim slurm: " << e.status().message() << "\n";
      return 1;
    }
    if (iterations > 0) e->iterations = static_cast<int>(iterations);
    if (shards > NumRuns(*e)) {
      return usage_error(absl::StrCat("--shards=", shards, " is more than the ",
                                      NumRuns(*e), " runs of ", positional[0]));
    }
    command = absl::StrCat("run ", Quote(positional[0]));
    if (iterations > 0) absl::StrAppend(&command, " --iterations=", iterations);
  }
  if (flags.Given("seed")) absl::StrAppend(&command, " --seed=", seed_value);

  std::error_code ec;
  if (schedsim.empty()) {
    schedsim = fs::read_symlink("/proc/self/exe", ec).string();
    if (ec) {
      err << "schedsim slurm: cannot find this program's path (" << ec.message()
          << "); give --schedsim=PATH\n";
      return 1;
    }
  } else if (!fs::exists(schedsim, ec)) {
    return usage_error(absl::StrCat("--schedsim=", schedsim,
                                    ": no such file (the jobs run it)"));
  }
  const fs::path dir = fs::absolute(out_dir, ec);
  const fs::path cwd = fs::current_path(ec);
  // The working directory reaches the scripts too (`cd`, and through an
  // absolute --out the #SBATCH --output lines, which take no quoting).
  if (const std::string bad = ControlCharacterIn(cwd.string()); !bad.empty()) {
    err << "schedsim slurm: the working directory '"
        << absl::CEscape(cwd.string()) << "' holds " << bad
        << ", which would end a line of the batch scripts; run from "
           "another directory\n";
    return 1;
  }
  if (!std::regex_match(dir.string(), safe)) {
    err << "schedsim slurm: --out=" << out_dir << " is '"
        << absl::CEscape(dir.string())
        << "', which an #SBATCH --output line cannot carry (letters, digits "
           "and _ . , : / + @ = - only); give an absolute --out of those\n";
    return 1;
  }
  for (const fs::path& sub : {dir / "shards", dir / "logs"}) {
    fs::create_directories(sub, ec);
    if (ec) {
      err << "schedsim slurm: cannot create " << sub.string() << ": "
          << ec.message() << "\n";
      return 1;
    }
  }
  for (const auto& entry : fs::directory_iterator(dir / "shards", ec)) {
    if (entry.path().filename().string().rfind("shard-", 0) == 0) {
      err << "schedsim slurm: " << (dir / "shards").string()
          << " already holds partial results (" << entry.path().string()
          << "); remove them or choose another --out\n";
      return 1;
    }
  }

  std::string common =
      absl::StrCat("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=", cpus, "\n");
  if (!partition.empty()) {
    absl::StrAppend(&common, "#SBATCH --partition=", partition, "\n");
  }
  if (!time.empty()) absl::StrAppend(&common, "#SBATCH --time=", time, "\n");
  const std::string what =
      validate ? "the validation catalogue" : positional[0];
  const std::string array = absl::StrCat(
      "#!/bin/bash\n# Written by `schedsim slurm` (docs/scale-out.md): task "
      "$SLURM_ARRAY_TASK_ID of\n# this job array runs shard "
      "$SLURM_ARRAY_TASK_ID/",
      shards, " of ", what, ".\n#SBATCH --job-name=", job_name,
      "\n#SBATCH --array=0-", shards - 1, "\n", common,
      "#SBATCH --output=", (dir / "logs").string(), "/shard-%a.log\n",
      "set -euo pipefail\ncd ", Quote(cwd.string()), "\nexec ", Quote(schedsim),
      " ", command, " --shard=\"${SLURM_ARRAY_TASK_ID}/", shards,
      "\" --out=", Quote((dir / "shards").string()), " --jobs=\"${",
      "SLURM_CPUS_PER_TASK:-", cpus, "}\"\n");
  const std::string merge = absl::StrCat(
      "#!/bin/bash\n# Written by `schedsim slurm` (docs/scale-out.md): merges "
      "the ",
      shards, " shards of\n# ", what,
      " once every task of the array succeeded.\n#SBATCH --job-name=", job_name,
      "-merge\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n",
      partition.empty() ? ""
                        : absl::StrCat("#SBATCH --partition=", partition, "\n"),
      time.empty() ? "" : absl::StrCat("#SBATCH --time=", time, "\n"),
      "#SBATCH --output=", (dir / "logs").string(), "/merge.log\n",
      "set -euo pipefail\ncd ", Quote(cwd.string()), "\nexec ", Quote(schedsim),
      " merge ", Quote((dir / "shards").string()),
      " --out=", Quote(dir.string()), "\n");
  const std::string submit_sh = absl::StrCat(
      "#!/bin/sh\n# Written by `schedsim slurm` (docs/scale-out.md): submits "
      "the job array, then\n# the merge, which runs once every shard "
      "succeeded.\nset -eu\narray=$(sbatch --parsable ",
      Quote((dir / "array.sbatch").string()),
      ")\narray=${array%%;*}\nmerge=$(sbatch --parsable "
      "--dependency=afterok:\"$array\" ",
      Quote((dir / "merge.sbatch").string()),
      ")\nmerge=${merge%%;*}\necho \"array job $array, merge job $merge\"\n");
  if (!WriteFile(dir / "array.sbatch", array, true, err) ||
      !WriteFile(dir / "merge.sbatch", merge, true, err) ||
      !WriteFile(dir / "submit.sh", submit_sh, true, err)) {
    return 1;
  }
  out << "schedsim slurm: wrote " << (dir / "array.sbatch").string() << " ("
      << shards << " shards), " << (dir / "merge.sbatch").string() << " and "
      << (dir / "submit.sh").string() << "\n";
  if (!submit) {
    out << "schedsim slurm: submit with: sh "
        << Quote((dir / "submit.sh").string()) << "; the merged result goes to "
        << dir.string() << "\n";
    return 0;
  }
  out << "schedsim slurm: submitted: " << std::flush;
  const int rc =
      Shell(absl::StrCat("/bin/sh ", Quote((dir / "submit.sh").string())), out);
  if (rc != 0) {
    err << "schedsim slurm: sbatch failed (exit " << rc << "; is Slurm "
        << "installed and SLURM_CONF right?)\n";
    return 1;
  }
  out << "schedsim slurm: the merged result goes to " << dir.string()
      << " (logs in " << (dir / "logs").string() << ")\n";
  return 0;
}

}  // namespace schedsim::cli
