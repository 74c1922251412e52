// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim topology` output: an lscpu/lstopo-like text summary, and JSON
// with the keys documented in docs/cli.md.

#ifndef SCHEDSIM_CLI_TOPOLOGY_REPORT_H_
#define SCHEDSIM_CLI_TOPOLOGY_REPORT_H_

#include <string>

#include "nlohmann/json.hpp"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::cli {

// Text: summary, caches, frequency, the package/node/LLC tree, the NUMA
// distance table, the idle states and the domain stack of `cpu`.
std::string TopologyText(const topology::Topology& t,
                         const topology::SchedDomains& domains, int cpu = 0);

// JSON: cpus, nodes, llcs, domains (from CPU `cpu`), cstates, frequency.
nlohmann::json TopologyJson(const topology::Topology& t,
                            const topology::SchedDomains& domains, int cpu = 0);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_TOPOLOGY_REPORT_H_
