// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The task-program grammar of scenario files (program_json.h): channels,
// barriers, metrics, programs and their operations, tasks.

#include "experiments/program_json.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "sim/program.h"
#include "topology/cpuset.h"

namespace schedsim::experiments {
namespace {

// Ordered: programs get ids, and messages list names, in file order.
using Json = OrderedJson;

// Bounds that keep every simulated time within int64 nanoseconds.
constexpr int64_t kMaxDistValue = 1000000000000000;  // ns or cycles
constexpr double kMaxLogNormalSigma = 10.0;
constexpr int64_t kMaxCount = 1000000;  // tasks per entry, forks, capacity
constexpr int kMaxCpuId = 65535;

// --- Messages (experiments/json_util.h) -------------------------------------

std::string Field(const std::string& path, const std::string& key) {
  return JsonField(path, key);
}

std::string Element(const std::string& path, size_t index) {
  return JsonElement(path, index);
}

std::string Show(const Json& j) { return ShowJson(j); }

std::string Quoted(const std::vector<std::string>& names) {
  return QuotedNames(names);
}

std::string Suggestion(const std::string& got,
                       const std::vector<std::string>& known) {
  return DidYouMean(got, known);
}

// Names of one kind (programs, channels, ...) in definition order.
struct NameTable {
  const char* kind;    // "channel"
  const char* plural;  // "channels"
  std::vector<std::string> names;
  std::vector<std::string> paths;  // where each was defined
  std::map<std::string, int> ids;
};

// The JSON helpers (Error, ExpectObject, Int, ...) come from JsonFileReader.
class ProgramParser : private JsonFileReader {
 public:
  explicit ProgramParser(std::string filename)
      : JsonFileReader(std::move(filename)) {}

  // The sections, in this order: channels, barriers, devices, metrics,
  // programs, tasks.
  absl::Status Parse(const Json& root, sim::Workload& w);

 private:
  absl::StatusOr<sim::Dist> Dist(const Json& j, const std::string& path) const;
  absl::StatusOr<int64_t> DistParam(const Json& j, const std::string& path,
                                    int64_t lo) const;

  absl::Status Define(NameTable& table, const std::string& name,
                      const std::string& path) const;
  absl::StatusOr<int> Lookup(const NameTable& table, const Json& j,
                             const std::string& path) const;

  // Sections.
  absl::Status ParseChannels(const Json& j, sim::Workload& w);
  absl::Status ParseBarriers(const Json& j, sim::Workload& w);
  absl::Status ParseDevices(const Json& j, sim::Workload& w);
  absl::Status ParseMetrics(const Json& j, sim::Workload& w);
  absl::Status ParsePrograms(const Json& j, sim::Workload& w);
  absl::Status ParseOps(const Json& ops, const std::string& path, int depth,
                        sim::ProgramBuilder& b) const;
  absl::Status ParseOp(const Json& op, const std::string& path, int depth,
                       sim::ProgramBuilder& b) const;
  absl::Status ParseTasks(const Json& j, sim::Workload& w) const;

