// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The frequency side of the Linux backend: each cpufreq policy of the
// machine (/sys/devices/system/cpu/cpufreq/policyN) as a platform::
// FreqDomain, so that a schedsim frequency governor, the very object the
// simulator runs, drives real hardware.
//
//   LinuxFreqOptions options;            // dry run unless options.apply
//   SettingsSnapshot snapshot(options.paths);
//   absl::StatusOr<std::unique_ptr<LinuxCpufreq>> cpufreq =
//       LinuxCpufreq::Open(options, &snapshot);
//   (*cpufreq)->Sample(0);               // baseline
//   for (LinuxFreqDomain* d : (*cpufreq)->domains()) governor.Start(*d);
//   every period: (*cpufreq)->Sample(now_ns); governor.UpdateUtil(...)
//
// What the governor sees (inputs), refreshed by Sample() once per period:
//
//   * util(cpu): PELT is not visible from user space, so utilization is
//     estimated from the CPU's busy fraction over the last period, x its
//     capacity x f / f_max, f the CPU's average frequency over the period
//     and f_max cpuinfo_max_freq; so, like PELT, frequency-invariant. The
//     busy fraction is MPERF/TSC (time in C0, cycle resolution) when the
//     MSRs are readable, else from /proc/stat (user + nice + system + irq
//     + softirq over all time), at USER_HZ resolution (10 ms at the usual
//     USER_HZ = 100): a CPU whose /proc/stat line did not advance since the
//     last sample keeps its estimate rather than being taken for idle. f
//     is APERF/MPERF x base_khz with MSRs, else the policy's
//     scaling_cur_freq. The estimate is smoothed by an EWMA whose
//     half-life is util_half_life_ns (default 32 ms, PELT's half-life); 0
//     disables smoothing. capacity is cpuN/cpu_capacity when present
//     (asymmetric systems), else 1024. util_rt, uclamp and rt_runnable
//     stay at their defaults: user space sees none of them.
//   * counters(cpu): APERF (0xE8), MPERF (0xE7) and TSC (0x10) read from
//     /dev/cpu/N/msr when readable (root + `modprobe msr`); otherwise
//     derived: TSC advances at base_khz over the wall time, MPERF by TSC x
//     the busy fraction, APERF by MPERF x f / base_khz. Derived counters
//     make counter-based governors (intel_pstate, ondemand's busy test)
//     work, at /proc/stat resolution (USER_HZ ticks).
//   * tick_period_ns(): the sampling period; each CPU gets one
//     UpdateUtil per period, as with a tick of that length.
//   * policy_min_khz/policy_max_khz: scaling_min/max_freq; current_khz:
//     the average over the domain's CPUs of f above; requested_khz: the
//     last target set (initially scaling_setspeed when it holds a number,
//     else scaling_cur_freq).
//   * spec(): LoadTopologyFromSysfs() of the sysfs root for the machine
//     facts, with the policy's own cpuinfo_min/max_freq,
//     scaling_available_frequencies, base_frequency, transition latency,
//     driver and governor. HWP capabilities come from the policy's first
//     CPU's acpi_cppc, else IA32_HWP_CAPABILITIES (0x771), else are
//     derived from the frequencies / khz_per_perf_unit (with a note).
//
// What the governor's actions do (outputs). In a dry run (the default)
// nothing is written: each action is recorded with what would be written
// and why. With apply:
//
//   * SetTargetKhz: the target, clamped to the policy limits and resolved
//     to the lowest available frequency at or above it (RELATION_L, as the
//     kernel's userspace governor does), is written to scaling_setspeed.
//     That file only works under the `userspace` governor: the first
//     target switches the policy's scaling_governor to `userspace` (the
//     original governor is in the SettingsSnapshot). A policy whose driver
//     offers no `userspace` (intel_pstate in active mode) fails the action
//     with FailedPrecondition naming the policy. A repeated request for the
//     frequency already set is neither recorded nor written.
//   * SetHwpRequest, allow_msr_writes (Intel only): IA32_HWP_REQUEST
//     (0x774) of the CPU, read-modify-write keeping bits 63:32.
//   * SetHwpRequest otherwise: mapped onto the policy's sysfs files:
//     scaling_min_freq = min_perf x khz_per_perf_unit, scaling_max_freq =
//     max_perf x khz_per_perf_unit, energy_performance_preference = EPP
//     (0 "performance", 128 "balance_performance", 192 "balance_power",
//     255 "power", any other value as the number, which intel_pstate
//     accepts since v5.9). desired_perf has no sysfs equivalent and is
//     dropped, with a note in the action. Files already holding the value
//     are not written. The policy is per policy, not per CPU: the last
//     request of any of its CPUs wins.
//
// Every file written is first saved in the SettingsSnapshot. The first
// failed write stops the domain: status() holds the error (naming the
// file) and later actions are refused.

