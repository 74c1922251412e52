// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The hardware hierarchy as a Boost.Graph. Vertices are hardware objects
// (machine, package, NUMA node, LLC, core, hardware thread); an edge u -> v
// means "u contains v". The graph is a DAG rather than a tree because a NUMA
// node and an LLC need not nest: on Skylake-SP with sub-NUMA clustering one
// L3 spans two nodes, and then the node points at its threads directly.
// Every thread has exactly one ancestor of each level.

#ifndef SCHEDSIM_TOPOLOGY_GRAPH_H_
#define SCHEDSIM_TOPOLOGY_GRAPH_H_

#include <boost/graph/adjacency_list.hpp>

#include "topology/topology.h"

namespace schedsim::topology {

struct HwObject {
  Level level = Level::kMachine;
  int id = 0;  // dense id within its level (the CPU id for threads)
};

using HwGraph = boost::adjacency_list<boost::vecS, boost::vecS,
                                      boost::bidirectionalS, HwObject>;

struct HierarchyGraph {
  HwGraph g;
  HwGraph::vertex_descriptor machine = 0;
  // thread_vertex[cpu] is the vertex of logical CPU `cpu`.
  std::vector<HwGraph::vertex_descriptor> thread_vertex;
};

}  // namespace schedsim::topology

#endif  // SCHEDSIM_TOPOLOGY_GRAPH_H_
