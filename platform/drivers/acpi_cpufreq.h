// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// acpi-cpufreq, the table driver of ACPI P-states (Linux v6.6
// drivers/cpufreq/acpi-cpufreq.c and the table helpers of
// drivers/cpufreq/freq_table.c). In the kernel the driver builds a
// frequency table from the firmware's _PSS objects at init, and the
// cpufreq core picks an index in it for every target
// (cpufreq_frequency_table_target / cpufreq_table_find_index_{l,h,c}: the
// lowest entry at or above the target for RELATION_L, the highest at or
// below for RELATION_H, the closest for RELATION_C, among the entries
// within the policy limits); ->target_index and ->fast_switch then write
// the entry's control value into PERF_CTL (or the ACPI IO port). With
// boost enabled, asking for the first entry (P0) lets the hardware run in
// the turbo range above it.
//
// The model: the table is topology::FrequencySpec::pstates_khz, highest
// first. The driver hands the clamped target to the backend
// (FreqDomain::SetTargetKhz), and each backend resolves it with
// ResolveTableKhz the way it always has:
//   * the simulator (sim/freq.cc) resolves every target with RELATION_L
//     over the whole table and keeps a target above P0 as asked, the boost
//     range its package model then bounds (kBoostAboveTable);
//   * the Linux backend (platform/linux/) writes scaling_setspeed, which
//     takes only table entries within the policy maximum
//     (kTableOnly).
// Simplifications: the relation a governor asks for is not passed down to
// the backend (every backend resolves with RELATION_L; docs/policies/
// cpufreq.md, interface gaps); no _PPC platform limit, no per-entry
// transition latency.

#ifndef SCHEDSIM_PLATFORM_DRIVERS_ACPI_CPUFREQ_H_
#define SCHEDSIM_PLATFORM_DRIVERS_ACPI_CPUFREQ_H_

#include <cstdint>
#include <vector>

#include "platform/drivers/cpufreq_driver.h"

namespace schedsim::platform::drivers {

// What a target above every usable entry becomes.
enum class AboveTable {
  // Kept as asked: the boost range above P0 (the simulator's model).
  kBoostAboveTable,
  // The highest usable entry (scaling_setspeed on Linux).
  kTableOnly,
};

// Resolves `khz` over `table` (kHz, highest first) by `relation`, using
// only the entries at or below `max_khz`. With no usable entry the target
// is returned unchanged.
int64_t ResolveTableKhz(const std::vector<int64_t>& table, int64_t khz,
                        Relation relation, int64_t max_khz, AboveTable above);

class AcpiCpufreqDriver final : public CpufreqDriver {
 public:
  absl::string_view name() const override { return "acpi-cpufreq"; }
  // The clamped target to FreqDomain::SetTargetKhz (the backend resolves
  // it to an entry); returns domain.requested_khz().
  int64_t Target(FreqDomain& domain, int64_t khz,
                 Relation relation) const override;
};

}  // namespace schedsim::platform::drivers

#endif  // SCHEDSIM_PLATFORM_DRIVERS_ACPI_CPUFREQ_H_