  NameTable programs_{"program", "programs", {}, {}, {}};
  NameTable channels_{"channel", "channels", {}, {}, {}};
  NameTable barriers_{"barrier", "barriers", {}, {}, {}};
  NameTable devices_{"device", "devices", {}, {}, {}};
  NameTable metrics_{"metric", "metrics", {}, {}, {}};
};

constexpr char kDistForms[] =
    "a distribution: a non-negative integer, or {\"constant\": v}, "
    "{\"uniform\": [lo, hi]}, {\"exponential\": mean}, {\"normal\": [mean, "
    "stddev]} or {\"lognormal\": [median, sigma]}";

absl::StatusOr<int64_t> ProgramParser::DistParam(const Json& j,
                                                 const std::string& path,
                                                 int64_t lo) const {
  return Int(j, path, lo, kMaxDistValue);
}

absl::StatusOr<sim::Dist> ProgramParser::Dist(const Json& j,
                                              const std::string& path) const {
  if (j.is_number()) {
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t v, DistParam(j, path, 0));
    return sim::Dist::Constant(v);
  }
  if (!j.is_object() || j.size() != 1) {
    return Error(path,
                 absl::StrCat("expected ", kDistForms, "; got ", Show(j)));
  }
  static const std::vector<std::string> kKinds = {
      "constant", "uniform", "exponential", "normal", "lognormal"};
  const std::string& kind = j.begin().key();
  const Json& v = j.begin().value();
  const std::string at = Field(path, kind);
  auto pair = [&](const char* first, const char* second)
      -> absl::StatusOr<std::pair<const Json*, const Json*>> {
    if (!v.is_array() || v.size() != 2) {
      return Error(at, absl::StrCat("expected [", first, ", ", second,
                                    "], got ", Show(v)));
    }
    return std::make_pair(&v[0], &v[1]);
  };
  if (kind == "constant") {
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t a, DistParam(v, at, 0));
    return sim::Dist::Constant(a);
  }
  if (kind == "exponential") {
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t mean, DistParam(v, at, 0));
    return sim::Dist::Exponential(mean);
  }
  if (kind == "uniform") {
    SCHEDSIM_ASSIGN_OR_RETURN(auto p, pair("lo", "hi"));
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t lo,
                              DistParam(*p.first, Element(at, 0), 0));
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t hi,
                              DistParam(*p.second, Element(at, 1), lo));
    return sim::Dist::Uniform(lo, hi);
  }
  if (kind == "normal") {
    SCHEDSIM_ASSIGN_OR_RETURN(auto p, pair("mean", "stddev"));
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t mean,
                              DistParam(*p.first, Element(at, 0), 0));
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t stddev,
                              DistParam(*p.second, Element(at, 1), 0));
    return sim::Dist::Normal(mean, stddev);
  }
  if (kind == "lognormal") {
    SCHEDSIM_ASSIGN_OR_RETURN(auto p, pair("median", "sigma"));
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t median,
                              DistParam(*p.first, Element(at, 0), 1));
    const Json& s = *p.second;
    if (!s.is_number() || !std::isfinite(s.get<double>()) ||
        s.get<double>() < 0 || s.get<double>() > kMaxLogNormalSigma) {
      return Error(Element(at, 1),
                   absl::StrCat("expected sigma, a number in 0..",
                                kMaxLogNormalSigma, ", got ", Show(s)));
    }
    return sim::Dist::LogNormal(
        median, static_cast<int64_t>(std::llround(s.get<double>() * 1000)));
  }
  return Error(
      path, absl::StrCat("unknown distribution '", kind, "'",
                         Suggestion(kind, kKinds), "; expected ", kDistForms));
}

absl::Status ProgramParser::Define(NameTable& table, const std::string& name,
                                   const std::string& path) const {
  auto [it, inserted] =
      table.ids.emplace(name, static_cast<int>(table.names.size()));
  if (!inserted) {
    return Error(
        path, absl::StrCat(table.kind, " '", name, "' is already defined at ",
                           table.paths[it->second]));
  }
  table.names.push_back(name);
  table.paths.push_back(path);
  return absl::OkStatus();
}

absl::StatusOr<int> ProgramParser::Lookup(const NameTable& table, const Json& j,
                                          const std::string& path) const {
  SCHEDSIM_ASSIGN_OR_RETURN(
      std::string name, Name(j, path, absl::StrCat("a ", table.kind, " name")));
  auto it = table.ids.find(name);
  if (it != table.ids.end()) return it->second;
  if (table.names.empty()) {
    return Error(
        path,
        absl::StrCat("unknown ", table.kind, " '", name, "'; no ", table.plural,
                     " are defined (add them under \"", table.plural, "\")"));
  }
  return Error(path,
               absl::StrCat("unknown ", table.kind, " '", name, "'",
                            Suggestion(name, table.names), "; ", table.plural,
                            ": ", absl::StrJoin(table.names, ", ")));
}

