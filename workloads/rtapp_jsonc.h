// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// rt-app reads its files with json-c, which is more lenient than JSON, and
// rt-app's users rely on it: its examples end objects and arrays with a
// trailing comma, and its tutorial has users repeat an event key in one
// phase ("run", "sleep", "run") to mean the events in that order, which
// json-c keeps and rt-app's own workgen tool numbers ("run", "sleep",
// "run1"), since rt-app matches an event by the prefix of its key.
// NormalizeJsonC rewrites such text into JSON a strict parser reads with
// the same meaning:
//
//   absl::StatusOr<Json> root = Json::parse(NormalizeJsonC(text), ...);
//
//  - a comma followed (past blanks and comments) by '}' or ']' becomes a
//    blank;
//  - the second and later uses of a key in one object get the smallest
//    number suffix that makes them unique ("run" -> "run1", "run2", ...),
//    in order, so no event is lost;
//  - a key without a value (followed by ',' or '}') gets `: ""` (json-c
//    itself refuses this; rt-app's video-short.json has it: see below).
// Strings (with their escapes) and comments are left as they are, no line
// break is added or removed (error line numbers stay true), and text that
// is not valid JSON stays invalid for the parser to report.

#ifndef SCHEDSIM_WORKLOADS_RTAPP_JSONC_H_
#define SCHEDSIM_WORKLOADS_RTAPP_JSONC_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace schedsim::workloads {

std::string NormalizeJsonC(absl::string_view text);

// The same, also reading a key without a value in an object ("suspend",
// followed by ',' or '}', which rt-app's video-short.json has) as that key
// with the empty string: each such key is added to `*valueless` as
// "line N: KEY".
std::string NormalizeJsonC(absl::string_view text,
                           std::vector<std::string>* valueless);

// Tracks the JSON path of the value nlohmann's parser is reading (its
// parser callback), so that an error it throws mid-value (a number too
// large for a double) names it: "tasks.t.cpus[1]".
class JsonPathTracker {
 public:
  using Json = nlohmann::ordered_json;
  // The parser callback: always keeps the value (returns true).
  bool Event(nlohmann::detail::parse_event_t event, const Json& parsed);
  std::string Path() const;

 private:
  struct Frame {
    bool array;
    size_t next;
    std::string key;
  };
  void StartValue();
  std::vector<Frame> stack_;
};

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_RTAPP_JSONC_H_
