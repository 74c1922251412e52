// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/ftrace.h"

#include <algorithm>
#include <ext/stdio_filebuf.h>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "base/input_file.h"

namespace schedsim::traces {
namespace {

constexpr int64_t kNsPerSecond = 1000000000;
// Largest CPU number and idle state index Summarize() accepts (it keeps
// arrays indexed by them).
constexpr int kMaxCpuId = 65535;
constexpr int64_t kMaxIdleStateIndex = 255;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsSpace(char c) { return c == ' ' || c == '\t'; }

bool AllDigits(absl::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

// A strict integer: an optional '-' and one or more digits, nothing else.
template <typename T>
bool ParseInt(absl::string_view s, T* out) {
  absl::string_view digits = s;
  if (!digits.empty() && digits[0] == '-') digits.remove_prefix(1);
  if (!AllDigits(digits)) return false;
  return absl::SimpleAtoi(s, out);
}

absl::string_view StripSpaces(absl::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// "SECONDS.FRACTION" with 1 to 9 fraction digits, into exact nanoseconds.
bool ParseTimestampNs(absl::string_view s, int64_t* ns) {
  const size_t dot = s.find('.');
  if (dot == absl::string_view::npos) return false;
  const absl::string_view sec_text = s.substr(0, dot);
  const absl::string_view frac_text = s.substr(dot + 1);
  if (!AllDigits(sec_text) || !AllDigits(frac_text) || frac_text.size() > 9) {
    return false;
  }
  int64_t seconds = 0;
  if (!absl::SimpleAtoi(sec_text, &seconds) ||
      seconds >
          (std::numeric_limits<int64_t>::max() - kNsPerSecond) / kNsPerSecond) {
    return false;
  }
  int64_t fraction = 0;
  for (char c : frac_text) fraction = fraction * 10 + (c - '0');
  for (size_t i = frac_text.size(); i < 9; ++i) fraction *= 10;
  *ns = seconds * kNsPerSecond + fraction;
  return true;
}

// Reads "key=value" fields left to right. On failure a method returns false
// and expected() says what was expected, e.g. "'next_pid=<int>'".
class FieldCursor {
 public:
  explicit FieldCursor(absl::string_view text) : rest_(text) {}

  const std::string& expected() const { return expected_; }

  // True if the next field is `key=`.
  bool AtKey(absl::string_view key) {
    SkipSpaces();
    return absl::StartsWith(rest_, key) && rest_.size() > key.size() &&
           rest_[key.size()] == '=';
  }

  template <typename T>
  bool Int(absl::string_view key, T* out) {
    absl::string_view value;
    if (!ReadValue(key, &value) || !ParseInt(value, out)) {
      return Fail(absl::StrCat("'", key, "=<int>'"));
    }
    return true;
  }

  // A value without spaces (prev_state).
  bool Token(absl::string_view key, absl::string_view* out) {
    if (!ReadValue(key, out) || out->empty()) {
      return Fail(absl::StrCat("'", key, "=<value>'"));
    }
    return true;
  }

  // A task name, which may contain spaces: everything up to " next_key=".
  bool Comm(absl::string_view key, absl::string_view next_key,
            absl::string_view* out) {
    if (!AtKey(key)) return Fail(absl::StrCat("'", key, "=<comm>'"));
    rest_.remove_prefix(key.size() + 1);
    const std::string separator = absl::StrCat(" ", next_key, "=");
    const size_t end = rest_.find(separator);
    if (end == absl::string_view::npos) {
      return Fail(absl::StrCat("'", next_key, "=<int>'"));
    }
    *out = rest_.substr(0, end);
    rest_.remove_prefix(end + 1);
    return true;
  }

  bool Literal(absl::string_view text) {
    SkipSpaces();
    if (!absl::StartsWith(rest_, text)) {
      return Fail(absl::StrCat("'", text, "'"));
    }
    rest_.remove_prefix(text.size());
    return true;
  }

 private:
  void SkipSpaces() {
    while (!rest_.empty() && IsSpace(rest_.front())) rest_.remove_prefix(1);
  }

  bool ReadValue(absl::string_view key, absl::string_view* value) {
    if (!AtKey(key)) return false;
    rest_.remove_prefix(key.size() + 1);
    size_t end = 0;
    while (end < rest_.size() && !IsSpace(rest_[end])) ++end;
    *value = rest_.substr(0, end);
    rest_.remove_prefix(end);
    return true;
  }

  bool Fail(std::string expected) {
    expected_ = std::move(expected);
    return false;
  }

  absl::string_view rest_;
  std::string expected_;
};

// trace-cmd's pretty-printed task: "comm:pid [prio]" (the comm may contain
// ':' and spaces). On success `*rest` is what follows the ']'.
bool ParsePrettyTask(absl::string_view text, absl::string_view* comm, int* pid,
                     int* prio, absl::string_view* rest) {
  const size_t bracket = text.rfind(" [");
  if (bracket == absl::string_view::npos) return false;
  const absl::string_view task = text.substr(0, bracket);
  const absl::string_view after = text.substr(bracket + 2);
  const size_t close = after.find(']');
  if (close == absl::string_view::npos) return false;
  if (!ParseInt(after.substr(0, close), prio)) return false;
  const size_t colon = task.rfind(':');
  if (colon == absl::string_view::npos || colon == 0) return false;
  if (!ParseInt(task.substr(colon + 1), pid)) return false;
  *comm = task.substr(0, colon);
  *rest = after.substr(close + 1);
  return true;
}

// `trace-cmd report -R` (raw) prints sched_switch's prev_state as the
// kernel's number, not TP_printk's letters. The letters for it: the lowest
// task-state bit set (include/linux/sched.h: 1 S, 2 D, 4 T, 8 t, 16 X,
// 32 Z, 64 P or I), 0 R, and a number with none of those bits (the
// "preempted" value past the states, TASK_REPORT_MAX or TASK_STATE_MAX
// depending on the kernel) R+.
absl::string_view RawPrevState(absl::string_view state) {
  int64_t v = 0;
  if (!AllDigits(state) || !ParseInt(state, &v)) return state;
  static constexpr absl::string_view kLetters[] = {"S", "D", "T", "t",
                                                   "X", "Z", "P"};
  if (v == 0) return "R";
  for (int bit = 0; bit < 7; ++bit) {
    if (v & (int64_t{1} << bit)) return kLetters[bit];
  }
  return "R+";
}

// Parses `fields` of a known event into `event`; on failure returns the
// "expected ..." text.
bool ParseSchedSwitch(absl::string_view fields, TraceEvent* e,
                      std::string* expected) {
  if (absl::StartsWith(fields, "prev_comm=")) {
    FieldCursor c(fields);
    bool ok = c.Comm("prev_comm", "prev_pid", &e->prev_comm) &&
              c.Int("prev_pid", &e->prev_pid) &&
              c.Int("prev_prio", &e->prev_prio) &&
              c.Token("prev_state", &e->prev_state);
    if (ok && c.AtKey("next_comm")) {
      e->prev_state = RawPrevState(e->prev_state);  // the raw layout
    } else {
      ok = ok && c.Literal("==>");
    }
    ok = ok && c.Comm("next_comm", "next_pid", &e->next_comm) &&
         c.Int("next_pid", &e->next_pid) && c.Int("next_prio", &e->next_prio);
    if (!ok) *expected = c.expected();
    return ok;
  }
  // trace-cmd: "prev_comm:prev_pid [prio] S ==> next_comm:next_pid [prio]".
  const size_t arrow = fields.find(" ==> ");
  if (arrow == absl::string_view::npos) {
    *expected = "'prev_comm=<comm>' or '<comm>:<pid> [<prio>] <state> ==> '";
    return false;
  }
  absl::string_view rest;
  if (!ParsePrettyTask(fields.substr(0, arrow), &e->prev_comm, &e->prev_pid,
                       &e->prev_prio, &rest)) {
    *expected = "'<prev_comm>:<prev_pid> [<prev_prio>]'";
    return false;
  }
  e->prev_state = StripSpaces(rest);
  if (e->prev_state.empty()) {
    *expected = "'<prev_state>' before ' ==> '";
    return false;
  }
  if (!ParsePrettyTask(fields.substr(arrow + 5), &e->next_comm, &e->next_pid,
                       &e->next_prio, &rest)) {
    *expected = "'<next_comm>:<next_pid> [<next_prio>]'";
    return false;
  }
  return true;
}

bool ParseWakeup(absl::string_view fields, TraceEvent* e,
                 std::string* expected) {
  if (absl::StartsWith(fields, "comm=")) {
    FieldCursor c(fields);
    bool ok = c.Comm("comm", "pid", &e->comm) && c.Int("pid", &e->pid) &&
              c.Int("prio", &e->prio);
    if (ok && c.AtKey("success")) ok = c.Int("success", &e->success);
    ok = ok && c.Int("target_cpu", &e->target_cpu);
    if (!ok) *expected = c.expected();
    return ok;
  }
  // trace-cmd: "comm:pid [prio] success=1 CPU:002" (success only on kernels
  // that have the field).
  absl::string_view rest;
  if (!ParsePrettyTask(fields, &e->comm, &e->pid, &e->prio, &rest)) {
    *expected = "'comm=<comm>' or '<comm>:<pid> [<prio>]'";
    return false;
  }
  FieldCursor c(rest);
  if (c.AtKey("success") && !c.Int("success", &e->success)) {
    *expected = c.expected();
    return false;
  }
  const absl::string_view cpu_text = StripSpaces(rest);
  const size_t cpu_pos = cpu_text.find("CPU:");
  if (cpu_pos == absl::string_view::npos ||
      !ParseInt(cpu_text.substr(cpu_pos + 4), &e->target_cpu)) {
    *expected = "'CPU:<int>'";
    return false;
  }
  return true;
}

bool ParseFields(absl::string_view fields, TraceEvent* e,
                 std::string* expected) {
  FieldCursor c(fields);
  bool ok = false;
  switch (e->type) {
    case EventType::kSchedSwitch:
      return ParseSchedSwitch(fields, e, expected);
    case EventType::kSchedWakeup:
    case EventType::kSchedWakeupNew:
    case EventType::kSchedWaking:
      return ParseWakeup(fields, e, expected);
    case EventType::kSchedMigrateTask:
      ok = c.Comm("comm", "pid", &e->comm) && c.Int("pid", &e->pid) &&
           c.Int("prio", &e->prio) && c.Int("orig_cpu", &e->orig_cpu) &&
           c.Int("dest_cpu", &e->dest_cpu);
      break;
    case EventType::kCpuIdle:
    case EventType::kCpuFrequency:
      ok = c.Int("state", &e->state) && c.Int("cpu_id", &e->cpu_id);
      if (ok && e->state < 0) {
        *expected = "'state=<unsigned int>'";
        return false;
      }
      break;
    case EventType::kSchedProcessFork:
      ok = c.Comm("comm", "pid", &e->comm) && c.Int("pid", &e->pid) &&
           c.Comm("child_comm", "child_pid", &e->child_comm) &&
           c.Int("child_pid", &e->child_pid);
      break;
    case EventType::kSchedProcessExit:
      ok = c.Comm("comm", "pid", &e->comm) && c.Int("pid", &e->pid) &&
           c.Int("prio", &e->prio);
      break;
    case EventType::kUnknown:
      return true;
  }
  if (!ok) *expected = c.expected();
  return ok;
}

bool LookupEventType(absl::string_view name, EventType* type) {
  for (int i = 0; i < kNumEventTypes; ++i) {
    const EventType t = static_cast<EventType>(i);
    if (EventTypeName(t) == name) {
      *type = t;
      return true;
    }
  }
  return false;
}

// Splits "TASK-PID [(TGID)]" (already stripped) into its parts.
bool ParseTaskColumn(absl::string_view head, absl::string_view* comm, int* pid,
                     int* tgid) {
  *tgid = -1;
  if (!head.empty() && head.back() == ')') {
    const size_t open = head.rfind('(');
    if (open == absl::string_view::npos) return false;
    const absl::string_view tgid_text =
        StripSpaces(head.substr(open + 1, head.size() - open - 2));
    if (tgid_text.find_first_not_of('-') != absl::string_view::npos &&
        !ParseInt(tgid_text, tgid)) {
      return false;
    }
    head = StripSpaces(head.substr(0, open));
  }
  const size_t dash = head.rfind('-');
  if (dash == absl::string_view::npos || dash == 0) return false;
  if (!ParseInt(head.substr(dash + 1), pid) || *pid < 0) return false;
  *comm = head.substr(0, dash);
  return true;
}

constexpr char kEventLineFormat[] =
    "expected an event line 'TASK-PID [CPU] [FLAGS] SECONDS.FRACTION: "
    "EVENT: FIELDS'";

}  // namespace

absl::string_view EventTypeName(EventType type) {
  switch (type) {
    case EventType::kSchedSwitch:
      return "sched_switch";
    case EventType::kSchedWakeup:
      return "sched_wakeup";
    case EventType::kSchedWakeupNew:
      return "sched_wakeup_new";
    case EventType::kSchedWaking:
      return "sched_waking";
    case EventType::kSchedMigrateTask:
      return "sched_migrate_task";
    case EventType::kCpuIdle:
      return "cpu_idle";
    case EventType::kCpuFrequency:
      return "cpu_frequency";
    case EventType::kSchedProcessFork:
      return "sched_process_fork";
    case EventType::kSchedProcessExit:
      return "sched_process_exit";
    case EventType::kUnknown:
      return "unknown";
  }
  return "unknown";
}

absl::StatusOr<std::unique_ptr<FtraceReader>> FtraceReader::Open(
    const std::string& path) {
  absl::StatusOr<int> fd =
      base::OpenInputFile(path, "ftrace text trace", /*max_bytes=*/-1);
  if (!fd.ok()) return fd.status();
  // The buffer owns the descriptor and closes it.
  auto buf = std::make_unique<__gnu_cxx::stdio_filebuf<char>>(
      *fd, std::ios::in | std::ios::binary, size_t{1} << 16);
  return std::unique_ptr<FtraceReader>(new FtraceReader(std::move(buf), path));
}

FtraceReader::FtraceReader(std::istream* in, std::string name)
    : in_(in), name_(std::move(name)) {}

FtraceReader::FtraceReader(std::unique_ptr<std::streambuf> buf,
                           std::string name)
    : buf_(std::move(buf)),
      file_(std::make_unique<std::istream>(buf_.get())),
      in_(file_.get()),
      name_(std::move(name)) {}

std::string FtraceReader::Where() const {
  return absl::StrCat(name_, ":", line_number_);
}

absl::StatusOr<bool> FtraceReader::ReadLine() {
  // istream::getline stores at most size - 1 characters: one more than the
  // limit tells a line that is too long.
  read_buf_.resize(base::kMaxTraceLineBytes + 2);
  in_->getline(read_buf_.data(),
               static_cast<std::streamsize>(read_buf_.size()));
  const std::streamsize got = in_->gcount();
  if (in_->bad()) return Error("read error");
  if (in_->fail()) {
    if (got == 0) return false;  // the end (or an empty last read)
    ++line_number_;
    return Error(absl::StrCat("line longer than the limit of ",
                              base::ByteSize(base::kMaxTraceLineBytes),
                              " for an ftrace text trace"));
  }
  // `got` counts the '\n' when one was read (not at the end of the file).
  const bool newline = !in_->eof();
  line_.assign(read_buf_.data(), static_cast<size_t>(got - (newline ? 1 : 0)));
  return true;
}

absl::Status FtraceReader::Error(absl::string_view what) const {
  return absl::InvalidArgumentError(
      absl::StrCat(name_, ":", line_number_, ": ", what));
}

bool FtraceReader::SkipHtmlLine(absl::string_view line) {
  const absl::string_view s = StripSpaces(line);
  if (!seen_content_ && !s.empty()) {
    seen_content_ = true;
    // A systrace HTML file (Android's systrace, catapult's trace2html): the
    // ftrace text is the content of a <script class="trace-data"> block.
    if (absl::StartsWithIgnoreCase(s, "<!DOCTYPE html") ||
        absl::StartsWithIgnoreCase(s, "<html")) {
      html_ = Html::kOutside;
    }
  }
  switch (html_) {
    case Html::kNo:
      return false;
    case Html::kOutside:
      if (absl::StrContains(s, "class=\"trace-data\"")) {
        html_ = Html::kOtherBlock;  // until its first line says otherwise
        const size_t close = s.find('>');
        const absl::string_view rest = close == absl::string_view::npos
                                           ? ""
                                           : StripSpaces(s.substr(close + 1));
        if (absl::StartsWith(rest, "# tracer")) html_ = Html::kText;
      }
      return true;
    case Html::kOtherBlock:
    case Html::kText:
      if (absl::StartsWith(s, "</script>")) {
        html_ = Html::kOutside;
        return true;
      }
      if (html_ == Html::kOtherBlock) {
        // The text block starts with the tracer's header.
        if (absl::StartsWith(s, "# tracer")) {
          html_ = Html::kText;
          return false;
        }
        return true;
      }
      return false;
  }
  return false;
}

bool FtraceReader::SkipNonEventLine(absl::string_view line) {
  const absl::string_view s = StripSpaces(line);
  if (s.empty()) return true;
  if (s[0] == '#') {
    // tracefs: "# entries-in-buffer/entries-written: 10/10   #P:8".
    const size_t p = s.find("#P:");
    int cpus = 0;
    if (p != absl::string_view::npos && ParseInt(s.substr(p + 3), &cpus)) {
      header_cpus_ = cpus;
    }
    return true;
  }
  absl::string_view rest = s;
  if (absl::ConsumePrefix(&rest, "cpus=")) {
    int cpus = 0;
    if (ParseInt(rest, &cpus)) {
      header_cpus_ = cpus;
      return true;
    }
    return false;
  }
  if (absl::StartsWith(s, "version =")) return true;
  rest = s;
  if (absl::ConsumePrefix(&rest, "CPU ") && absl::EndsWith(rest, " is empty")) {
    return true;
  }
  // "CPU:1 [LOST 5 EVENTS]".
  rest = s;
  if (absl::ConsumePrefix(&rest, "CPU:")) {
    const size_t lost = rest.find(" [LOST ");
    if (lost != absl::string_view::npos && absl::EndsWith(rest, " EVENTS]")) {
      const absl::string_view n =
          rest.substr(lost + 7, rest.size() - lost - 7 - 8);
      int64_t count = 0;
      if (ParseInt(n, &count)) lost_events_ += count;
      return true;
    }
  }
  return false;
}

absl::StatusOr<bool> FtraceReader::ParseLine(TraceEvent* event) {
  absl::string_view line = line_;
  *event = TraceEvent();

  // Find "[CPU]": a '[' after a space, digits, ']', preceded by a valid
  // TASK-PID [(TGID)] column. The task name may itself contain brackets.
  size_t search = 0;
  size_t cpu_open = absl::string_view::npos;
  size_t cpu_close = 0;
  while (true) {
    const size_t open = line.find('[', search);
    if (open == absl::string_view::npos) break;
    search = open + 1;
    if (open == 0 || !IsSpace(line[open - 1])) continue;
    const size_t close = line.find(']', open);
    if (close == absl::string_view::npos) break;
    if (!AllDigits(line.substr(open + 1, close - open - 1))) continue;
    if (!ParseTaskColumn(StripSpaces(line.substr(0, open)), &event->common_comm,
                         &event->common_pid, &event->common_tgid)) {
      continue;
    }
    cpu_open = open;
    cpu_close = close;
    break;
  }
  if (cpu_open == absl::string_view::npos) {
    if (after_free_text_) {  // the payload of a print goes on
      continuation_ = true;
      return false;
    }
    return Error(kEventLineFormat);
  }
  if (!ParseInt(line.substr(cpu_open + 1, cpu_close - cpu_open - 1),
                &event->cpu)) {
    return Error("expected '[<cpu>]'");
  }

  // Optional flags, then the timestamp "SECONDS.FRACTION:".
  absl::string_view rest = line.substr(cpu_close + 1);
  auto next_token = [&rest]() {
    while (!rest.empty() && IsSpace(rest.front())) rest.remove_prefix(1);
    size_t end = 0;
    while (end < rest.size() && !IsSpace(rest[end])) ++end;
    const absl::string_view token = rest.substr(0, end);
    rest.remove_prefix(end);
    return token;
  };
  absl::string_view token = next_token();
  if (!absl::EndsWith(token, ":")) token = next_token();  // skip flags
  if (!absl::ConsumeSuffix(&token, ":") ||
      !ParseTimestampNs(token, &event->timestamp_ns)) {
    return Error("expected timestamp '<seconds>.<fraction>:'");
  }

  // "EVENT:" then the fields.
  while (!rest.empty() && IsSpace(rest.front())) rest.remove_prefix(1);
  const size_t colon = rest.find(':');
  if (colon == absl::string_view::npos || colon == 0) {
    return Error("expected '<event>:' after the timestamp");
  }
  const absl::string_view name = rest.substr(0, colon);
  for (char c : name) {
    if (IsSpace(c)) return Error("expected '<event>:' after the timestamp");
  }
  // Issue 49 #13: a trace whose time runs backwards gave negative idle
  // periods ("idle periods over -57921 us") and exit 0. trace-cmd report
  // and the tracefs trace file print every CPU's events merged in time
  // order.
  if (last_timestamp_ns_ >= 0 && event->timestamp_ns < last_timestamp_ns_) {
    return Error(absl::StrFormat(
        "timestamp %.6f s is earlier than the previous event's %.6f s; "
        "expected the events in time order, as trace-cmd report and the "
        "tracefs trace file print them",
        static_cast<double>(event->timestamp_ns) / 1e9,
        static_cast<double>(last_timestamp_ns_) / 1e9));
  }
  event->event_name = name;
  event->fields = StripSpaces(rest.substr(colon + 1));
  last_timestamp_ns_ = event->timestamp_ns;

  after_free_text_ = false;
  if (!LookupEventType(name, &event->type)) {
    after_free_text_ = true;
    auto it = unknown_events_.find(name);
    if (it == unknown_events_.end()) {
      it = unknown_events_.emplace(std::string(name), 0).first;
    }
    ++it->second;
    event->type = EventType::kUnknown;
    return false;
  }
  std::string expected;
  if (!ParseFields(event->fields, event, &expected)) {
    return Error(absl::StrCat(name, ": expected ", expected));
  }
  return true;
}

absl::StatusOr<bool> FtraceReader::Next(TraceEvent* event) {
  while (true) {
    absl::StatusOr<bool> more = ReadLine();
    if (!more.ok()) return more.status();
    if (!*more) break;
    ++line_number_;
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    if (SkipHtmlLine(line_)) continue;
    if (SkipNonEventLine(line_)) continue;
    continuation_ = false;
    absl::StatusOr<bool> known = ParseLine(event);
    if (!known.ok()) return known.status();
    if (continuation_) continue;
    if (*known || return_unknown_events_) return true;
  }
  if (in_->bad()) return Error("read error");
  return false;
}

absl::Status ForEachFtraceEvent(
    const std::string& path,
    absl::FunctionRef<absl::Status(const TraceEvent&)> visitor) {
  absl::StatusOr<std::unique_ptr<FtraceReader>> reader =
      FtraceReader::Open(path);
  if (!reader.ok()) return reader.status();
  TraceEvent event;
  while (true) {
    absl::StatusOr<bool> more = (*reader)->Next(&event);
    if (!more.ok()) return more.status();
    if (!*more) return absl::OkStatus();
    absl::Status status = visitor(event);
    if (!status.ok()) return status;
  }
}

}  // namespace schedsim::traces