#ifndef SCHEDSIM_PLATFORM_LINUX_LINUX_CPUFREQ_H_
#define SCHEDSIM_PLATFORM_LINUX_LINUX_CPUFREQ_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "platform/cpufreq.h"
#include "platform/linux/linux_sysfs.h"
#include "platform/linux/msr.h"
#include "platform/linux/proc_stat.h"
#include "platform/linux/settings_snapshot.h"
#include "topology/cpuset.h"
#include "topology/topology.h"

namespace schedsim::platform::host {

struct LinuxFreqOptions {
  LinuxPaths paths;
  // false: dry run, nothing is written. true: actions are written, every
  // file saved first in the snapshot passed to Open().
  bool apply = false;
  // SetHwpRequest writes IA32_HWP_REQUEST instead of the sysfs mapping.
  bool allow_msr_writes = false;
  // Use APERF/MPERF/TSC from the MSRs when readable.
  bool msr_counters = true;
  // The MSRs; null: the msr driver's devices under paths.dev_root. Must
  // outlive the LinuxCpufreq (and be the snapshot's too).
  MsrAccess* msr = nullptr;
  // EWMA half-life of the utilization estimate; 0: none. PELT's is 32 ms.
  int64_t util_half_life_ns = 32'000'000;
  // What tick_period_ns() reports: set it to the sampling period.
  int64_t tick_period_ns = 10'000'000;
  // Named in each action's reason.
  std::string governor_name;
};

// One action of a governor as the backend carried it out (or, in a dry
// run, would have).
struct LinuxFreqAction {
  int64_t time_ns = 0;
  int policy = 0;
  std::string what;                 // "target 2100000 kHz", "HWP request ..."
  std::vector<std::string> writes;  // "<path> <- <value>"
  std::vector<std::string> notes;   // what could not be expressed, ...
  std::string why;                  // governor and inputs
  bool dry_run = false;             // nothing was to be written
  bool applied = false;             // every write done
  std::string error;                // the failure, if any
};
// One line (plus indented continuation lines) for the log.
std::string FormatAction(const LinuxFreqAction& action);

// What the sampler last saw of one CPU.
struct CpuObservation {
  bool online = false;         // in /proc/stat
  double busy_fraction = 0.0;  // of the last period
  bool iowait = false;         // iowait time grew in the last period
  int64_t avg_khz = 0;         // average frequency while busy
  double util = 0.0;           // smoothed estimate, capacity units
  int64_t capacity = kCapacityScale;
  CpuCounters counters;  // cumulative
};

class LinuxCpufreq;

class LinuxFreqDomain final : public FreqDomain {
 public:
  // --- FreqDomain ----------------------------------------------------------
  // The policy number N of policyN.
  int id() const override { return policy_; }
  // Online CPUs of the policy (affected_cpus, else related_cpus), Linux
  // CPU numbering.
  const topology::CpuSet& cpus() const override { return cpus_; }
  const topology::FrequencySpec& spec() const override { return spec_; }
  int64_t policy_min_khz() const override { return policy_min_khz_; }
  int64_t policy_max_khz() const override { return policy_max_khz_; }
  int64_t current_khz() const override { return current_khz_; }
  int64_t requested_khz() const override { return requested_khz_; }
  int64_t now_ns() const override;
  int64_t tick_period_ns() const override;
  CpuUtil util(int cpu) const override;
  CpuCounters counters(int cpu) const override;
  void SetTargetKhz(int64_t khz) override;
  void SetHwpRequest(int cpu, const HwpRequest& request) override;

  // --- The Linux side ------------------------------------------------------
  // devices/system/cpu/cpufreq/policyN, relative to the sysfs root.
  const std::string& dir() const { return dir_; }
  // scaling_governor when opened, and as last read.
  const std::string& original_governor() const { return original_governor_; }
  const std::string& governor() const { return governor_; }
  // `userspace` is in scaling_available_governors and scaling_setspeed
  // exists: SetTargetKhz can be applied.
  bool userspace_available() const { return userspace_available_; }
  // The first failed action, OK otherwise.
  const absl::Status& status() const { return status_; }
  // The actions recorded since the last call, oldest first.
  std::vector<LinuxFreqAction> TakeActions();

 private:
  friend class LinuxCpufreq;
  LinuxFreqDomain() = default;

  // The target SetTargetKhz would set for `khz`.
  int64_t ResolveKhz(int64_t khz) const;
  LinuxFreqAction NewAction(std::string what) const;
  // Performs (apply) or plans (dry run) one file write; returns false and
  // sets status_ on failure.
  bool DoWrite(LinuxFreqAction& action, const std::string& rel,
               const std::string& value);
  void Fail(LinuxFreqAction& action, absl::Status status);
  void MapHwpToSysfs(LinuxFreqAction& action, const HwpRequest& request);

