// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/testing/pepc_tree.h"

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace schedsim::topology::testing {
namespace {

namespace fs = std::filesystem;

// Checks a capture path and returns it relative to /sys, or an error.
absl::StatusOr<std::string> RelativeSysPath(absl::string_view path,
                                            absl::string_view where) {
  if (!absl::ConsumePrefix(&path, "/sys/")) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": expected a path under /sys/, got '", path, "'"));
  }
  std::vector<absl::string_view> parts =
      absl::StrSplit(path, '/', absl::SkipEmpty());
  if (parts.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": expected a file path under /sys/"));
  }
  for (absl::string_view part : parts) {
    if (part == "." || part == "..") {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": path '/sys/", path, "' has a '", part, "' component"));
    }
  }
  return absl::StrJoin(parts, "/");
}

absl::Status WriteFile(const fs::path& path, const std::string& content) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) {
    return absl::InternalError(absl::StrCat("cannot create directory ",
                                            path.parent_path().string(), ": ",
                                            ec.message()));
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) {
    return absl::InternalError(absl::StrCat("cannot write ", path.string(),
                                            ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status LayOutPepcCaptureText(absl::string_view capture,
                                   const std::string& dest_root,
                                   absl::string_view source,
                                   int* files_written) {
  // Files in order of first appearance; index by relative path.
  std::vector<std::pair<std::string, std::string>> files;
  std::map<std::string, size_t> index;
  std::string previous_path;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(capture, '\n')) {
    ++line_number;
    if (absl::EndsWith(line, "\r")) line.remove_suffix(1);
    if (line.empty() || line[0] == '#') {
      previous_path.clear();
      continue;
    }
    const std::string where = absl::StrCat(source, ":", line_number);
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::MaxSplits('|', 2));
    if (fields.size() != 3 || (fields[0] != "ro" && fields[0] != "rw")) {
      return absl::InvalidArgumentError(absl::StrCat(
          where,
          ": expected 'ro|<path>|<content>' or 'rw|<path>|<content>', "
          "got '",
          line, "'"));
    }
    absl::StatusOr<std::string> rel = RelativeSysPath(fields[1], where);
    if (!rel.ok()) return rel.status();
    auto it = index.find(*rel);
    if (it == index.end()) {
      index[*rel] = files.size();
      files.emplace_back(*rel, std::string(fields[2]));
    } else if (*rel == previous_path) {
      // Next line of a multi-line file.
      absl::StrAppend(&files[it->second].second, "\n", fields[2]);
    } else {
      // Listed again later: the later content wins.
      files[it->second].second = std::string(fields[2]);
    }
    previous_path = *rel;
  }

  const fs::path root(dest_root);
  for (const auto& [rel, content] : files) {
    absl::Status s = WriteFile(root / rel, content + "\n");
    if (!s.ok()) return s;
  }
  if (files_written != nullptr) *files_written = static_cast<int>(files.size());
  return absl::OkStatus();
}

absl::Status LayOutPepcCapture(const std::string& capture_path,
                               const std::string& dest_root,
                               int* files_written) {
  std::ifstream in(capture_path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(absl::StrCat(
        "cannot open pepc capture ", capture_path, ": ", std::strerror(errno)));
  }
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    return absl::InternalError(
        absl::StrCat("cannot read pepc capture ", capture_path));
  }
  return LayOutPepcCaptureText(text.str(), dest_root, capture_path,
                               files_written);
}

std::string CaptureRunfile(absl::string_view file_name) {
  const std::string rel = absl::StrCat("tests/data/", file_name);
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir != nullptr && workspace != nullptr) {
    return absl::StrCat(srcdir, "/", workspace, "/", rel);
  }
  return rel;
}

absl::StatusOr<std::string> MakeTestTempDir(absl::string_view prefix) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string base;
  if (tmp != nullptr && *tmp != '\0') {
    base = tmp;
  } else {
    std::error_code ec;
    base = fs::temp_directory_path(ec).string();
    if (ec) base = "/tmp";
  }
  std::string templ = absl::StrCat(base, "/", prefix, ".XXXXXX");
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) {
    return absl::InternalError(
        absl::StrCat("mkdtemp(", templ, ") failed: ", std::strerror(errno)));
  }
  return std::string(buf.data());
}

}  // namespace schedsim::topology::testing
