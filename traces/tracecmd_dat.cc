// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/tracecmd_dat.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <mutex>  // NOLINT(build/c++11)
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "base/child_wait.h"
#include "base/input_file.h"

// libtracecmd (trace-cmd.h) and libtraceevent (event-parse.h, trace-seq.h),
// from /usr/include/{trace-cmd,traceevent,tracefs} (@system//:tracecmd).
// trace-cmd.h includes libtracefs's tracefs.h, which is not valid C++ (in
// 1.6.4 an inline function passes an int as an enum) and not needed to read
// files: its include guard is defined first so that its body is skipped;
// trace-cmd.h needs only cpu_set_t from it (<sched.h>).
#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#define _TRACE_FS_H  // NOLINT: libtracefs's guard, see above
#include "event-parse.h"
#include "trace-cmd.h"
#include "trace-seq.h"

namespace schedsim::traces {
namespace {

// The fields read for each known event type, in the order Fill() uses them.
// A name ending in '?' is optional (null when the format lacks it).
const std::vector<const char*>& FieldNames(EventType type) {
  static const auto* const kNames = new std::vector<std::vector<const char*>>{
      // kSchedSwitch
      {"prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm",
       "next_pid", "next_prio"},
      // kSchedWakeup, kSchedWakeupNew, kSchedWaking
      {"comm", "pid", "prio", "target_cpu", "success?"},
      {"comm", "pid", "prio", "target_cpu", "success?"},
      {"comm", "pid", "prio", "target_cpu", "success?"},
      // kSchedMigrateTask
      {"comm", "pid", "prio", "orig_cpu", "dest_cpu"},
      // kCpuIdle, kCpuFrequency
      {"state", "cpu_id"},
      {"state", "cpu_id"},
      // kSchedProcessFork
      {"parent_comm", "parent_pid", "child_comm", "child_pid"},
      // kSchedProcessExit
      {"comm", "pid", "prio"},
  };
  return (*kNames)[static_cast<int>(type)];
}

// What the reader knows about one event id of the file.
struct EventInfo {
  tep_event* event = nullptr;  // null: the file has no such format
  EventType type = EventType::kUnknown;
  std::string name;
  // The fields of FieldNames(type), in that order (null: optional, absent).
  std::vector<tep_format_field*> fields;
  // Set when the format lacks a required field.
  std::string missing_field;
};

// Reads a number field of `record`, sign-extended when the format says it is
// signed. False when the record is too short or the size is not 1/2/4/8.
bool ReadNumber(tep_format_field* field, const tep_record* record,
                int64_t* out) {
  if (field->offset < 0 || field->size <= 0 || field->size > 8 ||
      field->offset > record->size - field->size) {
    return false;
  }
  unsigned long long value = 0;  // NOLINT(runtime/int): libtraceevent's type
  if (tep_read_number_field(field, record->data, &value) != 0) return false;
  uint64_t bits = value;
  if ((field->flags & TEP_FIELD_IS_SIGNED) && field->size < 8) {
    const int shift = 64 - 8 * field->size;
    bits = static_cast<uint64_t>(static_cast<int64_t>(bits << shift) >> shift);
  }
  *out = static_cast<int64_t>(bits);
  return true;
}

// Reads a char-array field (fixed `char comm[16]` or `__data_loc char[]`)
// of `record`, up to its first NUL. The view points into the record.
bool ReadString(tep_format_field* field, const tep_record* record,
                absl::string_view* out) {
  const char* data = static_cast<const char*>(record->data);
  int64_t offset = field->offset;
  int64_t length = field->size;
  if (field->flags & TEP_FIELD_IS_DYNAMIC) {
    // A 32-bit "data location": length << 16 | offset, the offset relative
    // to the end of the field with __rel_loc.
    if (field->size != 4 || field->offset < 0 ||
        field->offset > record->size - 4) {
      return false;
    }
    unsigned long long loc = 0;  // NOLINT(runtime/int)
    if (tep_read_number_field(field, record->data, &loc) != 0) return false;
    offset = loc & 0xffff;
    length = (loc >> 16) & 0xffff;
    if (field->flags & TEP_FIELD_IS_RELATIVE) {
      offset += field->offset + field->size;
    }
  }
  if (offset < 0 || length < 0 || offset + length > record->size) return false;
  *out = absl::string_view(data + offset, strnlen(data + offset, length));
  return true;
}

// prev_state as the kernel's sched_switch TP_printk prints it (since Linux
// 4.14: TASK_REPORT bits S D T t X Z P I, "+" for TASK_REPORT_MAX, i.e. a
// preempted task). Used only when the rendered text has no prev_state=.
std::string DecodePrevState(int64_t state) {
  static constexpr char kLetters[] = "SDTtXZPI";
  constexpr int64_t kReportMax = 0x100;
  std::string out;
  for (int bit = 0; bit < 8; ++bit) {
    if (state & (int64_t{1} << bit)) {
      if (!out.empty()) out += '|';
      out += kLetters[bit];
    }
  }
  if (out.empty()) out = "R";
  if (state & kReportMax) out += '+';
  return out;
}

constexpr int kMagicSize = 10;

// Reads the magic and the version string after it ("6", "7"): NotFound,
// InvalidArgument (no magic), or the version (0 when unreadable).
absl::StatusOr<int> ReadHeaderVersion(const std::string& path) {
  // A regular file only (a FIFO would block the open, and libtracecmd's).
  absl::StatusOr<int> fd = base::OpenInputFile(path, "trace-cmd .dat file", -1);
  if (!fd.ok()) return fd.status();
  close(*fd);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("cannot open ", path, ": ", std::strerror(errno)));
  }
  char head[kMagicSize + 16] = {};
  in.read(head, sizeof(head));
  const std::streamsize got = in.gcount();
  if (got < kMagicSize ||
      absl::string_view(head, kMagicSize) != kTraceCmdMagic) {
    return absl::InvalidArgumentError(
        absl::StrCat(path,
                     ": not a trace-cmd .dat file (it does not start with "
                     "trace-cmd's magic bytes \\x17\\x08Dtracing)"));
  }
  int version = 0;
  for (std::streamsize i = kMagicSize;
       i < got && head[i] >= '0' && head[i] <= '9' && version < 1000000; ++i) {
    version = version * 10 + (head[i] - '0');
  }
  return version;
}

