// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Models of network benchmarks over loopback: netperf (TCP_RR, UDP_RR,
// TCP_STREAM, UDP_STREAM) and tbench (dbench's network half).
//
//   NetperfParams p;
//   p.test = NetperfTest::kTcpRr;
//   p.instances = 2;  // two netperf/netserver pairs
//   absl::StatusOr<sim::Workload> w = NetperfWorkload(p, topology);
//
// netperf. Each instance is a netperf (client) task and a netserver task
// joined by two socket channels (2i: client -> server, 2i+1: server ->
// client); one program per side, shared through TaskSpec::channel_base.
//
//   RR client:      loop { stamp; compute(tx(request_size)); send(0);
//                          recv(1); compute(rx(response_size));
//                          mark(transaction) }
//   RR server:      loop { recv(0); compute(rx(request_size) +
//                          tx(response_size)); send(1) }
//   STREAM client:  loop { compute(tx(send_size)); send(0) }
//   STREAM server:  loop { recv(0); compute(rx(send_size)); mark(message) }
//
// tx(n) = stack_cycles + n * cycles_per_byte is the sending side's
// protocol work: on loopback the sender's context also runs the receive
// softirq (netif_rx -> process_backlog), so the whole stack is charged
// there; rx(n) = n * cycles_per_byte is the copy to user space. The
// syscall itself is SimConfig::socket_op_ns per send and receive. Defaults
// (assumed, unpublished): stack_cycles 8000 for TCP (2.3 us at 3.5 GHz),
// 5000 for UDP; 0.35 cycles per byte (a ~10 GB/s copy at 3.5 GHz).
//
// A datagram socket that fills drops packets; the simulator's channels
// block the sender instead, so UDP_STREAM's throughput is that of a
// lossless stream (netperf reports the receive side, which this is).
// Channel capacity for streams: 212992 bytes (net.core.rmem_default) /
// (send_size + 768 bytes of skb overhead, assumed), at least 1.
//
// netperf with `peer` remote (RR tests): the client runs on another host,
// as in a test between two machines, and only this host, the one that
// runs netserver, is simulated. Each instance is one netserver task:
//
//   remote server:  loop { stamp; device_wait(remote_ns);
//                          compute(server_cycles + rx(request_size) +
//                                  tx(response_size)); mark(transaction) }
//
// The request arrives as the NIC's interrupt, whose receive softirq wakes
// netserver on the CPU it slept on (a device interrupt: not IO wait, not a
// timer the idle governor sees); server_cycles is this host's per
// transaction work besides the copies (the NIC driver, the TCP receive and
// send paths, the two syscalls). remote_ns, the wire and the other host's
// turnaround, is constant: what the other host's kernel does is not
// modelled.
//
// tbench. `clients` pairs of a tbench client and a tbench_srv task over
// sockets, each operation a request/response with `bytes_per_op` of
// payload (assumed 8 KiB average of the loadfile's ReadX/WriteX mix):
//
//   client:  loop { stamp; compute(client_cycles + tx(request)); send(0);
//                   recv(1); compute(rx(bytes_per_op)); mark(op) }
//   server:  loop { recv(0); compute(server_cycles + tx(bytes_per_op));
//                   send(1) }

#ifndef SCHEDSIM_WORKLOADS_NETPERF_H_
#define SCHEDSIM_WORKLOADS_NETPERF_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "sim/workload.h"
#include "topology/topology.h"
#include "workloads/model_registry.h"

namespace schedsim::workloads {

enum class NetperfTest { kTcpRr, kUdpRr, kTcpStream, kUdpStream };

// "TCP_RR" -> kTcpRr, ...; InvalidArgument listing the tests otherwise.
absl::StatusOr<NetperfTest> ParseNetperfTest(absl::string_view name);
const char* NetperfTestName(NetperfTest test);
bool IsRequestResponse(NetperfTest test);

inline constexpr int64_t kDefaultTcpStackCycles = 8000;  // assumed
inline constexpr int64_t kDefaultUdpStackCycles = 5000;  // assumed
inline constexpr double kDefaultCyclesPerByte = 0.35;    // assumed
// Metric 0 counts transactions (RR) or received messages (STREAM).
inline constexpr int kNetperfMetric = 0;

struct NetperfParams {
  NetperfTest test = NetperfTest::kTcpRr;
  int instances = 1;         // parallel netperf/netserver pairs
  int64_t request_size = 1;  // -r request,response (bytes)
  int64_t response_size = 1;
  int64_t send_size = 1024;  // -m, STREAM tests (bytes)
  int64_t stack_cycles = 0;  // 0 = the protocol's default
  double cycles_per_byte = kDefaultCyclesPerByte;
  // RR tests only: the client runs on another host (see the file comment).
  bool remote_peer = false;
  int64_t remote_ns = 0;      // the wire and the other host, per transaction
  int64_t server_cycles = 0;  // this host's CPU per transaction
};

absl::StatusOr<sim::Workload> NetperfWorkload(const NetperfParams& params);

struct TbenchParams {
  int clients = 1;
  int64_t bytes_per_op = 8192;    // assumed
  int64_t request_size = 256;     // assumed SMB request size
  int64_t client_cycles = 5000;   // per op, assumed
  int64_t server_cycles = 10000;  // per op, assumed
  int64_t stack_cycles = kDefaultTcpStackCycles;
  double cycles_per_byte = kDefaultCyclesPerByte;
};

inline constexpr int kTbenchOpMetric = 0;

absl::StatusOr<sim::Workload> TbenchWorkload(const TbenchParams& params);

// The registered models "netperf" and "tbench".
WorkloadModel NetperfModel();
WorkloadModel TbenchModel();

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_NETPERF_H_
