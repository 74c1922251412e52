// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/json_util.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/input_file.h"
#include "base/status_macros.h"
#include "sim/params.h"
#include "topology/presets.h"

namespace schedsim::experiments {
namespace {

using Json = OrderedJson;

// Compact JSON text of `j`, nested values below `depth` elided, stopping
// once `out` is longer than `limit` (nlohmann's dump() recurses without
// bound, and a message needs only a glimpse).
void Glimpse(const Json& j, int depth, size_t limit, std::string& out) {
  if (out.size() > limit) return;
  if (!j.is_structured()) {
    absl::StrAppend(&out,
                    j.dump(-1, ' ', false, Json::error_handler_t::replace));
    return;
  }
  const bool object = j.is_object();
  if (depth == 0 && !j.empty()) {
    absl::StrAppend(&out, object ? "{...}" : "[...]");
    return;
  }
  absl::StrAppend(&out, object ? "{" : "[");
  bool first = true;
  for (const auto& item : j.items()) {
    if (out.size() > limit) break;
    if (!first) absl::StrAppend(&out, ",");
    first = false;
    if (object) {
      absl::StrAppend(
          &out,
          Json(item.key()).dump(-1, ' ', false, Json::error_handler_t::replace),
          ":");
    }
    Glimpse(item.value(), depth - 1, limit, out);
  }
  absl::StrAppend(&out, object ? "}" : "]");
}

// Tracks the JSON path while nlohmann parses, to report duplicate keys
// (which nlohmann would silently collapse into one).
class DuplicateKeyFinder {
 public:
  bool Event(nlohmann::detail::parse_event_t event, const Json& parsed) {
    using nlohmann::detail::parse_event_t;
    switch (event) {
      case parse_event_t::object_start:
      case parse_event_t::array_start:
        StartValue();
        stack_.push_back({event == parse_event_t::array_start, 0, "", {}});
        break;
      case parse_event_t::object_end:
      case parse_event_t::array_end:
        if (!stack_.empty()) stack_.pop_back();
        break;
      case parse_event_t::key:
        if (!stack_.empty()) {
          Frame& f = stack_.back();
          f.key = parsed.get<std::string>();
          if (!f.keys.insert(f.key).second && !found_) {
            found_ = true;
            duplicate_ = f.key;
            object_path_ = ObjectPath();
          }
        }
        break;
      case parse_event_t::value:
        StartValue();
        break;
    }
    return true;
  }

  // The path of the value being parsed now: where a number too large for
  // a double (nlohmann's out_of_range 406) stopped the parse.
  std::string CurrentPath() const {
    std::string path;
    for (size_t i = 0; i < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      bool top = i + 1 == stack_.size();
      if (f.array) {
        absl::StrAppend(&path, "[", top ? f.next_index : f.next_index - 1, "]");
      } else {
        path = JsonField(path, f.key);
      }
    }
    return path;
  }

  bool found() const { return found_; }
  // The first duplicate key and the path of its object ("" = the root).
  const std::string& duplicate() const { return duplicate_; }
  const std::string& object_path() const { return object_path_; }

 private:
  struct Frame {
    bool array;
    size_t next_index;
    std::string key;  // the current key (objects)
    std::set<std::string> keys;
  };
  void StartValue() {
    if (!stack_.empty() && stack_.back().array) ++stack_.back().next_index;
  }
  // The path of the innermost open object or array.
  std::string ObjectPath() const {
    std::string path;
    for (size_t i = 0; i + 1 < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      if (f.array) {
        absl::StrAppend(&path, "[", f.next_index - 1, "]");
      } else {
        path = JsonField(path, f.key);
      }
    }
    return path;
  }

