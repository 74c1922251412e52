// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// netperf and tbench: program shapes and loopback throughput bounded by the
// simulator's costs.

#include "workloads/netperf.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/config.h"
#include "sim/program.h"
#include "workloads/model_test_util.h"

namespace schedsim::workloads {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(NetperfWorkloadTest, RequestResponseShape) {
  NetperfParams p;
  p.instances = 3;
  p.request_size = 1000;
  p.response_size = 2000;
  absl::StatusOr<sim::Workload> w = NetperfWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_EQ(w->tasks.size(), 6u);
  ASSERT_EQ(w->channels.size(), 6u);
  ASSERT_EQ(w->programs.size(), 2u);
  EXPECT_THAT(w->metrics, ElementsAre("transaction"));
  for (const sim::ChannelSpec& ch : w->channels) {
    EXPECT_EQ(ch.kind, sim::ChannelSpec::Kind::kSocket);
  }
  EXPECT_EQ(w->tasks[4].name, "netperf/2");
  EXPECT_EQ(w->tasks[4].channel_base, 4);
  EXPECT_EQ(w->tasks[5].name, "netserver/2");
  using C = sim::OpCode;
  const sim::Program& client = w->programs[0];
  EXPECT_THAT(OpCodes(client),
              ElementsAre(C::kLoop, C::kStamp, C::kCompute, C::kSend, C::kRecv,
                          C::kCompute, C::kMark, C::kEndLoop, C::kExit));
  // tx(1000) = TCP stack + 1000 * 0.35; rx(2000) = 2000 * 0.35.
  EXPECT_EQ(client.ops[2].d1.a, kDefaultTcpStackCycles + 350);
  EXPECT_EQ(client.ops[5].d1.a, 700);
  const sim::Program& server = w->programs[1];
  EXPECT_THAT(OpCodes(server), ElementsAre(C::kLoop, C::kRecv, C::kCompute,
                                           C::kSend, C::kEndLoop, C::kExit));
  EXPECT_EQ(server.ops[2].d1.a, 350 + kDefaultTcpStackCycles + 700);
}

TEST(NetperfWorkloadTest, StreamShapeAndCapacity) {
  NetperfParams p;
  p.test = NetperfTest::kUdpStream;
  p.send_size = 4096;
  absl::StatusOr<sim::Workload> w = NetperfWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_THAT(w->metrics, ElementsAre("message"));
  EXPECT_EQ(w->channels[0].capacity, 212992 / (4096 + 768));
  using C = sim::OpCode;
  EXPECT_THAT(
      OpCodes(w->programs[0]),
      ElementsAre(C::kLoop, C::kCompute, C::kSend, C::kEndLoop, C::kExit));
  EXPECT_EQ(w->programs[0].ops[1].d1.a,
            kDefaultUdpStackCycles + static_cast<int64_t>(4096 * 0.35 + 0.5));
  EXPECT_THAT(OpCodes(w->programs[1]),
              ElementsAre(C::kLoop, C::kRecv, C::kCompute, C::kMark,
                          C::kEndLoop, C::kExit));
}

TEST(NetperfWorkloadTest, ParsesTestNames) {
  for (const char* name : {"TCP_RR", "UDP_RR", "TCP_STREAM", "UDP_STREAM"}) {
    absl::StatusOr<NetperfTest> t = ParseNetperfTest(name);
    ASSERT_TRUE(t.ok()) << name;
    EXPECT_STREQ(NetperfTestName(*t), name);
  }
  absl::StatusOr<NetperfTest> bad = ParseNetperfTest("TCP_CRR");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("TCP_RR, UDP_RR"));
}

ModelRun Netperf(const std::map<std::string, platform::ParamValue>& params,
                 int64_t pm_qos_latency_ns, const char* idle = "menu") {
  RunOptions o;
  o.idle = idle;
  o.config.pm_qos_latency_ns = pm_qos_latency_ns;
  o.duration_ms = 50;
  absl::StatusOr<ModelRun> r = RunModel("netperf", params, o);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ModelRun();
}

// One transaction is two half trips; each costs at least the sender's send
// and the receiver's receive (socket ops), the waker's wake-up cost and the
// protocol stack's cycles at the highest frequency. With POLL only
// (cpu_dma_latency = 0) there is no idle exit, so the rate is within a
// small factor of that bound.
TEST(NetperfModelTest, TcpRrIsBoundedByTheRoundTripCosts) {
  const ModelRun r = Netperf({{"test", std::string("TCP_RR")}}, 0);
  const sim::SimConfig c;
  const double max_ghz =
      Machine("skylake-e3-1240v5").frequency().max_turbo_khz / 1e6;
  const double half_ns = 2.0 * static_cast<double>(c.socket_op_ns) +
                         static_cast<double>(c.wakeup_cost_ns) +
                         static_cast<double>(kDefaultTcpStackCycles) / max_ghz;
  const double bound = 1e9 / (2 * half_ns);
  const double tps = r.metrics.at("transactions_per_s");
  EXPECT_LE(tps, bound);
  EXPECT_GE(tps, bound / 3);
  EXPECT_THAT(r.metrics.at("latency_us"), DoubleNear(1e6 / tps, 0.02e6 / tps));
  EXPECT_THAT(r.metrics.at("throughput_mbps"),
              DoubleNear(tps * 2 * 8 / 1e6, 1e-9));
}