absl::Status ProgramParser::ParseChannels(const Json& j, sim::Workload& w) {
  SCHEDSIM_RETURN_IF_ERROR(ExpectArray(j, "channels", "channel objects"));
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string path = Element("channels", i);
    const Json& c = j[i];
    SCHEDSIM_RETURN_IF_ERROR(ExpectObject(c, path, "a channel"));
    SCHEDSIM_RETURN_IF_ERROR(
        CheckKeys(c, path, {"name", "kind", "capacity", "initial_messages"},
                  "a channel"));
    if (!c.contains("name")) {
      return Error(path, "missing \"name\" (the channel's name)");
    }
    sim::ChannelSpec spec;
    SCHEDSIM_ASSIGN_OR_RETURN(
        spec.name, Name(c["name"], Field(path, "name"), "a channel name"));
    SCHEDSIM_RETURN_IF_ERROR(Define(channels_, spec.name, path));
    if (c.contains("kind")) {
      SCHEDSIM_ASSIGN_OR_RETURN(std::string kind,
                                String(c["kind"], Field(path, "kind")));
      if (kind == "pipe") {
        spec.kind = sim::ChannelSpec::Kind::kPipe;
      } else if (kind == "socket") {
        spec.kind = sim::ChannelSpec::Kind::kSocket;
      } else {
        return Error(Field(path, "kind"),
                     absl::StrCat("expected \"pipe\" or \"socket\", got \"",
                                  kind, "\""));
      }
    }
    if (c.contains("capacity")) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          int64_t capacity,
          Int(c["capacity"], Field(path, "capacity"), 1, kMaxCount));
      spec.capacity = static_cast<int>(capacity);
    }
    if (c.contains("initial_messages")) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          int64_t initial,
          Int(c["initial_messages"], Field(path, "initial_messages"), 0,
              spec.capacity));
      spec.initial_messages = static_cast<int>(initial);
    }
    w.channels.push_back(spec);
  }
  return absl::OkStatus();
}

absl::Status ProgramParser::ParseBarriers(const Json& j, sim::Workload& w) {
  SCHEDSIM_RETURN_IF_ERROR(ExpectArray(j, "barriers", "barrier objects"));
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string path = Element("barriers", i);
    const Json& b = j[i];
    SCHEDSIM_RETURN_IF_ERROR(ExpectObject(b, path, "a barrier"));
    SCHEDSIM_RETURN_IF_ERROR(
        CheckKeys(b, path, {"name", "parties"}, "a barrier"));
    if (!b.contains("name")) {
      return Error(path, "missing \"name\" (the barrier's name)");
    }
    if (!b.contains("parties")) {
      return Error(path,
                   "missing \"parties\" (how many tasks the barrier waits "
                   "for)");
    }
    sim::BarrierSpec spec;
    SCHEDSIM_ASSIGN_OR_RETURN(
        spec.name, Name(b["name"], Field(path, "name"), "a barrier name"));
    SCHEDSIM_RETURN_IF_ERROR(Define(barriers_, spec.name, path));
    SCHEDSIM_ASSIGN_OR_RETURN(
        int64_t parties,
        Int(b["parties"], Field(path, "parties"), 1, kMaxCount));
    spec.parties = static_cast<int>(parties);
    w.barriers.push_back(spec);
  }
  return absl::OkStatus();
}

absl::Status ProgramParser::ParseDevices(const Json& j, sim::Workload& w) {
  SCHEDSIM_RETURN_IF_ERROR(ExpectArray(j, "devices", "device objects"));
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string path = Element("devices", i);
    const Json& d = j[i];
    SCHEDSIM_RETURN_IF_ERROR(ExpectObject(d, path, "a device"));
    SCHEDSIM_RETURN_IF_ERROR(
        CheckKeys(d, path, {"name", "request_ns", "mb_s", "max_request_kib"},
                  "a device"));
    if (!d.contains("name")) {
      return Error(path, "missing \"name\" (the device's name)");
    }
    sim::DeviceSpec spec;
    SCHEDSIM_ASSIGN_OR_RETURN(
        spec.name, Name(d["name"], Field(path, "name"), "a device name"));
    SCHEDSIM_RETURN_IF_ERROR(Define(devices_, spec.name, path));
    if (d.contains("request_ns")) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          spec.request_ns,
          Int(d["request_ns"], Field(path, "request_ns"), 0, 1000000000));
    }
    if (d.contains("mb_s")) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          spec.bytes_per_us, Int(d["mb_s"], Field(path, "mb_s"), 1, 1000000));
    }
    if (d.contains("max_request_kib")) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          int64_t kib, Int(d["max_request_kib"], Field(path, "max_request_kib"),
                           1, int64_t{1} << 20));
      spec.max_request_bytes = kib * 1024;
    }
    w.devices.push_back(spec);
  }
  return absl::OkStatus();
}