// Keeps a handle whose tracecmd_init_data() failed, never to be used or
// closed: libtracecmd 3.1.6's tracecmd_close() then walks per-CPU state the
// failed call left uninitialized and crashes (a version 6 file cut inside
// its CPU data does it). The handle (its memory and file descriptor) is
// leaked on purpose, held here so that LeakSanitizer sees it reachable.
void AbandonHandle(tracecmd_input* handle) {
  static std::mutex* const mu = new std::mutex;
  static auto* const abandoned = new std::vector<tracecmd_input*>;
  std::lock_guard<std::mutex> lock(*mu);
  abandoned->push_back(handle);
}

}  // namespace

absl::StatusOr<TraceFileFormat> DetectTraceFileFormat(const std::string& path) {
  // A regular file only: a FIFO or a device is refused without blocking.
  absl::StatusOr<int> fd = base::OpenInputFile(path, "trace file", -1);
  if (!fd.ok()) return fd.status();
  close(*fd);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("cannot open ", path, ": ", std::strerror(errno)));
  }
  char head[kMagicSize] = {};
  in.read(head, kMagicSize);
  if (in.gcount() == kMagicSize &&
      absl::string_view(head, kMagicSize) == kTraceCmdMagic) {
    return TraceFileFormat::kTraceCmdDat;
  }
  return TraceFileFormat::kFtraceText;
}

struct TraceCmdReader::Impl {
  tracecmd_input* handle = nullptr;
  tep_handle* tep = nullptr;
  // The next unread record of each CPU (null: none left).
  std::vector<tep_record*> pending;
  // The record of the event last returned; its data backs the event's
  // string views.
  tep_record* current = nullptr;
  trace_seq seq;
  // The TP_printk text of `current`, and prev_state when decoded.
  std::string fields;
  std::string prev_state;
  std::unordered_map<int, EventInfo> events;

  Impl() { trace_seq_init(&seq); }
  ~Impl() {
    if (current != nullptr) tracecmd_free_record(current);
    for (tep_record* r : pending) {
      if (r != nullptr) tracecmd_free_record(r);
    }
    trace_seq_destroy(&seq);
    if (handle != nullptr) tracecmd_close(handle);
  }

  const EventInfo& Info(int id) {
    auto it = events.find(id);
    if (it != events.end()) return it->second;
    EventInfo info;
    info.event = tep_find_event(tep, id);
    if (info.event == nullptr) {
      info.name = absl::StrCat("<event id ", id, ">");
    } else {
      info.name = info.event->name;
      for (int t = 0; t < kNumEventTypes; ++t) {
        if (EventTypeName(static_cast<EventType>(t)) == info.name) {
          info.type = static_cast<EventType>(t);
          break;
        }
      }
    }
    if (info.type != EventType::kUnknown) {
      for (const char* name : FieldNames(info.type)) {
        absl::string_view field_name = name;
        const bool optional = absl::ConsumeSuffix(&field_name, "?");
        tep_format_field* field =
            tep_find_field(info.event, std::string(field_name).c_str());
        if (field == nullptr && !optional && info.missing_field.empty()) {
          info.missing_field = std::string(field_name);
        }
        info.fields.push_back(field);
      }
    }
    return events.emplace(id, std::move(info)).first->second;
  }
};