  LinuxCpufreq* owner_ = nullptr;
  int policy_ = 0;
  std::string dir_;
  topology::CpuSet cpus_;
  topology::FrequencySpec spec_;
  int64_t policy_min_khz_ = 0;
  int64_t policy_max_khz_ = 0;
  int64_t cur_freq_khz_ = 0;  // scaling_cur_freq
  // Where cur_freq_khz_ came from, for the log: "scaling_cur_freq",
  // "cpuinfo_cur_freq", or why it is the base frequency, assumed.
  std::string cur_freq_source_ = "scaling_cur_freq";
  int64_t current_khz_ = 0;
  int64_t requested_khz_ = 0;
  std::string original_governor_;
  std::string governor_;
  std::string epp_;  // energy_performance_preference as last read, or ""
  bool has_epp_file_ = false;
  bool userspace_available_ = false;
  bool msr_hwp_ = false;            // HWP requests go to IA32_HWP_REQUEST
  bool target_set_ = false;         // SetTargetKhz was called
  bool userspace_planned_ = false;  // dry run: the switch was logged
  std::optional<HwpRequest> last_mapped_;       // sysfs mapping, last request
  std::vector<std::optional<HwpRequest>> hwp_;  // by CPU: last request
  absl::Status status_;
  std::vector<LinuxFreqAction> actions_;
};

class LinuxCpufreq {
 public:
  // Finds the cpufreq policies under options.paths.sysfs_root and reads
  // their facts. With options.apply, `snapshot` (required then, else may
  // be null) saves every policy's writable files now (and, with
  // allow_msr_writes on HWP, IA32_HWP_REQUEST of every CPU), and every
  // file the backend will write must be writable (access(2)).
  //
  // Errors: NotFound when there is no policy (no cpufreq driver: a VM, a
  // container); the error of LoadTopologyFromSysfs; InvalidArgument or
  // NotFound naming the file when a required policy file (affected_cpus or
  // related_cpus, cpuinfo_min/max_freq, scaling_min/max_freq) is malformed
  // or missing. With apply: FailedPrecondition for a policy without HWP
  // whose driver offers no `userspace` governor (no way to set a target);
  // the snapshot's error naming a file that cannot be saved;
  // PermissionDenied naming a file that cannot be written.
  static absl::StatusOr<std::unique_ptr<LinuxCpufreq>> Open(
      const LinuxFreqOptions& options, SettingsSnapshot* snapshot);

  LinuxCpufreq(const LinuxCpufreq&) = delete;
  LinuxCpufreq& operator=(const LinuxCpufreq&) = delete;

  // One domain per policy, by policy number.
  const std::vector<std::unique_ptr<LinuxFreqDomain>>& domains() const {
    return domains_;
  }
  // Reads /proc/stat, each policy's scaling_{min,max,cur}_freq, governor
  // and EPP, and the MSRs; updates every domain's view as of `now_ns` (a
  // monotonic time chosen by the caller; the first call is the baseline).
  // Errors name the file. An MSR read failing after Open switches to
  // derived counters, with a note.
  absl::Status Sample(int64_t now_ns);

  const LinuxFreqOptions& options() const { return options_; }
  const topology::Topology& topology() const { return *topology_; }
  // Width of every domain's CpuSet: the highest CPU id + 1.
  int num_cpus() const { return static_cast<int>(obs_.size()); }
  const CpuObservation& observation(int cpu) const { return obs_[cpu]; }
  bool msr_counters() const { return msr_counters_; }
  int64_t now_ns() const { return now_ns_; }
  // What was inferred or defaulted (HWP capabilities derived, counters
  // derived, ...).
  const std::vector<std::string>& notes() const { return notes_; }
  // "schedutil: cpu0 busy 62.0% util 790, ...; 2100000 kHz; limits ..."
  std::string DescribeInputs(const LinuxFreqDomain& domain) const;

 private:
  friend class LinuxFreqDomain;
  explicit LinuxCpufreq(const LinuxFreqOptions& options);
  absl::Status OpenPolicy(int policy, const topology::FrequencySpec& machine,
                          std::unique_ptr<LinuxFreqDomain>* out);
  absl::Status ReadPolicyState(LinuxFreqDomain& d);
  void FillHwpCaps(LinuxFreqDomain& d);

  LinuxFreqOptions options_;
  SettingsSnapshot* snapshot_ = nullptr;
  LinuxSysfs sysfs_;
  LinuxSysfs proc_;
  std::unique_ptr<topology::Topology> topology_;
  std::unique_ptr<DevMsrAccess> own_msr_;
  MsrAccess* msr_ = nullptr;
  bool msr_counters_ = false;
  std::vector<std::unique_ptr<LinuxFreqDomain>> domains_;
  std::vector<CpuObservation> obs_;             // by CPU
  std::vector<std::optional<CpuTimes>> times_;  // by CPU: last reading
  std::vector<CpuCounters> last_msr_;           // by CPU: last MSR values
  std::vector<char> msr_valid_;                 // by CPU: last_msr_ was read
  std::vector<int64_t> util_ns_;                // by CPU: last util update
  int64_t now_ns_ = 0;
  int64_t last_sample_ns_ = 0;
  bool sampled_ = false;
  std::vector<std::string> notes_;
};

// EPP value -> what energy_performance_preference takes: the kernel's
// names for 0, 128, 192 and 255, else the number.
std::string EppText(int epp);

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_LINUX_CPUFREQ_H_
