// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/scx_command.h"

#include <unistd.h>

#include <fstream>
#include <map>
#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "cli/flags.h"
#include "cli/param_flags.h"
#include "platform/linux/linux_sysfs.h"
#include "platform/linux/scx/scx_shared.h"
#include "platform/linux/scx_agent.h"
#include "platform/linux/scx_probe.h"
#include "platform/registry.h"
#include "topology/sched_domains.h"
#include "topology/sysfs.h"

namespace schedsim::cli {
namespace {

namespace host = platform::host;

constexpr char kUsage[] =
    "Usage: schedsim scx --placement=NAME [--param=KEY=VALUE ...] "
    "[--duration-s=N]\n"
    "                    [--bpf-object=FILE] [--max-outstanding=N] "
    "[--slice-us=N]\n"
    "                    [--no-idle-events] [--json=FILE] "
    "[--decision-log=FILE]\n"
    "                    [--sysfs=DIR] [--proc=DIR]\n";

// What --help says between the usage and the flags.
constexpr char kAbout[] =
    "A sched_ext scheduler whose wake-up placement is a schedsim "
    "placement policy\nrunning in this process (Linux 6.12+ with "
    "CONFIG_SCHED_CLASS_EXT; root).\nExit codes: 0 ran and unloaded, "
    "1 failed, 2 usage error, 3 sched_ext\ncannot be used here (one "
    "line says why). docs/hardware.md, \"sched_ext\".\n";

// scx_place.bpf.o beside the running binary.
std::string DefaultBpfObject() {
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n <= 0) return "scx_place.bpf.o";
  std::string path(exe, static_cast<size_t>(n));
  const size_t slash = path.rfind('/');
  return absl::StrCat(slash == std::string::npos ? "." : path.substr(0, slash),
                      "/scx_place.bpf.o");
}

}  // namespace

