// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/hwloc.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "base/input_file.h"
#include "base/status_macros.h"
#include "topology/hwloc_objects.h"

namespace schedsim::topology {
namespace {

constexpr absl::string_view kExpected =
    "expected an hwloc topology XML file, as written by `lstopo file.xml` or "
    "hwloc_topology_export_xml()";

absl::Status Invalid(const std::string& path, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("hwloc XML file '", path, "': ", what));
}

// The whole file at `path`.
absl::StatusOr<std::string> ReadFile(const std::string& path) {
  return base::ReadInputFile(path, "hwloc XML file", base::kMaxHwlocXmlBytes);
}

bool IsXmlSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Checks that `content` has an hwloc <topology> root element and returns the
// XML format major version (1 when the root has no version attribute, as in
// hwloc 1.x files). A format 3.x root is relabelled 2.0 in place.
absl::StatusOr<int> CheckRootAndVersion(const std::string& path,
                                        std::string& content) {
  size_t root = 0;
  while (true) {
    root = content.find("<topology", root);
    if (root == std::string::npos) {
      return Invalid(path,
                     absl::StrCat("no <topology> root element; ", kExpected));
    }
    const size_t after = root + 9;
    if (after < content.size() &&
        (IsXmlSpace(content[after]) || content[after] == '>' ||
         content[after] == '/')) {
      break;
    }
    root = after;
  }
  const size_t tag_end = content.find('>', root);
  if (tag_end == std::string::npos) {
    return Invalid(path, "ends inside the <topology> tag (truncated?)");
  }
  // Finds version="..." (or '...') inside the root tag.
  size_t pos = root + 9;
  while (true) {
    pos = content.find("version", pos);
    if (pos == std::string::npos || pos >= tag_end) return 1;
    if (!IsXmlSpace(content[pos - 1])) {
      pos += 7;
      continue;
    }
    size_t p = pos + 7;
    while (p < tag_end && IsXmlSpace(content[p])) ++p;
    if (p >= tag_end || content[p] != '=') {
      pos += 7;
      continue;
    }
    ++p;
    while (p < tag_end && IsXmlSpace(content[p])) ++p;
    if (p >= tag_end || (content[p] != '"' && content[p] != '\'')) {
      return Invalid(path, "malformed version attribute on <topology>");
    }
    const char quote = content[p];
    const size_t value_begin = p + 1;
    const size_t value_end = content.find(quote, value_begin);
    if (value_end == std::string::npos || value_end > tag_end) {
      return Invalid(path, "malformed version attribute on <topology>");
    }
    const std::string value =
        content.substr(value_begin, value_end - value_begin);
    int major = 0;
    if (!absl::SimpleAtoi(absl::string_view(value).substr(0, value.find('.')),
                          &major) ||
        major < 1) {
      return Invalid(path, absl::StrCat("unrecognized hwloc XML format "
                                        "version \"",
                                        value, "\""));
    }
    if (major > 3) {
      return Invalid(path, absl::StrCat("hwloc XML format version ", value,
                                        " is newer than this importer reads "
                                        "(1.x to 3.x)"));
    }
    if (major == 3) {
      content.replace(value_begin, value_end - value_begin, "2.0");
    }
    return major;
  }
}

std::string DefaultName(const std::string& path) {
  absl::string_view base = path;
  const size_t slash = base.rfind('/');
  if (slash != absl::string_view::npos) base.remove_prefix(slash + 1);
  absl::ConsumeSuffix(&base, ".xml");
  return std::string(base);
}

}  // namespace

absl::StatusOr<Topology> LoadTopologyFromHwlocXml(const std::string& path,
                                                  const std::string& name) {
  SCHEDSIM_ASSIGN_OR_RETURN(std::string content, ReadFile(path));
  SCHEDSIM_ASSIGN_OR_RETURN(const int format_major,
                            CheckRootAndVersion(path, content));

  TopologyBuilder b(name.empty() ? DefaultName(path) : name);
  if (format_major == 3) {
    b.AddWarning(
        "hwloc XML format 3.x read as format 2.0 by libhwloc 2.x; 3.x-only "
        "attributes (object ids, root infos, cache_inclusive, I/O details) "
        "were ignored");
  }

  const std::string source = absl::StrCat("hwloc XML file '", path, "'");
  // PUs and NUMA nodes outside the XML's allowed sets are left out, as
  // lstopo leaves them out (the machine a job bound to that cpuset sees);
  // a PU whose allowed node is gone joins the nearest allowed one.
  SCHEDSIM_ASSIGN_OR_RETURN(hwloc_internal::HwlocTopologyPtr topology,
                            hwloc_internal::NewHwlocTopology(source));
  SCHEDSIM_RETURN_IF_ERROR(hwloc_internal::LoadHwlocXmlText(
      topology.get(), content, source, kExpected));
  hwloc_internal::ConvertOptions options;
  options.orphan_pus_join_first_node = true;
  std::vector<int> pu_os_indexes;
  SCHEDSIM_RETURN_IF_ERROR(hwloc_internal::AddHwlocObjects(
      topology.get(), source, options, b, &pu_os_indexes));
  hwloc_internal::AddHwlocCpuKindCapacities(topology.get(), pu_os_indexes, b);

  b.AddWarning(
      "hwloc XML has no C-state (cpuidle) or frequency information; C-states "
      "and frequency left empty");

  absl::StatusOr<Topology> t = b.Build();
  if (!t.ok()) {
    return absl::Status(
        t.status().code(),
        absl::StrCat("hwloc XML file '", path, "': ", t.status().message()));
  }
  return t;
}

}  // namespace schedsim::topology