  std::vector<Frame> stack_;
  bool found_ = false;
  std::string duplicate_;
  std::string object_path_;
};

}  // namespace

std::string JsonField(const std::string& path, const std::string& key) {
  return path.empty() ? key : absl::StrCat(path, ".", key);
}

std::string JsonElement(const std::string& path, size_t index) {
  return absl::StrCat(path, "[", index, "]");
}

std::string ShowJson(const OrderedJson& j) {
  std::string text;
  Glimpse(j, 3, 40, text);
  if (text.size() > 40) text = absl::StrCat(text.substr(0, 37), "...");
  if (j.is_null()) return "null";
  if (j.is_object()) return absl::StrCat("an object ", text);
  if (j.is_array()) return absl::StrCat("an array ", text);
  return absl::StrCat(j.type_name(), " ", text);
}

std::string QuotedNames(const std::vector<std::string>& names) {
  std::vector<std::string> q;
  for (const std::string& n : names) q.push_back(absl::StrCat("'", n, "'"));
  return absl::StrJoin(q, ", ");
}

absl::StatusOr<std::string> ReadFileText(const std::string& path,
                                         absl::string_view what) {
  return base::ReadInputFile(path, what, base::kMaxJsonFileBytes);
}

std::vector<std::string> SimConfigKeys() { return sim::ConfigParamNames(); }

absl::Status JsonFileReader::Error(const std::string& path,
                                   const std::string& message) const {
  return absl::InvalidArgumentError(
      path.empty() ? absl::StrCat(file_, ": ", message)
                   : absl::StrCat(file_, ": ", path, ": ", message));
}

absl::Status JsonFileReader::ParseText(const std::string& text,
                                       Json* root) const {
  DuplicateKeyFinder finder;
  try {
    *root = Json::parse(
        text, [&finder](int, nlohmann::detail::parse_event_t event,
                        Json& parsed) { return finder.Event(event, parsed); });
  } catch (const Json::parse_error& e) {
    // e.byte is the 1-based position of the last character read.
    size_t offset = std::min<size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    size_t line = 1 + std::count(text.begin(), text.begin() + offset, '\n');
    size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    if (offset == 0 || line_start == std::string::npos) {
      line_start = 0;
    } else {
      line_start += 1;
    }
    std::string what = e.what();
    size_t at = what.find("parse error");
    size_t colon = at == std::string::npos ? at : what.find(": ", at);
    if (colon != std::string::npos) what = what.substr(colon + 2);
    return absl::InvalidArgumentError(absl::StrCat(
        file_, ": line ", line, ", column ", offset - line_start + 1,
        " (byte offset ", offset, "): invalid JSON: ", what));
  } catch (const Json::out_of_range& e) {
    // Only a number too large for a double (1e400) reaches here.
    return Error(finder.CurrentPath(),
                 absl::StrCat("invalid JSON: a number out of range (it must "
                              "fit a double): ",
                              e.what()));
  } catch (const Json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(file_, ": invalid JSON: ", e.what()));
  }
  if (finder.found()) {
    return Error(
        finder.object_path(),
        absl::StrCat("key '", finder.duplicate(), "' appears more than once"));
  }
  return absl::OkStatus();
}

absl::Status JsonFileReader::ExpectObject(const Json& j,
                                          const std::string& path,
                                          const std::string& what) const {
  if (j.is_object()) return absl::OkStatus();
  return Error(
      path, absl::StrCat("expected an object (", what, "), got ", ShowJson(j)));
}

absl::Status JsonFileReader::ExpectArray(const Json& j, const std::string& path,
                                         const std::string& what) const {
  if (j.is_array()) return absl::OkStatus();
  return Error(
      path, absl::StrCat("expected an array (", what, "), got ", ShowJson(j)));
}