TraceCmdReader::TraceCmdReader(std::unique_ptr<Impl> impl, std::string name)
    : impl_(std::move(impl)), name_(std::move(name)) {}

TraceCmdReader::~TraceCmdReader() = default;

namespace {

// Set in the child that reads a file first (TryReadInChild).
bool g_in_trial_child = false;
constexpr double kChildCpuSeconds = 120;
// Wall-clock limit of the child (one blocked on a lock uses no CPU time).
constexpr double kChildWallSeconds = 600;
constexpr int64_t kChildAddressSpaceBytes = int64_t{8} << 30;

// libtracecmd 3.1.6 and libtraceevent 1.7 trust the file: malformed
// headers overflow heap buffers (tep_parse_printk_formats,
// tep_register_print_string), crash tep_parse_event, or allocate what a
// header field says (4-12 GB). The whole file is read first in a child
// process with resource limits, where a crash cannot take the tool down;
// its death becomes an error naming the file (issue 14 #6).
absl::Status TryReadInChild(const std::string& path) {
  base::TrialLimits limits;
  limits.cpu_s = kChildCpuSeconds;
  limits.address_space_bytes = kChildAddressSpaceBytes;
  limits.wall_s = kChildWallSeconds;
  // Diagnostics of the libraries go nowhere: the parent reads it again.
  limits.quiet = true;
  const base::TrialResult r = base::RunTrialChild(limits, [&] {
    g_in_trial_child = true;
    absl::StatusOr<std::unique_ptr<TraceCmdReader>> reader =
        TraceCmdReader::Open(path);
    if (!reader.ok()) return false;
    (*reader)->set_return_unknown_events(true);
    TraceEvent event;
    while (true) {
      absl::StatusOr<bool> more = (*reader)->Next(&event);
      if (!more.ok()) return false;
      if (!*more) return true;
    }
  });
  switch (r.kind) {
    case base::TrialResult::kFinished:
      return absl::OkStatus();
    case base::TrialResult::kTimedOut:
      return absl::DataLossError(absl::StrCat(
          path, ": libtracecmd/libtraceevent did not finish reading it within ",
          r.wall_s, " s"));
    case base::TrialResult::kError:
      return absl::ErrnoToStatus(
          r.error, absl::StrCat("cannot run the child reading ", path));
    case base::TrialResult::kCrashed:
      break;
  }
  return absl::DataLossError(
      absl::StrCat(path, ": libtracecmd/libtraceevent crashed reading it (",
                   r.how, "): a malformed or corrupt trace-cmd .dat file"));
}

}  // namespace

absl::StatusOr<std::unique_ptr<TraceCmdReader>> TraceCmdReader::Open(
    const std::string& path) {
  // Issue 49 #16: libtracecmd and libtraceevent print their own warnings
  // (raw bytes of a malformed file among them) on stderr; every failure
  // here becomes one message naming the file instead.
  tracecmd_set_loglevel(TEP_LOG_NONE);
  tep_set_loglevel(TEP_LOG_NONE);
  if (!g_in_trial_child) {
    // Only a regular file is worth a child (and a FIFO would block it).
    absl::StatusOr<int> fd =
        base::OpenInputFile(path, "trace-cmd .dat file", -1);
    if (!fd.ok()) return fd.status();
    close(*fd);
    absl::Status trial = TryReadInChild(path);
    if (!trial.ok()) return trial;
  }
  absl::StatusOr<int> version = ReadHeaderVersion(path);
  if (!version.ok()) return version.status();

  auto impl = std::make_unique<Impl>();
  impl->handle = tracecmd_open_head(path.c_str(), TRACECMD_FL_LOAD_NO_PLUGINS);
  if (impl->handle == nullptr) {
    // Issue 49 #16: "an unsupported file version 6" was said of a version
    // this reader supports (libtracecmd 3.1 reads 6 and 7).
    const bool supported = *version == 6 || *version == 7;
    return absl::DataLossError(absl::StrCat(
        path, ": cannot read the trace-cmd headers (",
        supported ? absl::StrCat("truncated or corrupt file; its file version ",
                                 *version, " is one this reader supports")
                  : absl::StrCat("file version ", *version,
                                 ", expected 6 or 7, or a corrupt file"),
        ")"));
  }
  if (tracecmd_init_data(impl->handle) < 0) {
    AbandonHandle(impl->handle);
    impl->handle = nullptr;
    return absl::DataLossError(absl::StrCat(
        path,
        ": cannot read the trace data of the trace-cmd file (truncated or "
        "corrupt)"));
  }
  impl->tep = tracecmd_get_tep(impl->handle);
  if (impl->tep == nullptr) {
    return absl::DataLossError(
        absl::StrCat(path, ": the trace-cmd file has no event formats"));
  }
  const int cpus = tep_get_cpus(impl->tep);
  if (cpus < 0 || cpus > 65536) {
    return absl::DataLossError(absl::StrCat(path, ": bad CPU count ", cpus));
  }
  impl->pending.assign(cpus, nullptr);
  for (int cpu = 0; cpu < cpus; ++cpu) {
    impl->pending[cpu] = tracecmd_read_data(impl->handle, cpu);
  }
  auto reader = std::unique_ptr<TraceCmdReader>(
      new TraceCmdReader(std::move(impl), path));
  reader->cpus_ = cpus;
  reader->file_version_ = *version;
  return reader;
}