int ScxCommand(const std::vector<std::string>& args_in, std::ostream& out,
               std::ostream& err) {
  std::vector<std::string> args = args_in;
  std::vector<std::string> param_texts;
  absl::Status extracted = ExtractParamFlags(args, &param_texts);

  std::string placement;
  std::string param_help;
  host::LinuxPaths paths;
  host::ScxRunOptions options;
  bool no_idle_events = false;
  std::string json_file;
  CommandLine cl("scx", kUsage, kAbout, out, err,
                 /*usage_on_error=*/true);
  FlagSet& flags = cl.flags();
  flags.String(
      "placement", &placement,
      absl::StrCat("the placement policy to run: ",
                   KnownPolicyNames(platform::PolicyFamily::kPlacement)));
  flags.String("param", &param_help,
               "KEY=VALUE: a policy parameter (repeatable; `schedsim "
               "policies` lists them)");
  flags.Double("duration-s", &options.duration_s,
               "run this many seconds; 0: until SIGINT or SIGTERM");
  flags.String("bpf-object", &options.bpf_object,
               "the compiled BPF scheduler (dev/build-scx makes it; default "
               "scx_place.bpf.o beside this binary)");
  flags.Int("max-outstanding", &options.max_outstanding,
            "wake-ups queued to this agent and not yet decided beyond which "
            "the BPF side places a task itself (the counted fallback)");
  flags.Int("slice-us", &options.slice_us,
            "the time slice a dispatched task gets, us");
  flags.Bool("no-idle-events", &no_idle_events,
             "do not send idle entries (the policy's OnCpuIdle is not "
             "called; has_idle_cores stays as the searches leave it)");
  flags.String("json", &json_file, "also write the exit counters as JSON");
  flags.String("decision-log", &options.decision_log,
               "write one line per decision: enq_ns pid this_cpu prev_cpu "
               "cpu (enq_ns on CLOCK_MONOTONIC, as trace_clock mono)");
  flags.String("sysfs", &paths.sysfs_root,
               "the sysfs root (kernel/sched_ext, devices/system/cpu)");
  flags.String("proc", &paths.proc_root, "the procfs root (self/status)");
  std::vector<std::string> positional;
  if (std::optional<int> done = cl.Parse(args, &positional, 0, extracted)) {
    return *done;
  }
  const auto usage_error = [&](absl::string_view message) {
    return cl.UsageError(message);
  };
  if (placement.empty()) {
    return usage_error(
        absl::StrCat("--placement is required; known: ",
                     KnownPolicyNames(platform::PolicyFamily::kPlacement)));
  }
  if (!(options.duration_s >= 0) || options.duration_s > 1e7) {
    return usage_error(absl::StrCat(
        "--duration-s must be >= 0 (0: until SIGINT/SIGTERM), got ",
        options.duration_s));
  }
  if (options.max_outstanding < 1 || options.max_outstanding > 4096) {
    return usage_error(absl::StrCat(
        "--max-outstanding must be in 1..4096, got ", options.max_outstanding));
  }
  if (options.slice_us < 100 || options.slice_us > 1000000) {
    return usage_error(absl::StrCat("--slice-us must be in 100..1000000, got ",
                                    options.slice_us));
  }
  options.idle_events = !no_idle_events;
  const platform::PolicyInfo* info = platform::PolicyRegistry::Global().Find(
      platform::PolicyFamily::kPlacement, placement);
  if (info == nullptr) {
    return usage_error(absl::StrCat(
        "unknown placement policy '", placement,
        "'; known: ", KnownPolicyNames(platform::PolicyFamily::kPlacement)));
  }
  absl::StatusOr<std::map<std::string, platform::ParamValue>> params =
      TypedParamValues(*info, absl::StrCat("policy '", info->name, "'"),
                       param_texts);
  if (!params.ok()) return usage_error(params.status().message());
  absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> policy =
      platform::PolicyRegistry::Global().MakePlacement(placement, *params);
  if (!policy.ok()) return usage_error(policy.status().message());

  // Refusals: one line each.
  const host::ScxProbeResult probe = host::ProbeSchedExt(paths);
  if (!probe.ready()) {
    err << "schedsim scx: " << probe.message << "\n";
    return kScxUnavailable;
  }
  const host::ScxBackendFn* backend = host::ScxBackend();
  if (backend == nullptr) {
    err << "schedsim scx: this schedsim was built without the sched_ext "
           "loader (libbpf); dev/build-scx builds one (docs/hardware.md)\n";
    return kScxUnavailable;
  }
  if (options.bpf_object.empty()) options.bpf_object = DefaultBpfObject();
  if (access(options.bpf_object.c_str(), R_OK) != 0) {
    err << "schedsim scx: cannot read the BPF object " << options.bpf_object
        << " (dev/build-scx makes it; --bpf-object=FILE names another)\n";
    return kScxUnavailable;
  }

  absl::StatusOr<topology::Topology> machine =
      topology::LoadTopologyFromSysfs(paths.sysfs_root);
  if (!machine.ok()) {
    err << "schedsim scx: reading the topology: " << machine.status().message()
        << "\n";
    return 1;
  }
  if (machine->num_cpus() > SCHEDSIM_SCX_MAX_CPUS) {
    err << "schedsim scx: " << machine->num_cpus()
        << " CPUs; the BPF side's tables hold " << SCHEDSIM_SCX_MAX_CPUS
        << "\n";
    return kScxUnavailable;
  }
  absl::StatusOr<topology::SchedDomains> domains =
      topology::BuildSchedDomains(*machine);
  if (!domains.ok()) {
    err << "schedsim scx: building the scheduling domains: "
        << domains.status().message() << "\n";
    return 1;
  }
  options.log = &out;
  out << "schedsim scx: placement " << placement << " on "
      << machine->num_cpus() << " CPUs (" << machine->num_cores() << " cores, "
      << machine->num_llcs() << " LLCs), BPF object " << options.bpf_object
      << "\n";
  out.flush();
  absl::StatusOr<host::ScxReport> report =
      (*backend)(**policy, *machine, *domains, options);
  if (!report.ok()) {
    err << "schedsim scx: " << report.status().message() << "\n";
    return 1;
  }
  out << report->Text();
  if (!json_file.empty()) {
    std::ofstream json(json_file);
    json << report->Json();
    if (!json.good()) {
      err << "schedsim scx: cannot write " << json_file << "\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace schedsim::cli