absl::Status ProgramParser::ParseMetrics(const Json& j, sim::Workload& w) {
  SCHEDSIM_RETURN_IF_ERROR(ExpectArray(j, "metrics", "metric names"));
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string path = Element("metrics", i);
    SCHEDSIM_ASSIGN_OR_RETURN(std::string name,
                              Name(j[i], path, "a metric name"));
    SCHEDSIM_RETURN_IF_ERROR(Define(metrics_, name, path));
    w.metrics.push_back(name);
  }
  return absl::OkStatus();
}

const std::vector<std::string>& OpKeys() {
  static const auto* keys = new std::vector<std::string>{
      "compute", "sleep_ns",   "io_wait_ns", "device_wait_ns", "io",   "send",
      "recv",    "send_batch", "recv_batch", "barrier",        "fork", "exec",
      "loop",    "mark"};
  return *keys;
}

const std::vector<std::string>& BareOps() {
  static const auto* ops =
      new std::vector<std::string>{"yield", "exit", "stamp"};
  return *ops;
}

std::string OpForms() {
  return absl::StrCat("an operation: one of the strings ", Quoted(BareOps()),
                      ", or an object keyed by one of ", Quoted(OpKeys()));
}

absl::Status ProgramParser::ParseOps(const Json& ops, const std::string& path,
                                     int depth, sim::ProgramBuilder& b) const {
  SCHEDSIM_RETURN_IF_ERROR(ExpectArray(ops, path, "a list of operations"));
  for (size_t i = 0; i < ops.size(); ++i) {
    SCHEDSIM_RETURN_IF_ERROR(ParseOp(ops[i], Element(path, i), depth, b));
  }
  return absl::OkStatus();
}