// Seed 003's direction: letting the idle governor use deep C-states costs
// TCP_RR throughput against a PM QoS cap of 0.
TEST(NetperfModelTest, DeepIdleStatesCostTcpRr) {
  const double poll = Netperf({{"test", std::string("TCP_RR")}}, 0)
                          .metrics.at("transactions_per_s");
  const double deep = Netperf({{"test", std::string("TCP_RR")}}, -1)
                          .metrics.at("transactions_per_s");
  EXPECT_LT(deep, poll);
}

// With a remote peer only netserver runs here: one task per instance,
// woken by the NIC's interrupt (a device wait, not IO wait) after the
// round trip, so a transaction takes at least remote_us and this host's
// work. Polling saves the idle exit and, as the CPU then counts as busy,
// HWP runs it faster: the same direction as on loopback.
TEST(NetperfModelTest, RemotePeerLeavesOnlyTheServerHere) {
  const std::map<std::string, platform::ParamValue> remote = {
      {"test", std::string("TCP_RR")}, {"peer", std::string("remote")}};
  const ModelRun r = Netperf(remote, -1);
  ASSERT_EQ(r.stats.tasks.size(), 1u);
  EXPECT_EQ(r.stats.tasks[0].name, "netserver/0");
  EXPECT_EQ(r.stats.tasks[0].iowait_ns, 0);
  const double tps = r.metrics.at("transactions_per_s");
  EXPECT_LT(tps, 1e6 / 13.2);
  EXPECT_GT(tps, 0.5e6 / 13.2);
  const double poll = Netperf(remote, 0).metrics.at("transactions_per_s");
  EXPECT_GT(poll, 1.03 * tps);
  // Only the RR tests have a remote form; the peer is named.
  absl::StatusOr<ModelRun> stream = RunModel(
      "netperf",
      {{"test", std::string("TCP_STREAM")}, {"peer", std::string("remote")}},
      {});
  ASSERT_FALSE(stream.ok());
  EXPECT_THAT(stream.status().message(), HasSubstr("RR tests only"));
  absl::StatusOr<ModelRun> bad =
      RunModel("netperf", {{"peer", std::string("lan")}}, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              HasSubstr("peer must be loopback or remote, got 'lan'"));
}

TEST(NetperfModelTest, UdpCostsLessThanTcpAndInstancesScale) {
  const double tcp = Netperf({{"test", std::string("TCP_RR")}}, 0)
                         .metrics.at("transactions_per_s");
  const double udp = Netperf({{"test", std::string("UDP_RR")}}, 0)
                         .metrics.at("transactions_per_s");
  EXPECT_GT(udp, tcp);
  const double four =
      Netperf({{"test", std::string("TCP_RR")}, {"instances", int64_t{4}}}, 0)
          .metrics.at("transactions_per_s");
  EXPECT_GT(four, 2 * tcp);
}

TEST(NetperfModelTest, StreamThroughputGrowsWithMessageSize) {
  const ModelRun small = Netperf(
      {{"test", std::string("UDP_STREAM")}, {"send_size", int64_t{64}}}, 0);
  const ModelRun large = Netperf(
      {{"test", std::string("UDP_STREAM")}, {"send_size", int64_t{16384}}}, 0);
  EXPECT_GT(small.metrics.at("transactions_per_s"),
            large.metrics.at("transactions_per_s"));
  EXPECT_GT(large.metrics.at("throughput_mbps"),
            4 * small.metrics.at("throughput_mbps"));
  EXPECT_EQ(large.metrics.at("latency_us"), 0);
  EXPECT_THAT(
      large.metrics.at("throughput_mbps"),
      DoubleNear(large.metrics.at("transactions_per_s") * 16384 * 8 / 1e6,
                 1e-6));
}

TEST(TbenchModelTest, ThroughputGrowsWithClients) {
  RunOptions o;
  o.duration_ms = 50;
  absl::StatusOr<ModelRun> one = RunModel("tbench", {}, o);
  ASSERT_TRUE(one.ok()) << one.status();
  absl::StatusOr<ModelRun> four =
      RunModel("tbench", {{"clients", int64_t{4}}}, o);
  ASSERT_TRUE(four.ok()) << four.status();
  EXPECT_GT(one->metrics.at("throughput_mb_s"), 10);
  EXPECT_GT(four->metrics.at("throughput_mb_s"),
            2 * one->metrics.at("throughput_mb_s"));
  EXPECT_GE(one->metrics.at("max_latency_ms"), one->metrics.at("latency_ms"));
  EXPECT_EQ(four->stats.tasks.size(), 8u);
}

}  // namespace
}  // namespace schedsim::workloads