absl::StatusOr<bool> TraceCmdReader::Next(TraceEvent* event) {
  Impl& impl = *impl_;
  while (true) {
    if (impl.current != nullptr) {
      tracecmd_free_record(impl.current);
      impl.current = nullptr;
    }
    int cpu = -1;
    for (int c = 0; c < static_cast<int>(impl.pending.size()); ++c) {
      if (impl.pending[c] != nullptr &&
          (cpu < 0 || impl.pending[c]->ts < impl.pending[cpu]->ts)) {
        cpu = c;
      }
    }
    if (cpu < 0) return false;
    tep_record* record = impl.pending[cpu];
    impl.current = record;
    impl.pending[cpu] = tracecmd_read_data(impl.handle, cpu);

    ++records_;
    if (record->ts > static_cast<unsigned long long>(  // NOLINT(runtime/int)
                         std::numeric_limits<int64_t>::max())) {
      return absl::DataLossError(absl::StrCat(
          name_, ": CPU ", cpu, ": timestamp ", record->ts, " out of range"));
    }
    last_timestamp_ns_ = static_cast<int64_t>(record->ts);
    if (record->missed_events > 0) {
      lost_events_ += record->missed_events;
    } else if (record->missed_events < 0) {
      ++lost_unknown_;
    }

    const EventInfo& info = impl.Info(tep_data_type(impl.tep, record));
    if (info.type == EventType::kUnknown) {
      auto it = unknown_events_.find(info.name);
      if (it == unknown_events_.end()) {
        unknown_events_.emplace(info.name, 1);
      } else {
        ++it->second;
      }
      if (!return_unknown_events_) continue;
    }

    *event = TraceEvent();
    event->type = info.type;
    event->timestamp_ns = last_timestamp_ns_;
    event->cpu = record->cpu;
    event->event_name = info.name;
    event->common_pid = tep_data_pid(impl.tep, record);
    const char* comm = tep_data_comm_from_pid(impl.tep, event->common_pid);
    event->common_comm = comm == nullptr ? "<...>" : comm;
    impl.fields.clear();
    if (info.event != nullptr) {
      trace_seq_reset(&impl.seq);
      tep_print_event(impl.tep, &impl.seq, record, "%s", TEP_PRINT_INFO);
      impl.fields.assign(impl.seq.buffer, impl.seq.len);
    }
    event->fields = impl.fields;
    if (info.type == EventType::kUnknown) return true;

    auto where = [&] {
      return absl::StrCat(name_, ": CPU ", cpu, ", ", info.name, " at ",
                          last_timestamp_ns_, " ns: ");
    };
    if (!info.missing_field.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          where(), "the event format has no field '", info.missing_field, "'"));
    }
    // Field i of FieldNames(type), as an int / int64 / string.
    absl::Status error;
    auto read_number = [&](int i, int64_t* out) {
      if (!error.ok()) return;
      if (!ReadNumber(info.fields[i], record, out)) {
        error = absl::DataLossError(
            absl::StrCat(where(), "cannot read field '", info.fields[i]->name,
                         "' (record of ", record->size, " bytes)"));
      }
    };
    auto read_int = [&](int i, int* out) {
      int64_t value = 0;
      read_number(i, &value);
      if (!error.ok()) return;
      if (value < std::numeric_limits<int>::min() ||
          value > std::numeric_limits<int>::max()) {
        error = absl::InvalidArgumentError(
            absl::StrCat(where(), "field '", info.fields[i]->name,
                         "' = ", value, " is out of range"));
        return;
      }
      *out = static_cast<int>(value);
    };
    auto read_string = [&](int i, absl::string_view* out) {
      if (!error.ok()) return;
      if (!ReadString(info.fields[i], record, out)) {
        error = absl::DataLossError(absl::StrCat(
            where(), "cannot read string field '", info.fields[i]->name,
            "' (record of ", record->size, " bytes)"));
      }
    };

    switch (info.type) {
      case EventType::kSchedSwitch: {
        read_string(0, &event->prev_comm);
        read_int(1, &event->prev_pid);
        read_int(2, &event->prev_prio);
        int64_t state = 0;
        read_number(3, &state);
        read_string(4, &event->next_comm);
        read_int(5, &event->next_pid);
        read_int(6, &event->next_prio);
        // The kernel's own letters, from its print fmt as rendered above.
        absl::string_view text = event->fields;
        const size_t at = text.find("prev_state=");
        if (at != absl::string_view::npos) {
          text.remove_prefix(at + strlen("prev_state="));
          event->prev_state = text.substr(0, text.find(' '));
        }
        if (event->prev_state.empty() && error.ok()) {
          impl.prev_state = DecodePrevState(state);
          event->prev_state = impl.prev_state;
        }
        break;
      }
      case EventType::kSchedWakeup:
      case EventType::kSchedWakeupNew:
      case EventType::kSchedWaking:
        read_string(0, &event->comm);
        read_int(1, &event->pid);
        read_int(2, &event->prio);
        read_int(3, &event->target_cpu);
        if (info.fields[4] != nullptr) read_int(4, &event->success);
        break;
      case EventType::kSchedMigrateTask:
        read_string(0, &event->comm);
        read_int(1, &event->pid);
        read_int(2, &event->prio);
        read_int(3, &event->orig_cpu);
        read_int(4, &event->dest_cpu);
        break;
      case EventType::kCpuIdle:
      case EventType::kCpuFrequency:
        read_number(0, &event->state);
        read_int(1, &event->cpu_id);
        break;
      case EventType::kSchedProcessFork:
        read_string(0, &event->comm);
        read_int(1, &event->pid);
        read_string(2, &event->child_comm);
        read_int(3, &event->child_pid);
        break;
      case EventType::kSchedProcessExit:
        read_string(0, &event->comm);
        read_int(1, &event->pid);
        read_int(2, &event->prio);
        break;
      case EventType::kUnknown:
        break;
    }
    if (!error.ok()) return error;
    return true;
  }
}