absl::Status ProgramParser::ParseOp(const Json& op, const std::string& path,
                                    int depth, sim::ProgramBuilder& b) const {
  if (op.is_string()) {
    const std::string name = op.get<std::string>();
    if (name == "yield") {
      b.Yield();
    } else if (name == "exit") {
      b.Exit();
    } else if (name == "stamp") {
      b.Stamp();
    } else {
      std::vector<std::string> all = BareOps();
      all.insert(all.end(), OpKeys().begin(), OpKeys().end());
      return Error(
          path, absl::StrCat("unknown operation '", name, "'",
                             Suggestion(name, all), "; expected ", OpForms()));
    }
    return absl::OkStatus();
  }
  if (!op.is_object()) {
    return Error(path,
                 absl::StrCat("expected ", OpForms(), "; got ", Show(op)));
  }
  std::vector<std::string> present;
  for (const auto& item : op.items()) {
    if (std::find(OpKeys().begin(), OpKeys().end(), item.key()) !=
        OpKeys().end()) {
      present.push_back(item.key());
    }
  }
  if (present.size() > 1) {
    return Error(path, absl::StrCat("one operation per object; this one has ",
                                    Quoted(present)));
  }
  if (present.empty()) {
    std::vector<std::string> keys;
    for (const auto& item : op.items()) keys.push_back(item.key());
    std::string hint =
        keys.size() == 1 ? Suggestion(keys[0], OpKeys()) : std::string();
    return Error(path, absl::StrCat("expected ", OpForms(), "; got keys ",
                                    Quoted(keys), hint));
  }
  const std::string& code = present[0];
  const Json& v = op[code];
  const std::string at = Field(path, code);
  // The keys each operation takes besides its own.
  static const auto* kExtra =
      new std::multimap<std::string, std::string>{{"barrier", "spin_ns"},
                                                  {"fork", "count"},
                                                  {"loop", "body"},
                                                  {"io", "bytes"},
                                                  {"io", "flush_ns"}};
  std::vector<std::string> allowed = {code};
  auto [first, last] = kExtra->equal_range(code);
  for (auto extra = first; extra != last; ++extra) {
    allowed.push_back(extra->second);
  }
  SCHEDSIM_RETURN_IF_ERROR(
      CheckKeys(op, path, allowed, absl::StrCat("a \"", code, "\" operation")));

  if (code == "compute") {
    SCHEDSIM_RETURN_IF_ERROR(ExpectObject(
        v, at, "{\"cycles\": distribution, \"stall_ns\": distribution}"));
    SCHEDSIM_RETURN_IF_ERROR(
        CheckKeys(v, at, {"cycles", "stall_ns"}, "\"compute\""));
    if (!v.contains("cycles")) {
      return Error(at,
                   "missing \"cycles\" (CPU cycles to run, a distribution)");
    }
    SCHEDSIM_ASSIGN_OR_RETURN(sim::Dist cycles,
                              Dist(v["cycles"], Field(at, "cycles")));
    sim::Dist stall = sim::Dist::Constant(0);
    if (v.contains("stall_ns")) {
      SCHEDSIM_ASSIGN_OR_RETURN(stall,
                                Dist(v["stall_ns"], Field(at, "stall_ns")));
    }
    // Always 0: a compute that takes no time could spin the simulator.
    auto zero = [](const sim::Dist& d) {
      using K = sim::Dist::Kind;
      return d.a == 0 &&
             (d.kind == K::kConstant || d.kind == K::kExponential ||
              ((d.kind == K::kUniform || d.kind == K::kNormal) && d.b == 0));
    };
    if (zero(cycles) && zero(stall)) {
      return Error(at, "a compute of 0 cycles and 0 ns of stall does nothing");
    }
    b.Compute(cycles, stall);
  } else if (code == "sleep_ns") {
    SCHEDSIM_ASSIGN_OR_RETURN(sim::Dist d, Dist(v, at));
    b.Sleep(d);
  } else if (code == "io_wait_ns") {
    SCHEDSIM_ASSIGN_OR_RETURN(sim::Dist d, Dist(v, at));
    b.IoWait(d);
  } else if (code == "device_wait_ns") {
    SCHEDSIM_ASSIGN_OR_RETURN(sim::Dist d, Dist(v, at));
    b.DeviceWait(d);
  } else if (code == "io") {
    SCHEDSIM_ASSIGN_OR_RETURN(int device, Lookup(devices_, v, at));
    if (!op.contains("bytes")) {
      return Error(path,
                   "missing \"bytes\" (what the IO writes, a distribution)");
    }
    SCHEDSIM_ASSIGN_OR_RETURN(sim::Dist bytes,
                              Dist(op["bytes"], Field(path, "bytes")));
    sim::Dist flush = sim::Dist::Constant(0);
    if (op.contains("flush_ns")) {
      SCHEDSIM_ASSIGN_OR_RETURN(flush,
                                Dist(op["flush_ns"], Field(path, "flush_ns")));
    }
    b.Io(device, bytes, flush);
  } else if (code == "send") {
    SCHEDSIM_ASSIGN_OR_RETURN(int channel, Lookup(channels_, v, at));
    b.Send(channel);
  } else if (code == "recv") {
    SCHEDSIM_ASSIGN_OR_RETURN(int channel, Lookup(channels_, v, at));
    b.Recv(channel);
  } else if (code == "send_batch") {
    SCHEDSIM_ASSIGN_OR_RETURN(int channel, Lookup(channels_, v, at));
    b.SendBatch(channel);
  } else if (code == "recv_batch") {
    SCHEDSIM_ASSIGN_OR_RETURN(int channel, Lookup(channels_, v, at));
    b.RecvBatch(channel);
  } else if (code == "barrier") {
    SCHEDSIM_ASSIGN_OR_RETURN(int barrier, Lookup(barriers_, v, at));
    sim::Dist spin = sim::Dist::Constant(0);
    if (op.contains("spin_ns")) {
      SCHEDSIM_ASSIGN_OR_RETURN(spin,
                                Dist(op["spin_ns"], Field(path, "spin_ns")));
    }
    b.Barrier(barrier, spin);
  } else if (code == "fork") {
    SCHEDSIM_ASSIGN_OR_RETURN(int program, Lookup(programs_, v, at));
    int64_t count = 1;
    if (op.contains("count")) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          count, Int(op["count"], Field(path, "count"), 1, kMaxCount));
    }
    b.Fork(program, static_cast<int>(count));
  } else if (code == "exec") {
    SCHEDSIM_ASSIGN_OR_RETURN(int program, Lookup(programs_, v, at));
    b.Exec(program);
  } else if (code == "mark") {
    SCHEDSIM_ASSIGN_OR_RETURN(int metric, Lookup(metrics_, v, at));
    b.Mark(metric);
  } else {  // loop
    SCHEDSIM_ASSIGN_OR_RETURN(
        int64_t count, Int(v, at, 0, std::numeric_limits<int32_t>::max()));
    if (depth >= sim::kMaxLoopDepth) {
      return Error(at, absl::StrCat("loops nest more than ", sim::kMaxLoopDepth,
                                    " deep"));
    }
    const std::string body_path = Field(path, "body");
    if (!op.contains("body")) {
      return Error(path, "missing \"body\" (the operations to repeat)");
    }
    const Json& body = op["body"];
    SCHEDSIM_RETURN_IF_ERROR(
        ExpectArray(body, body_path, "a list of operations"));
    if (body.empty()) return Error(body_path, "a loop body must not be empty");
    b.Loop(count);
    SCHEDSIM_RETURN_IF_ERROR(ParseOps(body, body_path, depth + 1, b));
    b.EndLoop();
  }
  return absl::OkStatus();
}

