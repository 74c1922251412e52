// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/netperf.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "sim/program.h"
#include "workloads/model_util.h"

namespace schedsim::workloads {
namespace {

constexpr int64_t kSocketBufferBytes = 212992;  // net.core.rmem_default
constexpr int64_t kSkbOverheadBytes = 768;      // assumed
constexpr int kRrChannelCapacity = 16;
constexpr int64_t kMaxSize = int64_t{1} << 30;

int64_t CopyCycles(int64_t bytes, double cycles_per_byte) {
  return static_cast<int64_t>(
      std::llround(static_cast<double>(bytes) * cycles_per_byte));
}

// Adds compute(cycles) when cycles > 0.
void MaybeCompute(sim::ProgramBuilder& b, int64_t cycles) {
  if (cycles > 0) b.Compute(sim::Dist::Constant(cycles));
}

// Two socket channels per pair and one client and one server task spec.
void AddPairs(sim::Workload& w, int pairs, int capacity,
              const std::string& client_name, const std::string& server_name) {
  for (int i = 0; i < pairs; ++i) {
    sim::ChannelSpec up;
    up.name = absl::StrCat(client_name, i, "->", server_name, i);
    up.kind = sim::ChannelSpec::Kind::kSocket;
    up.capacity = capacity;
    w.channels.push_back(std::move(up));
    sim::ChannelSpec down;
    down.name = absl::StrCat(server_name, i, "->", client_name, i);
    down.kind = sim::ChannelSpec::Kind::kSocket;
    down.capacity = capacity;
    w.channels.push_back(std::move(down));
    sim::TaskSpec client;
    client.name = absl::StrCat(client_name, "/", i);
    client.program = 0;
    client.channel_base = 2 * i;
    w.tasks.push_back(std::move(client));
    sim::TaskSpec server;
    server.name = absl::StrCat(server_name, "/", i);
    server.program = 1;
    server.channel_base = 2 * i;
    w.tasks.push_back(std::move(server));
  }
}

absl::Status CheckSizes(absl::string_view model, int64_t a, const char* an,
                        int64_t b, const char* bn) {
  if (absl::Status s = CheckIntParam(model, an, a, 0, kMaxSize); !s.ok()) {
    return s;
  }
  return CheckIntParam(model, bn, b, 0, kMaxSize);
}

}  // namespace

absl::StatusOr<NetperfTest> ParseNetperfTest(absl::string_view name) {
  for (NetperfTest t : {NetperfTest::kTcpRr, NetperfTest::kUdpRr,
                        NetperfTest::kTcpStream, NetperfTest::kUdpStream}) {
    if (name == NetperfTestName(t)) return t;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("netperf: unknown test '", name,
                   "'; known: TCP_RR, UDP_RR, TCP_STREAM, UDP_STREAM"));
}

const char* NetperfTestName(NetperfTest test) {
  switch (test) {
    case NetperfTest::kTcpRr:
      return "TCP_RR";
    case NetperfTest::kUdpRr:
      return "UDP_RR";
    case NetperfTest::kTcpStream:
      return "TCP_STREAM";
    case NetperfTest::kUdpStream:
      return "UDP_STREAM";
  }
  return "?";
}

bool IsRequestResponse(NetperfTest test) {
  return test == NetperfTest::kTcpRr || test == NetperfTest::kUdpRr;
}

absl::StatusOr<sim::Workload> NetperfWorkload(const NetperfParams& params) {
  constexpr char kModel[] = "netperf";
  if (absl::Status s =
          CheckIntParam(kModel, "instances", params.instances, 1, 100000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckSizes(kModel, params.request_size, "request_size",
                                  params.response_size, "response_size");
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckIntParam(kModel, "send_size", params.send_size, 1, kMaxSize);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckIntParam(kModel, "stack_cycles",
                                     params.stack_cycles, 0, 1000000000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckDoubleParam(kModel, "cycles_per_byte",
                                        params.cycles_per_byte, 0, 1000);
      !s.ok()) {
    return s;
  }
  const bool tcp = params.test == NetperfTest::kTcpRr ||
                   params.test == NetperfTest::kTcpStream;
  const int64_t stack =
      params.stack_cycles > 0
          ? params.stack_cycles
          : (tcp ? kDefaultTcpStackCycles : kDefaultUdpStackCycles);
  const double cpb = params.cycles_per_byte;
  auto tx = [&](int64_t bytes) { return stack + CopyCycles(bytes, cpb); };
  auto rx = [&](int64_t bytes) { return CopyCycles(bytes, cpb); };

  sim::Workload w;
  if (params.remote_peer) {
    if (!IsRequestResponse(params.test)) {
      return absl::InvalidArgumentError(absl::StrCat(
          kModel, ": peer remote runs the RR tests only (TCP_RR, UDP_RR), not ",
          NetperfTestName(params.test)));
    }
    if (absl::Status s = CheckIntParam(kModel, "remote_us (in ns)",
                                       params.remote_ns, 1, 1000000000000);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = CheckIntParam(kModel, "server_cycles",
                                       params.server_cycles, 0, 1000000000);
        !s.ok()) {
      return s;
    }
    w.metrics = {"transaction"};
    sim::ProgramBuilder server("netserver");
    server.Loop(0).Stamp().DeviceWait(sim::Dist::Constant(params.remote_ns));
    MaybeCompute(server, params.server_cycles + rx(params.request_size) +
                             tx(params.response_size));
    server.Mark(kNetperfMetric).EndLoop();
    absl::StatusOr<sim::Program> s = BuildProgram(kModel, server);
    if (!s.ok()) return s.status();
    w.programs.push_back(*std::move(s));
    for (int i = 0; i < params.instances; ++i) {
      sim::TaskSpec t;
      t.name = absl::StrCat("netserver/", i);
      t.program = 0;
      w.tasks.push_back(std::move(t));
    }
    return w;
  }
  sim::ProgramBuilder client("netperf");
  sim::ProgramBuilder server("netserver");
  int capacity = kRrChannelCapacity;
  if (IsRequestResponse(params.test)) {
    w.metrics = {"transaction"};
    client.Loop(0).Stamp();
    MaybeCompute(client, tx(params.request_size));
    client.Send(0).Recv(1);
    MaybeCompute(client, rx(params.response_size));
    client.Mark(kNetperfMetric).EndLoop();
    server.Loop(0).Recv(0);
    MaybeCompute(server, rx(params.request_size) + tx(params.response_size));
    server.Send(1).EndLoop();
  } else {
    w.metrics = {"message"};
    client.Loop(0);
    MaybeCompute(client, tx(params.send_size));
    client.Send(0).EndLoop();
    server.Loop(0).Recv(0);
    MaybeCompute(server, rx(params.send_size));
    server.Mark(kNetperfMetric).EndLoop();
    capacity = static_cast<int>(std::max<int64_t>(
        1, kSocketBufferBytes / (params.send_size + kSkbOverheadBytes)));
  }
  absl::StatusOr<sim::Program> c = BuildProgram(kModel, client);
  if (!c.ok()) return c.status();
  absl::StatusOr<sim::Program> s = BuildProgram(kModel, server);
  if (!s.ok()) return s.status();
  w.programs.push_back(*std::move(c));
  w.programs.push_back(*std::move(s));
  AddPairs(w, params.instances, capacity, "netperf", "netserver");
  return w;
}

absl::StatusOr<sim::Workload> TbenchWorkload(const TbenchParams& params) {
  constexpr char kModel[] = "tbench";
  if (absl::Status s =
          CheckIntParam(kModel, "clients", params.clients, 1, 100000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckSizes(kModel, params.bytes_per_op, "bytes_per_op",
                                  params.request_size, "request_size");
      !s.ok()) {
    return s;
  }
  for (const auto& [name, v] :
       {std::pair<const char*, int64_t>{"client_cycles", params.client_cycles},
        {"server_cycles", params.server_cycles},
        {"stack_cycles", params.stack_cycles}}) {
    if (absl::Status s = CheckIntParam(kModel, name, v, 0, 1000000000);
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = CheckDoubleParam(kModel, "cycles_per_byte",
                                        params.cycles_per_byte, 0, 1000);
      !s.ok()) {
    return s;
  }
  const double cpb = params.cycles_per_byte;
  sim::Workload w;
  w.metrics = {"op"};
  sim::ProgramBuilder client("tbench");
  client.Loop(0).Stamp();
  MaybeCompute(client, params.client_cycles + params.stack_cycles +
                           CopyCycles(params.request_size, cpb));
  client.Send(0).Recv(1);
  MaybeCompute(client, CopyCycles(params.bytes_per_op, cpb));
  client.Mark(kTbenchOpMetric).EndLoop();
  sim::ProgramBuilder server("tbench_srv");
  server.Loop(0).Recv(0);
  MaybeCompute(server, params.server_cycles + params.stack_cycles +
                           CopyCycles(params.request_size, cpb) +
                           CopyCycles(params.bytes_per_op, cpb));
  server.Send(1).EndLoop();
  absl::StatusOr<sim::Program> c = BuildProgram(kModel, client);
  if (!c.ok()) return c.status();
  absl::StatusOr<sim::Program> s = BuildProgram(kModel, server);
  if (!s.ok()) return s.status();
  w.programs.push_back(*std::move(c));
  w.programs.push_back(*std::move(s));
  AddPairs(w, params.clients, kRrChannelCapacity, "tbench", "tbench_srv");
  return w;
}

WorkloadModel NetperfModel() {
  WorkloadModel m;
  m.name = "netperf";
  m.description =
      "netperf over loopback: `instances` netperf/netserver pairs over "
      "sockets. TCP_RR/UDP_RR: one transaction = request + response, two "
      "synchronous wake-ups per transaction; TCP_STREAM/UDP_STREAM: a "
      "sender streams send_size messages to a receiver. Exercises the "
      "WF_SYNC wake-up path (wake_affine: same CPU vs an idle sibling), "
      "idle exits between short idle periods (menu's C-state choice, PM QoS, "
      "POLL), and the frequency governor on half-busy CPUs. Assumes "
      "SimConfig::socket_op_ns per syscall plus stack_cycles per send "
      "(TCP 8000, UDP 5000, assumed) and 0.35 cycles per byte copied "
      "(assumed); full datagram sockets block instead of dropping.";
  m.params = {
      {"test", std::string("TCP_RR"),
       "TCP_RR, UDP_RR, TCP_STREAM or UDP_STREAM (-t)"},
      {"instances", int64_t{1}, "parallel netperf/netserver pairs"},
      {"request_size", int64_t{1}, "RR request size, bytes (-r req,)"},
      {"response_size", int64_t{1}, "RR response size, bytes (-r ,resp)"},
      {"send_size", int64_t{1024}, "STREAM message size, bytes (-m)"},
      {"stack_cycles", int64_t{0},
       "model only: protocol-stack cycles per send (both directions of "
       "loopback); 0 = TCP 8000 / UDP 5000 (assumed)"},
      {"cycles_per_byte", kDefaultCyclesPerByte,
       "model only: copy cycles per payload byte and side (assumed)"},
      {"peer", std::string("loopback"),
       "loopback (netperf and netserver on this host) or remote (RR only: "
       "netperf on another host, netserver here)"},
      {"remote_us", 13.2,
       "model only: peer remote: the wire and the other host per "
       "transaction, us (fitted, docs/validation.md)"},
      {"server_cycles", int64_t{2000},
       "model only: peer remote: this host's cycles per transaction besides "
       "the copies and the stack (fitted, docs/validation.md)"},
      WorkCvParam(3.0, "assumed"),
  };
  m.metrics = {
      {"transactions_per_s", "trans/s", true, MeanKind::kHarmonic,
       "RR: transactions per second (netperf's Trans. Rate); STREAM: "
       "messages received per second"},
      {"latency_us", "us", false, MeanKind::kArithmetic,
       "RR: mean transaction round trip; STREAM: 0"},
      {"throughput_mbps", "Mbit/s", true, MeanKind::kHarmonic,
       "payload bits per second / 10^6 (STREAM: received; RR: request + "
       "response)"},
  };
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    absl::StatusOr<NetperfTest> test = ParseNetperfTest(p.GetString("test"));
    if (!test.ok()) return test.status();
    NetperfParams n;
    n.test = *test;
    const int64_t instances = p.GetInt("instances");
    if (absl::Status s =
            CheckIntParam("netperf", "instances", instances, 1, 100000);
        !s.ok()) {
      return s;
    }
    n.instances = static_cast<int>(instances);
    n.request_size = p.GetInt("request_size");
    n.response_size = p.GetInt("response_size");
    n.send_size = p.GetInt("send_size");
    n.stack_cycles = p.GetInt("stack_cycles");
    n.cycles_per_byte = p.GetDouble("cycles_per_byte");
    const std::string peer = p.GetString("peer");
    if (peer != "loopback" && peer != "remote") {
      return absl::InvalidArgumentError(absl::StrCat(
          "netperf: peer must be loopback or remote, got '", peer, "'"));
    }
    n.remote_peer = peer == "remote";
    const double remote_us = p.GetDouble("remote_us");
    if (absl::Status s =
            CheckDoubleParam("netperf", "remote_us", remote_us, 0.001, 1e9);
        !s.ok()) {
      return s;
    }
    n.remote_ns = static_cast<int64_t>(std::llround(remote_us * 1000.0));
    n.server_cycles = p.GetInt("server_cycles");
    return NetperfWorkload(n);
  };
  m.evaluate = [](const platform::Params& p, const sim::SimStats& stats) {
    absl::StatusOr<NetperfTest> test = ParseNetperfTest(p.GetString("test"));
    const bool rr = !test.ok() || IsRequestResponse(*test);
    const double rate = PerSecond(
        static_cast<double>(MetricCount(stats, kNetperfMetric)), stats);
    const double bytes = rr ? static_cast<double>(p.GetInt("request_size") +
                                                  p.GetInt("response_size"))
                            : static_cast<double>(p.GetInt("send_size"));
    return std::vector<MetricValue>{
        {"transactions_per_s", rate},
        {"latency_us", rr ? MeanUs(MetricLatency(stats, kNetperfMetric)) : 0},
        {"throughput_mbps", rate * bytes * 8.0 / 1e6},
    };
  };
  // Runs until stopped (-l): the transaction rate settles.
  SettleSpec settle;
  settle.rate_metric = 0;
  settle.count = [](const platform::Params&, const sim::SimStats& stats) {
    return static_cast<double>(MetricCount(stats, kNetperfMetric));
  };
  settle.derive = [](const platform::Params& p, double rate) {
    absl::StatusOr<NetperfTest> test = ParseNetperfTest(p.GetString("test"));
    const bool rr = !test.ok() || IsRequestResponse(*test);
    const double bytes = rr ? static_cast<double>(p.GetInt("request_size") +
                                                  p.GetInt("response_size"))
                            : static_cast<double>(p.GetInt("send_size"));
    return std::vector<std::pair<int, double>>{{2, rate * bytes * 8.0 / 1e6}};
  };
  m.settle = std::move(settle);
  return m;
}

WorkloadModel TbenchModel() {
  WorkloadModel m;
  m.name = "tbench";
  m.description =
      "tbench (dbench's network half): `clients` pairs of a client and a "
      "tbench_srv server over loopback sockets; each operation is a "
      "request/response with bytes_per_op of payload. Exercises wake-up "
      "placement of communicating pairs (wake_affine, the idle-CPU search "
      "as pairs fill the machine), idle exits and frequency of half-busy "
      "CPUs. Assumes an 8 KiB average payload, 5000 client and 10000 "
      "server cycles per op, TCP stack cycles and copy costs as netperf "
      "(all assumed).";
  m.params = {
      {"clients", int64_t{1}, "client/server pairs (tbench's nprocs)"},
      {"bytes_per_op", int64_t{8192},
       "model only: payload bytes per op (assumed loadfile average)"},
      {"client_cycles", int64_t{5000},
       "model only: client cycles per op (assumed)"},
      {"server_cycles", int64_t{10000},
       "model only: server cycles per op (assumed)"},
      WorkCvParam(5.0, "assumed"),
  };
  m.metrics = {
      {"throughput_mb_s", "MB/s", true, MeanKind::kHarmonic,
       "payload bytes per second / 10^6 (tbench's Throughput MB/sec)"},
      {"latency_ms", "ms", false, MeanKind::kArithmetic,
       "mean operation latency"},
      {"max_latency_ms", "ms", false, MeanKind::kArithmetic,
       "largest operation latency (tbench's max_latency)"},
  };
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    TbenchParams t;
    const int64_t clients = p.GetInt("clients");
    if (absl::Status s = CheckIntParam("tbench", "clients", clients, 1, 100000);
        !s.ok()) {
      return s;
    }
    t.clients = static_cast<int>(clients);
    t.bytes_per_op = p.GetInt("bytes_per_op");
    t.client_cycles = p.GetInt("client_cycles");
    t.server_cycles = p.GetInt("server_cycles");
    return TbenchWorkload(t);
  };
  m.evaluate = [](const platform::Params& p, const sim::SimStats& stats) {
    return OpThroughputAndLatency(stats, kTbenchOpMetric,
                                  p.GetInt("bytes_per_op"));
  };
  // Runs until stopped (-t): the throughput settles.
  SettleSpec settle;
  settle.rate_metric = 0;
  settle.count = [](const platform::Params& p, const sim::SimStats& stats) {
    return static_cast<double>(MetricCount(stats, kTbenchOpMetric)) *
           static_cast<double>(p.GetInt("bytes_per_op")) / 1e6;
  };
  m.settle = std::move(settle);
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(NetperfModel());
SCHEDSIM_REGISTER_WORKLOAD(TbenchModel());

}  // namespace schedsim::workloads
