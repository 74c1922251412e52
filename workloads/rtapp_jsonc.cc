// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/rtapp_jsonc.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

namespace schedsim::workloads {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The end of the comment starting at `i` ("//" to the line's end, "/*" to
// "*/" or the text's end), or `i` if none starts there.
size_t CommentEnd(absl::string_view text, size_t i) {
  if (i + 1 >= text.size() || text[i] != '/') return i;
  if (text[i + 1] == '/') {
    const size_t end = text.find('\n', i);
    return end == absl::string_view::npos ? text.size() : end;
  }
  if (text[i + 1] == '*') {
    const size_t end = text.find("*/", i + 2);
    return end == absl::string_view::npos ? text.size() : end + 2;
  }
  return i;
}

// The end of the string starting at the quote at `i` (past its closing
// quote, or the text's end).
size_t StringEnd(absl::string_view text, size_t i) {
  for (size_t j = i + 1; j < text.size(); ++j) {
    if (text[j] == '\\') {
      ++j;
    } else if (text[j] == '"') {
      return j + 1;
    }
  }
  return text.size();
}

// The first position from `i` on that is neither blank nor in a comment.
size_t SkipBlanks(absl::string_view text, size_t i) {
  while (i < text.size()) {
    if (IsBlank(text[i])) {
      ++i;
    } else if (const size_t end = CommentEnd(text, i); end != i) {
      i = end;
    } else {
      break;
    }
  }
  return i;
}

struct Frame {
  bool object = false;
  bool expect_key = false;
  std::set<std::string, std::less<>> keys;
  // Per repeated key, the numbered suffix to try next: names are only
  // added, so every suffix below it is taken (issue 49 #14: trying 1, 2,
  // ... for each repeat took quadratic time, 23 s for 20,000 repeats).
  std::map<std::string, int, std::less<>> next_suffix;
};

}  // namespace

std::string NormalizeJsonC(absl::string_view text) {
  return NormalizeJsonC(text, nullptr);
}

std::string NormalizeJsonC(absl::string_view text,
                           std::vector<std::string>* valueless) {
  std::string out;
  out.reserve(text.size() + 64);
  std::vector<Frame> stack;
  size_t i = 0;
  int64_t line = 1;  // the line of text[line_counted]
  size_t line_counted = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (const size_t end = CommentEnd(text, i); end != i) {
      absl::StrAppend(&out, text.substr(i, end - i));
      i = end;
      continue;
    }
    if (c == '"') {
      const size_t end = StringEnd(text, i);
      const absl::string_view token = text.substr(i, end - i);
      i = end;
      if (stack.empty() || !stack.back().object || !stack.back().expect_key ||
          token.size() < 2 || token.back() != '"') {
        absl::StrAppend(&out, token);
        continue;
      }
      Frame& f = stack.back();
      f.expect_key = false;
      const absl::string_view key = token.substr(1, token.size() - 2);
      if (f.keys.insert(std::string(key)).second) {
        absl::StrAppend(&out, token);
      } else {
        // A repeated key: the first free numbered name, as workgen does.
        int& n = f.next_suffix.try_emplace(std::string(key), 1).first->second;
        std::string renamed;
        for (;; ++n) {
          renamed = absl::StrCat(key, n);
          if (f.keys.count(renamed) == 0) break;
        }
        ++n;
        f.keys.insert(renamed);
        absl::StrAppend(&out, "\"", renamed, "\"");
      }
      const size_t next = SkipBlanks(text, i);
      if (valueless != nullptr && next < text.size() &&
          (text[next] == ',' || text[next] == '}')) {
        out.append(": \"\"");
        // Lines counted from where the last count ended: linear overall.
        line += std::count(text.begin() + line_counted, text.begin() + i, '\n');
        line_counted = i;
        valueless->push_back(absl::StrCat("line ", line, ": ", key));
      }
      continue;
    }
    if (c == ',') {
      const size_t j = SkipBlanks(text, i + 1);
      if (j < text.size() && (text[j] == '}' || text[j] == ']')) {
        out.push_back(' ');  // json-c's trailing comma
      } else {
        out.push_back(',');
        if (!stack.empty() && stack.back().object) {
          stack.back().expect_key = true;
        }
      }
      ++i;
      continue;
    }
    if (c == '{' || c == '[') {
      Frame f;
      f.object = c == '{';
      f.expect_key = f.object;
      stack.push_back(std::move(f));
    } else if ((c == '}' || c == ']') && !stack.empty()) {
      stack.pop_back();
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

bool JsonPathTracker::Event(nlohmann::detail::parse_event_t event,
                            const Json& parsed) {
  using nlohmann::detail::parse_event_t;
  switch (event) {
    case parse_event_t::object_start:
    case parse_event_t::array_start:
      StartValue();
      stack_.push_back({event == parse_event_t::array_start, 0, ""});
      break;
    case parse_event_t::object_end:
    case parse_event_t::array_end:
      if (!stack_.empty()) stack_.pop_back();
      break;
    case parse_event_t::key:
      if (!stack_.empty() && parsed.is_string()) {
        stack_.back().key = parsed.get<std::string>();
      }
      break;
    case parse_event_t::value:
      StartValue();
      break;
  }
  return true;
}

std::string JsonPathTracker::Path() const {
  std::string path;
  for (size_t i = 0; i < stack_.size(); ++i) {
    const Frame& f = stack_[i];
    if (f.array) {
      size_t index = i + 1 == stack_.size() ? f.next : f.next - 1;
      absl::StrAppend(&path, "[", index, "]");
    } else {
      absl::StrAppend(&path, path.empty() ? "" : ".", f.key);
    }
  }
  return path;
}

void JsonPathTracker::StartValue() {
  if (!stack_.empty() && stack_.back().array) ++stack_.back().next;
}

}  // namespace schedsim::workloads