absl::Status ProgramParser::ParsePrograms(const Json& j, sim::Workload& w) {
  SCHEDSIM_RETURN_IF_ERROR(ExpectObject(
      j, "programs", "program names, each with a list of operations"));
  // Pass 1: names, so that programs can fork programs defined later.
  for (const auto& item : j.items()) {
    const std::string path = Field("programs", item.key());
    if (item.key().empty()) return Error("programs", "empty program name");
    SCHEDSIM_RETURN_IF_ERROR(Define(programs_, item.key(), path));
  }
  // Pass 2: the operations.
  for (const auto& item : j.items()) {
    const std::string path = Field("programs", item.key());
    sim::ProgramBuilder b(item.key());
    SCHEDSIM_RETURN_IF_ERROR(ParseOps(item.value(), path, 0, b));
    absl::StatusOr<sim::Program> program = b.Build();
    if (!program.ok())
      return Error(path, std::string(program.status().message()));
    w.programs.push_back(*std::move(program));
  }
  return absl::OkStatus();
}

absl::Status ProgramParser::ParseTasks(const Json& j, sim::Workload& w) const {
  SCHEDSIM_RETURN_IF_ERROR(ExpectArray(j, "tasks", "task objects"));
  static const auto* kKeys = new std::vector<std::string>{
      "name",       "program",     "count",    "nice",
      "policy",     "rt_priority", "affinity", "start_cpu",
      "uclamp_min", "uclamp_max",  "slice_us", "mm"};
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string path = Element("tasks", i);
    const Json& t = j[i];
    SCHEDSIM_RETURN_IF_ERROR(ExpectObject(t, path, "a task"));
    SCHEDSIM_RETURN_IF_ERROR(CheckKeys(t, path, *kKeys, "a task"));
    if (!t.contains("program")) {
      return Error(path,
                   "missing \"program\" (the name of the program the "
                   "task runs)");
    }
    sim::TaskSpec spec;
    SCHEDSIM_ASSIGN_OR_RETURN(
        spec.program, Lookup(programs_, t["program"], Field(path, "program")));
    spec.name = programs_.names[spec.program];
    if (t.contains("name")) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          spec.name, Name(t["name"], Field(path, "name"), "a task name"));
    }
    auto integer = [&](const char* key, int64_t lo, int64_t hi,
                       int* out) -> absl::Status {
      if (!t.contains(key)) return absl::OkStatus();
      SCHEDSIM_ASSIGN_OR_RETURN(int64_t v,
                                Int(t[key], Field(path, key), lo, hi));
      *out = static_cast<int>(v);
      return absl::OkStatus();
    };
    SCHEDSIM_RETURN_IF_ERROR(integer("count", 0, kMaxCount, &spec.count));
    SCHEDSIM_RETURN_IF_ERROR(integer("nice", -20, 19, &spec.nice));
    if (t.contains("policy")) {
      SCHEDSIM_ASSIGN_OR_RETURN(std::string policy,
                                String(t["policy"], Field(path, "policy")));
      if (policy == "normal") {
        spec.policy = sim::SchedPolicy::kNormal;
      } else if (policy == "idle") {
        spec.policy = sim::SchedPolicy::kIdle;
      } else if (policy == "fifo") {
        spec.policy = sim::SchedPolicy::kFifo;
      } else {
        return Error(Field(path, "policy"),
                     absl::StrCat("expected \"normal\", \"idle\" or \"fifo\", "
                                  "got \"",
                                  policy, "\""));
      }
    }
    SCHEDSIM_RETURN_IF_ERROR(integer("rt_priority", 1, 99, &spec.rt_priority));
    if (spec.policy == sim::SchedPolicy::kFifo && !t.contains("rt_priority")) {
      return Error(path, "policy \"fifo\" needs an rt_priority (1..99)");
    }
    if (spec.policy != sim::SchedPolicy::kFifo && t.contains("rt_priority")) {
      return Error(Field(path, "rt_priority"),
                   "only a task with policy \"fifo\" has an rt_priority");
    }
    if (t.contains("affinity")) {
      const std::string at = Field(path, "affinity");
      SCHEDSIM_ASSIGN_OR_RETURN(spec.affinity, String(t["affinity"], at));
      absl::StatusOr<topology::CpuSet> set =
          topology::CpuSet::ParseList(spec.affinity, kMaxCpuId + 1);
      if (!set.ok()) {
        return Error(
            at, absl::StrCat(set.status().message(), " (\"\" = all CPUs)"));
      }
    }
    SCHEDSIM_RETURN_IF_ERROR(
        integer("start_cpu", -1, kMaxCpuId, &spec.start_cpu));
    SCHEDSIM_RETURN_IF_ERROR(integer("uclamp_min", -1, 1024, &spec.uclamp_min));
    SCHEDSIM_RETURN_IF_ERROR(integer("uclamp_max", -1, 1024, &spec.uclamp_max));
    SCHEDSIM_RETURN_IF_ERROR(integer("mm", -1, 1000000, &spec.mm));
    if (t.contains("slice_us")) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          int64_t us, Int(t["slice_us"], Field(path, "slice_us"), 100, 100000));
      spec.slice_ns = us * 1000;
    }
    if (spec.uclamp_min >= 0 && spec.uclamp_max >= 0 &&
        spec.uclamp_min > spec.uclamp_max) {
      return Error(path,
                   absl::StrCat("uclamp_min ", spec.uclamp_min,
                                " is above uclamp_max ", spec.uclamp_max));
    }
    w.tasks.push_back(spec);
  }
  return absl::OkStatus();
}

absl::Status ProgramParser::Parse(const Json& root, sim::Workload& w) {
  if (root.contains("channels")) {
    SCHEDSIM_RETURN_IF_ERROR(ParseChannels(root["channels"], w));
  }
  if (root.contains("barriers")) {
    SCHEDSIM_RETURN_IF_ERROR(ParseBarriers(root["barriers"], w));
  }
  if (root.contains("devices")) {
    SCHEDSIM_RETURN_IF_ERROR(ParseDevices(root["devices"], w));
  }
  if (root.contains("metrics")) {
    SCHEDSIM_RETURN_IF_ERROR(ParseMetrics(root["metrics"], w));
  }
  if (root.contains("programs")) {
    SCHEDSIM_RETURN_IF_ERROR(ParsePrograms(root["programs"], w));
  }
  if (root.contains("tasks")) {
    SCHEDSIM_RETURN_IF_ERROR(ParseTasks(root["tasks"], w));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ParseTaskPrograms(const std::string& filename,
                               const OrderedJson& root,
                               sim::Workload* workload) {
  return ProgramParser(filename).Parse(root, *workload);
}

}  // namespace schedsim::experiments