absl::Status JsonFileReader::CheckKeys(const Json& object,
                                       const std::string& path,
                                       const std::vector<std::string>& known,
                                       const std::string& what) const {
  for (const auto& item : object.items()) {
    if (std::find(known.begin(), known.end(), item.key()) != known.end()) {
      continue;
    }
    return Error(path,
                 absl::StrCat("unknown key '", item.key(), "'",
                              DidYouMean(item.key(), known), "; ", what,
                              " has the keys ", absl::StrJoin(known, ", ")));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> JsonFileReader::Int(const Json& j,
                                            const std::string& path, int64_t lo,
                                            int64_t hi) const {
  std::string range = hi == std::numeric_limits<int64_t>::max()
                          ? absl::StrCat(" >= ", lo)
                          : absl::StrCat(" in ", lo, "..", hi);
  int64_t v = 0;
  if (j.is_number_unsigned()) {
    uint64_t u = j.get<uint64_t>();
    if (u > static_cast<uint64_t>(hi)) {
      return Error(path,
                   absl::StrCat("expected an integer", range, ", got ", u));
    }
    v = static_cast<int64_t>(u);
  } else if (j.is_number_integer()) {
    v = j.get<int64_t>();
  } else if (j.is_number_float()) {
    // 1e6 is a float in JSON; accept it when it is a whole number.
    double d = j.get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9e15) {
      return Error(path, absl::StrCat("expected an integer", range, ", got ",
                                      ShowJson(j)));
    }
    v = static_cast<int64_t>(d);
  } else {
    return Error(path, absl::StrCat("expected an integer", range, ", got ",
                                    ShowJson(j)));
  }
  if (v < lo || v > hi) {
    return Error(path, absl::StrCat("expected an integer", range, ", got ", v));
  }
  return v;
}

absl::StatusOr<double> JsonFileReader::Number(const Json& j,
                                              const std::string& path,
                                              double lo, double hi) const {
  const std::string range = absl::StrCat(" in ", lo, "..", hi);
  if (!j.is_number()) {
    return Error(
        path, absl::StrCat("expected a number", range, ", got ", ShowJson(j)));
  }
  double d = j.get<double>();
  if (!std::isfinite(d) || d < lo || d > hi) {
    return Error(
        path, absl::StrCat("expected a number", range, ", got ", ShowJson(j)));
  }
  return d;
}

absl::StatusOr<std::string> JsonFileReader::String(
    const Json& j, const std::string& path) const {
  if (!j.is_string()) {
    return Error(path, absl::StrCat("expected a string, got ", ShowJson(j)));
  }
  return j.get<std::string>();
}

absl::StatusOr<std::string> JsonFileReader::Name(
    const Json& j, const std::string& path, const std::string& what) const {
  if (!j.is_string()) {
    return Error(path, absl::StrCat("expected ", what, " (a string), got ",
                                    ShowJson(j)));
  }
  std::string name = j.get<std::string>();
  if (name.empty()) {
    return Error(path, absl::StrCat("expected ", what, ", got \"\""));
  }
  return name;
}

absl::StatusOr<bool> JsonFileReader::Bool(const Json& j,
                                          const std::string& path) const {
  if (!j.is_boolean()) {
    return Error(path,
                 absl::StrCat("expected true or false, got ", ShowJson(j)));
  }
  return j.get<bool>();
}

absl::StatusOr<uint64_t> JsonFileReader::Seed(const Json& j,
                                              const std::string& path) const {
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  if (j.is_number_float() && j.get<double>() >= 0) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        int64_t v, Int(j, path, 0, std::numeric_limits<int64_t>::max()));
    return static_cast<uint64_t>(v);
  }
  return Error(path, absl::StrCat("expected an integer in 0..",
                                  std::numeric_limits<uint64_t>::max(),
                                  ", got ", ShowJson(j)));
}

namespace {
// A bound for the parse; the host's cores bound it further (MakeGuest).
constexpr int64_t kMaxGuestVcpus = 4096;
}  // namespace

