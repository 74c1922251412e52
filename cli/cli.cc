// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/cli.h"

#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/version.h"
#include "cli/config_command.h"
#include "cli/flags.h"
#include "cli/govd_command.h"
#include "cli/kernels_command.h"
#include "cli/merge_command.h"
#include "cli/policies_command.h"
#include "cli/run_command.h"
#include "cli/scx_command.h"
#include "cli/shadow_command.h"
#include "cli/sim_report.h"
#include "cli/slurm_command.h"
#include "cli/topology_report.h"
#include "experiments/experiment.h"
#include "experiments/machine_source.h"
#include "experiments/scenario.h"
#include "nlohmann/json.hpp"
#include "topology/presets.h"
#include "topology/sched_domains.h"

namespace schedsim::cli {

using experiments::CheckCost;
using experiments::CostEstimate;
using experiments::EstimateCost;
using experiments::Experiment;
using experiments::kMaxScenarioDurationMs;
using experiments::LoadMachine;
using experiments::LoadScenarioFile;
using experiments::MachineSource;
using experiments::RunScenario;
using experiments::Scenario;
using experiments::ScenarioRun;
namespace {

constexpr int kUsageError = 2;

struct ExtraCommand {
  std::string summary;
  CommandFunction run;
};

std::map<std::string, ExtraCommand>& ExtraCommands() {
  static auto* commands = new std::map<std::string, ExtraCommand>();
  return *commands;
}

std::string ExtraUsage() {
  std::string text;
  for (const auto& [name, command] : ExtraCommands()) {
    absl::StrAppend(&text, "  ", name,
                    std::string(name.size() < 10 ? 11 - name.size() : 1, ' '),
                    command.summary, "\n");
  }
  return text;
}

std::string MainUsage() {
  return absl::StrCat(
      "schedsim: simulate a Linux-like scheduler with CPU frequency and idle "
      "states.\n\n"
      "Usage: schedsim COMMAND [FLAGS]\n\n"
      "Commands:\n"
      "  topology   show a machine: CPUs, caches, NUMA, idle states, "
      "frequency,\n"
      "             scheduling domains\n"
      "  simulate   run a scenario file (a machine, policies and task "
      "programs)\n"
      "             and print the run's metrics\n"
      "  run        run an experiment file (variants x sweep x iterations) "
      "and\n"
      "             compare the variants, mmtests-style "
      "(docs/experiments.md)\n"
      "  merge      merge the partial results of `run --shard` or `validate\n"
      "             --shard` into the whole result (docs/scale-out.md)\n"
      "  slurm      write (and --submit) a Slurm job array that runs an\n"
      "             experiment's shards and a job that merges them\n"
      "  govd       run a frequency governor on this machine's cpufreq "
      "policies\n"
      "             (dry run unless --apply; docs/hardware.md)\n"
      "  scx        a sched_ext scheduler whose wake-up placement is a "
      "placement\n"
      "             policy (Linux 6.12+, root; docs/hardware.md)\n"
      "  shadow     evaluate a cpuidle governor or placement policy against "
      "a\n             recorded ftrace trace (docs/traces-shadow.md)\n"
      "  policies   list the cpufreq, cpuidle and placement policies with "
      "their\n"
      "             parameters and defaults\n"
      "  kernels    the kernel versions and the version-dependent features "
      "the\n"
      "             model has (docs/model.md, \"Kernel versions\")\n"
      "  config     every model parameter: unit, default, range, status, "
      "source\n"
      "             (--kernel=V: the values that kernel sets)\n",
      ExtraUsage(),
      "  version    the version and the commit it was built from (also "
      "--version)\n"
      "  help       this text; `schedsim COMMAND --help` for a command's "
      "flags\n\n"
      "Built-in machines: ",
      absl::StrJoin(topology::PresetNames(), ", "), "\n");
}

int TopologyCommand(const std::vector<std::string>& args, std::ostream& out,
                    std::ostream& err) {
  MachineSource source;
  std::string format = "text";
  int64_t cpu = 0;
  bool list = false;
  CommandLine cl("topology",
                 "Usage: schedsim topology (--machine=NAME | --sysfs=DIR | "
                 "--hwloc=FILE) [--power-model=NAME] [--format=text|json]\n"
                 "       schedsim topology --list [--format=text|json]\n",
                 "", out, err);
  FlagSet& flags = cl.flags();
  flags.String("machine", &source.machine,
               absl::StrCat("a built-in machine: ",
                            absl::StrJoin(topology::PresetNames(), ", ")));
  flags.String("sysfs", &source.sysfs,
               "a sysfs root holding devices/system/cpu, e.g. /sys");
  flags.String("hwloc", &source.hwloc, "an hwloc topology XML file");
  flags.String("power-model", &source.power_model,
               "with --sysfs or --hwloc: a built-in machine whose C-state, "
               "frequency and power tables the imported machine takes");
  flags.String("format", &format, "text or json");
  flags.Int("cpu", &cpu, "the CPU whose scheduling domains are shown");
  flags.Bool("list", &list,
             "list the built-in machines (the registry, docs/topology.md) "
             "with one line each");
  std::vector<std::string> positional;
  if (std::optional<int> done = cl.Parse(args, &positional)) return *done;
  if (auto bad = cl.CheckChoice("format", format, {"text", "json"})) {
    return *bad;
  }
  if (list) {
    if (flags.Given("machine") || flags.Given("sysfs") ||
        flags.Given("hwloc")) {
      return cl.UsageError("--list takes no --machine, --sysfs or --hwloc");
    }
    if (format == "json") {
      nlohmann::ordered_json j = nlohmann::ordered_json::array();
      for (const topology::PresetEntry& p : topology::Presets()) {
        j.push_back({{"name", p.name}, {"summary", p.summary}});
      }
      out << j.dump(2) << "\n";
    } else {
      for (const topology::PresetEntry& p : topology::Presets()) {
        out << absl::StrFormat("%-24s %s\n", p.name, p.summary);
      }
    }
    return 0;
  }
  absl::StatusOr<topology::Topology> t = LoadMachine(source);
  if (!t.ok()) {
    err << "schedsim topology: " << t.status().message() << "\n";
    return t.status().code() == absl::StatusCode::kInvalidArgument &&
                   !flags.Given("sysfs") && !flags.Given("hwloc") &&
                   !flags.Given("machine")
               ? kUsageError
               : 1;
  }
  if (cpu < 0 || cpu >= t->num_cpus()) {
    err << "schedsim topology: --cpu=" << cpu << " is not a CPU of "
        << t->name() << " (0-" << t->num_cpus() - 1 << ")\n";
    return kUsageError;
  }
  absl::StatusOr<topology::SchedDomains> domains =
      topology::BuildSchedDomains(*t);
  if (!domains.ok()) {
    err << "schedsim topology: " << domains.status().message() << "\n";
    return 1;
  }
  if (format == "json") {
    out << TopologyJson(*t, *domains, static_cast<int>(cpu)).dump(2) << "\n";
  } else {
    out << TopologyText(*t, *domains, static_cast<int>(cpu));
  }
  return 0;
}

int SimulateCommand(const std::vector<std::string>& args, std::ostream& out,
                    std::ostream& err) {
  std::string format = "text";
  std::string seed;
  int64_t duration_ms = 0;
  bool yes = false;
  bool help = false;
  FlagSet flags("simulate");
  flags.String("format", &format, "text or json");
  flags.String("seed", &seed,
               "the random seed, an integer 0..2^64-1, overriding the "
               "file's \"seed\"");
  flags.Int("duration-ms", &duration_ms,
            "the simulated time to measure in ms, overriding the file's "
            "\"duration_ms\"; 0 keeps the file's");
  flags.Bool("yes", &yes,
             "run even when the estimated wall time is above 24 h (as "
             "`schedsim run`)");
  flags.Bool("help", &help, "show this help");
  std::vector<std::string> positional;
  absl::Status parsed = flags.Parse(args, &positional);
  if (help) {
    out << "Usage: schedsim simulate FILE [--format=text|json] [--seed=N] "
           "[--duration-ms=N] [--yes]\n\n"
           "Runs the scenario in FILE (docs/cli-simulate.md describes the "
           "format) and prints\nthe run's metrics.\n\n"
        << flags.Usage();
    return 0;
  }
  if (!parsed.ok()) {
    err << "schedsim simulate: " << parsed.message() << "\n";
    return kUsageError;
  }
  if (positional.size() != 1) {
    err << "schedsim simulate: "
        << (positional.empty()
                ? std::string("expected a scenario FILE")
                : absl::StrCat("expected one scenario FILE, got ",
                               positional.size(), ": ",
                               absl::StrJoin(positional, " ")))
        << "\nUsage: schedsim simulate FILE [--format=text|json] "
           "[--seed=N] [--duration-ms=N]\n";
    return kUsageError;
  }
  if (format != "text" && format != "json") {
    err << "schedsim simulate: --format must be text or json, got '" << format
        << "'\n";
    return kUsageError;
  }
  uint64_t seed_value = 0;
  if (flags.Given("seed") && !absl::SimpleAtoi(seed, &seed_value)) {
    err << "schedsim simulate: --seed expects an integer in 0.." << UINT64_MAX
        << ", got '" << seed << "'\n";
    return kUsageError;
  }
  if (duration_ms < 0 || duration_ms > kMaxScenarioDurationMs) {
    err << "schedsim simulate: --duration-ms must be in 0.."
        << kMaxScenarioDurationMs << ", got " << duration_ms << "\n";
    return kUsageError;
  }
  absl::StatusOr<Scenario> scenario = LoadScenarioFile(positional[0]);
  if (!scenario.ok()) {
    err << "schedsim simulate: " << scenario.status().message() << "\n";
    return 1;
  }
  if (flags.Given("seed")) scenario->seed = seed_value;
  if (duration_ms > 0) scenario->duration_ms = duration_ms;
  // The cost, as `run` estimates it (issue 49 #12: a valid 10^9 ms
  // scenario ran until killed): one run, refused above 24 h of estimated
  // wall time unless --yes.
  {
    absl::StatusOr<topology::Topology> machine = LoadMachine(scenario->machine);
    if (!machine.ok()) {
      err << "schedsim simulate: " << scenario->filename << ": "
          << machine.status().message() << "\n";
      return 1;
    }
    Experiment as_run;
    as_run.filename = scenario->filename;
    as_run.warmup_ms = scenario->warmup_ms;
    as_run.duration_ms = scenario->duration_ms;
    const CostEstimate cost = EstimateCost(as_run, 1, machine->num_cpus(), 1);
    absl::Status allowed = CheckCost(as_run, cost, yes);
    if (!allowed.ok()) {
      err << "schedsim simulate: refused: " << allowed.message() << "\n";
      return 1;
    }
  }
  absl::StatusOr<ScenarioRun> run = RunScenario(*scenario);
  if (!run.ok()) {
    err << "schedsim simulate: " << run.status().message() << "\n";
    return 1;
  }
  SimReportContext context;
  context.scenario = scenario->filename;
  context.seed = scenario->seed;
  context.warmup_ns = scenario->warmup_ms * 1000000;
  context.cpufreq = run->cpufreq;
  context.cpuidle = scenario->policies.cpuidle;
  context.placement = scenario->policies.placement;
  context.kernel = scenario->kernel;
  if (format == "json") {
    out << SimReportJson(run->stats, run->machine, context)
               .dump(2, ' ', false,
                     nlohmann::ordered_json::error_handler_t::replace)
        << "\n";
  } else {
    out << SimReportText(run->stats, run->machine, context);
  }
  return 0;
}

}  // namespace

int RunCli(const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err) {
  if (args.empty()) {
    err << MainUsage();
    return kUsageError;
  }
  const std::string& command = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (command == "help" || command == "--help" || command == "-h") {
    out << MainUsage();
    return 0;
  }
  if (command == "--version" || command == "version") {
    out << base::VersionLine() << "\n";
    return 0;
  }
  if (command == "topology") return TopologyCommand(rest, out, err);
  if (command == "policies") return PoliciesCommand(rest, out, err);
  if (command == "kernels") return KernelsCommand(rest, out, err);
  if (command == "config") return ConfigCommand(rest, out, err);
  if (command == "simulate") return SimulateCommand(rest, out, err);
  if (command == "run") return RunCommand(rest, out, err);
  if (command == "merge") return MergeCommand(rest, out, err);
  if (command == "slurm") return SlurmCommand(rest, out, err);
  if (command == "govd") return GovdCommand(rest, out, err);
  if (command == "scx") return ScxCommand(rest, out, err);
  if (command == "shadow") return ShadowCommand(rest, out, err);
  auto extra = ExtraCommands().find(command);
  if (extra != ExtraCommands().end()) return extra->second.run(rest, out, err);
  std::string names =
      "topology, simulate, run, merge, slurm, policies, kernels, config, "
      "govd, scx, shadow";
  for (const auto& [name, unused] : ExtraCommands()) {
    absl::StrAppend(&names, ", ", name);
  }
  err << "schedsim: unknown command '" << command << "'; commands: " << names
      << ", help\n";
  return kUsageError;
}

bool RegisterCommand(const std::string& name, const std::string& summary,
                     CommandFunction run) {
  ExtraCommands()[name] = ExtraCommand{summary, run};
  return true;
}

}  // namespace schedsim::cli