absl::Status ForEachTraceCmdEvent(
    const std::string& dat_path,
    absl::FunctionRef<absl::Status(const TraceEvent&)> visitor,
    std::map<std::string, int64_t, std::less<>>* unknown_events) {
  absl::StatusOr<std::unique_ptr<TraceCmdReader>> reader =
      TraceCmdReader::Open(dat_path);
  if (!reader.ok()) return reader.status();
  absl::Status status;
  TraceEvent event;
  while (status.ok()) {
    absl::StatusOr<bool> more = (*reader)->Next(&event);
    if (!more.ok()) {
      status = more.status();
    } else if (!*more) {
      break;
    } else {
      status = visitor(event);
    }
  }
  if (unknown_events != nullptr) *unknown_events = (*reader)->unknown_events();
  return status;
}

std::string TraceCmdReader::Where() const {
  return absl::StrCat(name_, ": record ", records_);
}

absl::StatusOr<std::unique_ptr<TraceSource>> OpenTrace(
    const std::string& path) {
  absl::StatusOr<TraceFileFormat> format = DetectTraceFileFormat(path);
  if (!format.ok()) return format.status();
  if (*format == TraceFileFormat::kTraceCmdDat) {
    absl::StatusOr<std::unique_ptr<TraceCmdReader>> r =
        TraceCmdReader::Open(path);
    if (!r.ok()) return r.status();
    return std::unique_ptr<TraceSource>(*std::move(r));
  }
  absl::StatusOr<std::unique_ptr<FtraceReader>> r = FtraceReader::Open(path);
  if (!r.ok()) return r.status();
  return std::unique_ptr<TraceSource>(*std::move(r));
}

absl::Status ReadTraceFile(
    const std::string& path,
    absl::FunctionRef<absl::Status(const TraceEvent&)> visitor) {
  absl::StatusOr<TraceFileFormat> format = DetectTraceFileFormat(path);
  if (!format.ok()) return format.status();
  if (*format == TraceFileFormat::kTraceCmdDat) {
    return ForEachTraceCmdEvent(path, visitor);
  }
  return ForEachFtraceEvent(path, visitor);
}

}  // namespace schedsim::traces