absl::StatusOr<MachineSource> JsonFileReader::Machine(const Json& root) const {
  int given = 0;
  for (const char* key : {"machine", "sysfs", "hwloc"}) {
    given += root.contains(key);
  }
  const std::string presets = absl::StrJoin(topology::PresetNames(), ", ");
  if (given != 1) {
    return Error(
        "",
        absl::StrCat(given == 0 ? "no machine" : "more than one machine",
                     ": give exactly one of \"machine\" (a built-in: ", presets,
                     "), \"sysfs\" (a sysfs root directory) or \"hwloc\" "
                     "(an hwloc XML file)"));
  }
  // Relative paths are taken from the file's directory.
  auto resolve = [&](const std::string& p) {
    size_t slash = file_.rfind('/');
    if (p.empty() || p[0] == '/' || slash == std::string::npos) return p;
    return absl::StrCat(file_.substr(0, slash + 1), p);
  };
  MachineSource source;
  if (root.contains("machine")) {
    SCHEDSIM_ASSIGN_OR_RETURN(source.machine, Name(root["machine"], "machine",
                                                   "a built-in machine name"));
    const std::vector<std::string>& names = topology::PresetNames();
    if (std::find(names.begin(), names.end(), source.machine) == names.end()) {
      return Error("machine",
                   absl::StrCat("unknown machine '", source.machine, "'",
                                DidYouMean(source.machine, names),
                                "; built-in machines: ", presets));
    }
  } else if (root.contains("sysfs")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::string p, Name(root["sysfs"], "sysfs", "a sysfs root directory"));
    source.sysfs = resolve(p);
  } else {
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::string p, Name(root["hwloc"], "hwloc", "an hwloc XML file"));
    source.hwloc = resolve(p);
  }
  if (root.contains("power_model")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        source.power_model,
        Name(root["power_model"], "power_model", "a built-in machine name"));
    if (!source.machine.empty()) {
      return Error("power_model",
                   absl::StrCat("a power model is for an imported machine "
                                "(\"sysfs\" or \"hwloc\"); the built-in "
                                "machine '",
                                source.machine, "' has its own tables"));
    }
    const std::vector<std::string>& names = topology::PresetNames();
    if (std::find(names.begin(), names.end(), source.power_model) ==
        names.end()) {
      return Error("power_model",
                   absl::StrCat("unknown power model '", source.power_model,
                                "'", DidYouMean(source.power_model, names),
                                "; built-in machines: ", presets));
    }
  }
  if (root.contains("guest")) {
    const Json& g = root["guest"];
    SCHEDSIM_RETURN_IF_ERROR(ExpectObject(
        g, "guest", "a KVM guest on the machine, e.g. {\"vcpus\": 4}"));
    SCHEDSIM_RETURN_IF_ERROR(CheckKeys(g, "guest", {"vcpus"}, "a guest"));
    if (!g.contains("vcpus")) {
      return Error("guest", "\"vcpus\" (the guest's vCPU count) is required");
    }
    SCHEDSIM_ASSIGN_OR_RETURN(
        int64_t n, Int(g["vcpus"], "guest.vcpus", 1, kMaxGuestVcpus));
    source.guest_vcpus = static_cast<int>(n);
  }
  return source;
}

absl::StatusOr<sim::KernelVersion> JsonFileReader::Kernel(
    const Json& j, const std::string& path) const {
  if (!j.is_string()) {
    return Error(path, absl::StrCat("expected a kernel version string such "
                                    "as \"6.12\" (schedsim kernels lists "
                                    "them), got ",
                                    ShowJson(j)));
  }
  absl::StatusOr<sim::KernelVersion> v =
      sim::ParseKernelVersion(j.get<std::string>());
  if (!v.ok()) return Error(path, std::string(v.status().message()));
  return v;
}

absl::Status JsonFileReader::ApplySimConfig(const Json& j,
                                            const std::string& path,
                                            sim::SimConfig* config) const {
  SCHEDSIM_RETURN_IF_ERROR(ExpectObject(j, path, "SimConfig fields by name"));
  for (const auto& item : j.items()) {
    // The value as the parameter table's setter takes it; what a
    // ParamValue cannot hold (an array, an object, null, an integer beyond
    // int64) goes as a value of the wrong type, shown as the file has it.
    const Json& v = item.value();
    platform::ParamValue value = std::string();
    if (v.is_boolean()) {
      value = v.get<bool>();
    } else if (v.is_number_unsigned() &&
               v.get<uint64_t>() >
                   static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      value = v.get<double>();
    } else if (v.is_number_integer()) {
      value = v.get<int64_t>();
    } else if (v.is_number_float()) {
      value = v.get<double>();
    } else if (v.is_string()) {
      value = v.get<std::string>();
    }
    SCHEDSIM_RETURN_IF_ERROR(sim::SetConfigParam(item.key(), value, file_, path,
                                                 config, ShowJson(v)));
  }
  return absl::OkStatus();
}

}  // namespace schedsim::experiments
