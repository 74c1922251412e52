// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/sysfs.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "base/status_macros.h"
#include "topology/cpuset.h"

namespace schedsim::topology {
namespace {

namespace fs = std::filesystem;

// Largest CPU or node id accepted in a list; far above any kernel's
// NR_CPUS, and small enough that a bogus range cannot exhaust memory.
constexpr int kMaxListId = 1 << 20;

// The kernel prints (unsigned int)-1 for "unknown" in several files
// (cpuidle `power`, CPUFREQ_ETERNAL transition latency).
constexpr int64_t kUnknownU32 = 4294967295;

// Accepted cpuidle `power` values, in mW per CPU.
constexpr int64_t kMaxPlausibleStatePowerMw = 100000;

// File content as shown in an error message: stripped, escaped, shortened.
std::string Quote(absl::string_view text) {
  constexpr size_t kMaxShown = 80;
  absl::string_view t = absl::StripAsciiWhitespace(text);
  std::string shown = absl::CEscape(t.substr(0, kMaxShown));
  if (t.size() > kMaxShown) absl::StrAppend(&shown, "...");
  return absl::StrCat("'", shown, "'");
}

absl::StatusOr<int64_t> ParseInt(const std::string& path,
                                 absl::string_view text) {
  absl::string_view t = absl::StripAsciiWhitespace(text);
  int64_t value = 0;
  if (t.empty() || !absl::SimpleAtoi(t, &value)) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected an integer in ", path, ", got ", Quote(text)));
  }
  return value;
}

// Parses a kernel list ("0-3,8,10-11") of CPU or node ids, in sysfs
// numbering; the result is sorted and free of duplicates.
absl::StatusOr<std::vector<int>> ParseIdList(const std::string& path,
                                             absl::string_view text) {
  std::set<int> ids;
  absl::string_view t = absl::StripAsciiWhitespace(text);
  if (!t.empty()) {
    for (absl::string_view part : absl::StrSplit(t, ',')) {
      part = absl::StripAsciiWhitespace(part);
      std::vector<absl::string_view> ends = absl::StrSplit(part, '-');
      int lo = 0;
      int hi = 0;
      if (ends.size() > 2 || !absl::SimpleAtoi(ends.front(), &lo) ||
          !absl::SimpleAtoi(ends.back(), &hi) || lo < 0 || hi < lo ||
          hi > kMaxListId) {
        return absl::InvalidArgumentError(
            absl::StrCat("expected a CPU list like '0-3,8' in ", path, ", got ",
                         Quote(text)));
      }
      for (int id = lo; id <= hi; ++id) ids.insert(id);
    }
  }
  return std::vector<int>(ids.begin(), ids.end());
}

// Parses a cache size such as "32K", "1M" or "512" (bytes).
absl::StatusOr<int64_t> ParseSizeBytes(const std::string& path,
                                       absl::string_view text) {
  absl::string_view t = absl::StripAsciiWhitespace(text);
  int64_t scale = 1;
  if (!t.empty()) {
    switch (absl::ascii_toupper(t.back())) {
      case 'K':
        scale = int64_t{1} << 10;
        break;
      case 'M':
        scale = int64_t{1} << 20;
        break;
      case 'G':
        scale = int64_t{1} << 30;
        break;
      default:
        break;
    }
    if (scale != 1) t.remove_suffix(1);
  }
  int64_t value = 0;
  if (t.empty() || !absl::SimpleAtoi(t, &value) || value < 0 ||
      value > (int64_t{1} << 40) / scale) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected a cache size like '32K' in ", path, ", got ", Quote(text)));
  }
  return value * scale;
}

// Parses whitespace-separated integers (a SLIT row, a frequency list).
absl::StatusOr<std::vector<int64_t>> ParseIntRow(const std::string& path,
                                                 absl::string_view text,
                                                 absl::string_view what) {
  std::vector<int64_t> values;
  for (absl::string_view field :
       absl::StrSplit(text, absl::ByAnyChar(" \t\n"), absl::SkipEmpty())) {
    int64_t v = 0;
    if (!absl::SimpleAtoi(field, &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected ", what, " in ", path, ", got ", Quote(text)));
    }
    values.push_back(v);
  }
  return values;
}

// Read access to the files of a sysfs tree, by path relative to its root.
class SysfsTree {
 public:
  explicit SysfsTree(std::string root) : root_(std::move(root)) {
    while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  }

  const std::string& root() const { return root_; }
  std::string Path(absl::string_view rel) const {
    return absl::StrCat(root_, "/", rel);
  }
  bool IsDir(absl::string_view rel) const {
    std::error_code ec;
    return fs::is_directory(Path(rel), ec);
  }
  bool Exists(absl::string_view rel) const {
    std::error_code ec;
    return fs::exists(Path(rel), ec);
  }

  // The content of a regular file, or nullopt when it is missing or cannot
  // be read (sysfs attributes may refuse reads, e.g. with EIO or EPERM).
  std::optional<std::string> Read(absl::string_view rel) const {
    const std::string path = Path(rel);
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream content;
    if (in.peek() != std::ifstream::traits_type::eof()) content << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return content.str();
  }

  // The numbers N, ascending, of the entries named <prefix>N (N all digits)
  // in directory `rel`; empty when it is missing.
  std::vector<int> NumberedEntries(absl::string_view rel,
                                   absl::string_view prefix) const {
    std::vector<int> numbers;
    std::error_code ec;
    fs::directory_iterator it(Path(rel), ec);
    if (ec) return numbers;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      std::string file = it->path().filename().string();
      absl::string_view suffix = file;
      if (!absl::ConsumePrefix(&suffix, prefix) || suffix.empty() ||
          suffix.size() > 9 ||
          !std::all_of(suffix.begin(), suffix.end(), absl::ascii_isdigit)) {
        continue;
      }
      int n = 0;
      if (absl::SimpleAtoi(suffix, &n)) numbers.push_back(n);
    }
    std::sort(numbers.begin(), numbers.end());
    return numbers;
  }

 private:
  std::string root_;
};

// Dense ids for group keys.
class GroupIds {
 public:
  int Id(std::vector<int64_t> key) {
    auto [it, inserted] =
        ids_.emplace(std::move(key), static_cast<int>(ids_.size()));
    return it->second;
  }

 private:
  std::map<std::vector<int64_t>, int> ids_;
};

// One cache of one CPU.
struct CacheIndex {
  int index = 0;
  int level = 0;
  std::string type;
  std::vector<int> shared;  // simulated CPU ids, including the CPU itself
};

class Importer {
 public:
  Importer(const std::string& root, const std::string& name)
      : tree_(root), builder_(name.empty() ? root : name) {}

  absl::StatusOr<Topology> Run() {
    SCHEDSIM_RETURN_IF_ERROR(ReadCpuList());
    SCHEDSIM_RETURN_IF_ERROR(ReadCaches());
    SCHEDSIM_RETURN_IF_ERROR(ReadNodes());
    SCHEDSIM_RETURN_IF_ERROR(PlaceCpus());
    SCHEDSIM_RETURN_IF_ERROR(ReadCacheSpecs());
    SCHEDSIM_RETURN_IF_ERROR(ReadCStates());
    SCHEDSIM_RETURN_IF_ERROR(ReadFrequency());
    GuessVendor();
    return builder_.Build();
  }

 private:
  static constexpr absl::string_view kCpuDir = "devices/system/cpu";
  static constexpr absl::string_view kNodeDir = "devices/system/node";

  std::string CpuPath(int sysfs_cpu, absl::string_view rel = "") const {
    return rel.empty() ? absl::StrCat(kCpuDir, "/cpu", sysfs_cpu)
                       : absl::StrCat(kCpuDir, "/cpu", sysfs_cpu, "/", rel);
  }

  void Warn(std::string warning) { builder_.AddWarning(std::move(warning)); }

  // Optional values: nullopt when the file is missing or unreadable, an
  // error when it is present but malformed.
  std::optional<std::string> OptString(absl::string_view rel) const {
    std::optional<std::string> text = tree_.Read(rel);
    if (text.has_value()) {
      *text = std::string(absl::StripAsciiWhitespace(*text));
    }
    return text;
  }
  absl::StatusOr<std::optional<int64_t>> OptInt(absl::string_view rel) const {
    std::optional<std::string> text = tree_.Read(rel);
    if (!text.has_value()) return std::optional<int64_t>();
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t v, ParseInt(tree_.Path(rel), *text));
    return std::optional<int64_t>(v);
  }
  // A list of CPUs, mapped to simulated ids (CPUs that are not imported,
  // e.g. offline ones, are dropped).
  absl::StatusOr<std::optional<std::vector<int>>> OptCpuList(
      absl::string_view rel) const {
    std::optional<std::string> text = tree_.Read(rel);
    if (!text.has_value()) return std::optional<std::vector<int>>();
    SCHEDSIM_ASSIGN_OR_RETURN(std::vector<int> sysfs_ids,
                              ParseIdList(tree_.Path(rel), *text));
    std::vector<int> sim;
    for (int id : sysfs_ids) {
      auto it = sim_of_.find(id);
      if (it != sim_of_.end()) sim.push_back(it->second);
    }
    return std::optional<std::vector<int>>(std::move(sim));
  }

  // Key of the group of simulated CPU `cpu` given its sharing list: the
  // lowest CPU of the list (the CPU itself counts even if it is missing).
  static int64_t LowestOf(const std::vector<int>& shared, int cpu) {
    int low = cpu;
    for (int c : shared) low = std::min(low, c);
    return low;
  }

  absl::Status ReadCpuList() {
    std::error_code ec;
    if (tree_.root().empty() || !fs::is_directory(tree_.root(), ec)) {
      return absl::NotFoundError(
          absl::StrCat(tree_.root(),
                       " not found: expected a sysfs root, a directory holding "
                       "devices/system/cpu (such as /sys)"));
    }
    if (!tree_.IsDir(kCpuDir)) {
      return absl::NotFoundError(absl::StrCat(
          tree_.Path(kCpuDir),
          " not found: expected the CPU directory of the sysfs tree at ",
          tree_.root()));
    }
    std::string source;
    for (absl::string_view file : {"online", "present"}) {
      const std::string rel = absl::StrCat(kCpuDir, "/", file);
      std::optional<std::string> text = tree_.Read(rel);
      if (!text.has_value()) continue;
      source = tree_.Path(rel);
      SCHEDSIM_ASSIGN_OR_RETURN(cpus_, ParseIdList(source, *text));
      if (cpus_.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "expected at least one CPU in ", source, ", got ", Quote(*text)));
      }
      break;
    }
    if (source.empty()) {
      cpus_ = tree_.NumberedEntries(kCpuDir, "cpu");
      source = absl::StrCat("the cpuN directories of ", tree_.Path(kCpuDir));
      if (cpus_.empty()) {
        return absl::NotFoundError(absl::StrCat(
            "no CPUs in ", tree_.Path(kCpuDir),
            ": expected an online or present file or cpuN directories"));
      }
      Warn(absl::StrCat("no ", kCpuDir, "/online or present; CPUs taken from ",
                        source));
    }
    for (int cpu : cpus_) {
      if (!tree_.IsDir(CpuPath(cpu))) {
        return absl::NotFoundError(absl::StrCat(
            tree_.Path(CpuPath(cpu)),
            " not found: expected a directory for each CPU in ", source));
      }
    }
    for (size_t i = 0; i < cpus_.size(); ++i) {
      sim_of_[cpus_[i]] = static_cast<int>(i);
    }
    if (cpus_.back() != static_cast<int>(cpus_.size()) - 1) {
      CpuSet sim(static_cast<int>(cpus_.size()));
      sim.SetAll();
      Warn(absl::StrCat("sysfs CPUs ", absl::StrJoin(cpus_, ","),
                        " renumbered densely as CPUs ", sim.ToList()));
    }
    return absl::OkStatus();
  }

  // Reads level, type and sharing of every CPU's caches.
  absl::Status ReadCaches() {
    caches_.assign(cpus_.size(), {});
    bool inferred_level = false;
    std::set<std::string> unshared;
    for (size_t sim = 0; sim < cpus_.size(); ++sim) {
      const std::string dir = CpuPath(cpus_[sim], "cache");
      for (int index : tree_.NumberedEntries(dir, "index")) {
        const std::string idir = absl::StrCat(dir, "/index", index);
        CacheIndex c;
        c.index = index;
        SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> level,
                                  OptInt(absl::StrCat(idir, "/level")));
        std::optional<std::string> type =
            OptString(absl::StrCat(idir, "/type"));
        if (level.has_value()) {
          c.level = static_cast<int>(std::clamp<int64_t>(*level, 0, 99));
        } else {
          c.level = index <= 1 ? 1 : index;
          inferred_level = true;
        }
        if (type.has_value() && !type->empty()) {
          c.type = *type;
        } else {
          c.type = index == 0 ? "Data" : index == 1 ? "Instruction" : "Unified";
          inferred_level = true;
        }
        SCHEDSIM_ASSIGN_OR_RETURN(
            std::optional<std::vector<int>> shared,
            OptCpuList(absl::StrCat(idir, "/shared_cpu_list")));
        if (!shared.has_value()) {
          unshared.insert(absl::StrCat("index", index));
          continue;
        }
        c.shared = std::move(*shared);
        caches_[sim].push_back(std::move(c));
      }
    }
    if (inferred_level) {
      Warn(
          "cache level/type missing from cpuN/cache/indexK; assumed the x86 "
          "order index0 = L1 Data, index1 = L1 Instruction, indexK = LK "
          "Unified");
    }
    if (!unshared.empty()) {
      Warn(absl::StrCat("cache ", absl::StrJoin(unshared, ", "),
                        " without shared_cpu_list ignored for grouping"));
    }
    return absl::OkStatus();
  }

  absl::Status ReadNodes() {
    node_of_.assign(cpus_.size(), -1);
    std::vector<int> node_ids = tree_.NumberedEntries(kNodeDir, "node");
    if (node_ids.empty()) {
      Warn(absl::StrCat("no NUMA nodes in ", tree_.Path(kNodeDir),
                        "; assumed one node holding every CPU"));
      node_of_.assign(cpus_.size(), 0);
      return absl::OkStatus();
    }
    std::vector<int> with_cpus;  // node ids holding imported CPUs
    for (int node : node_ids) {
      const std::string rel = absl::StrCat(kNodeDir, "/node", node, "/cpulist");
      SCHEDSIM_ASSIGN_OR_RETURN(std::optional<std::vector<int>> cpus,
                                OptCpuList(rel));
      if (!cpus.has_value()) {
        Warn(absl::StrCat(tree_.Path(rel), " missing; node ", node,
                          " taken to have no CPUs"));
        continue;
      }
      for (int sim : *cpus) {
        if (node_of_[sim] != -1) {
          return absl::InvalidArgumentError(
              absl::StrCat("CPU ", cpus_[sim], " is listed in node ",
                           node_of_[sim], " and again in ", tree_.Path(rel)));
        }
        node_of_[sim] = node;
      }
      if (!cpus->empty()) with_cpus.push_back(node);
    }
    std::vector<int> orphans;
    for (size_t sim = 0; sim < cpus_.size(); ++sim) {
      if (node_of_[sim] == -1) orphans.push_back(cpus_[sim]);
    }
    if (!orphans.empty()) {
      const int home = with_cpus.empty() ? node_ids.front() : with_cpus.front();
      for (int& node : node_of_) {
        if (node == -1) node = home;
      }
      if (with_cpus.empty()) with_cpus.push_back(home);
      std::sort(with_cpus.begin(), with_cpus.end());
      Warn(absl::StrCat("CPUs ", absl::StrJoin(orphans, ","),
                        " are in no node's cpulist; put in node ", home));
    }
    return ReadDistances(node_ids, with_cpus);
  }

  // Sets the SLIT matrix of the nodes in `with_cpus` (ascending) when every
  // one has a distance file.
  absl::Status ReadDistances(const std::vector<int>& node_ids,
                             const std::vector<int>& with_cpus) {
    std::vector<int> columns = node_ids;
    std::string columns_source =
        absl::StrCat("the nodeN directories of ", tree_.Path(kNodeDir));
    const std::string online_rel = absl::StrCat(kNodeDir, "/online");
    if (std::optional<std::string> online = tree_.Read(online_rel)) {
      columns_source = tree_.Path(online_rel);
      SCHEDSIM_ASSIGN_OR_RETURN(columns, ParseIdList(columns_source, *online));
    }
    std::vector<std::vector<int64_t>> rows;
    for (int node : with_cpus) {
      const std::string rel =
          absl::StrCat(kNodeDir, "/node", node, "/distance");
      std::optional<std::string> text = tree_.Read(rel);
      if (!text.has_value()) return absl::OkStatus();  // builder default
      const std::string path = tree_.Path(rel);
      SCHEDSIM_ASSIGN_OR_RETURN(
          std::vector<int64_t> row,
          ParseIntRow(path, *text,
                      "space-separated integers (a SLIT row) like '10 21'"));
      if (row.size() != columns.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "expected ", columns.size(), " distances (one per node in ",
            columns_source, ") in ", path, ", got ", Quote(*text)));
      }
      rows.push_back(std::move(row));
    }
    std::vector<std::vector<int>> matrix;
    for (size_t i = 0; i < with_cpus.size(); ++i) {
      std::vector<int> out;
      for (int node : with_cpus) {
        auto col = std::find(columns.begin(), columns.end(), node);
        if (col == columns.end()) {
          Warn(absl::StrCat("node ", node, " is not in ", columns_source,
                            "; node distances ignored"));
          return absl::OkStatus();
        }
        int64_t d = rows[i][col - columns.begin()];
        if (d <= 0 || d > 255) {
          return absl::InvalidArgumentError(
              absl::StrCat("expected distances in 1..255 in ",
                           tree_.Path(absl::StrCat(kNodeDir, "/node",
                                                   with_cpus[i], "/distance")),
                           ", got ", d));
        }
        out.push_back(static_cast<int>(d));
      }
      matrix.push_back(std::move(out));
    }
    builder_.set_distances(std::move(matrix));
    return absl::OkStatus();
  }

  // Package, core and LLC of every CPU; adds the CPUs to the builder.
  absl::Status PlaceCpus() {
    GroupIds package_ids, core_ids, llc_ids;
    bool pkg_from_die = false, pkg_default = false;
    std::string core_source;
    bool core_default = false, llc_default = false;
    for (size_t i = 0; i < cpus_.size(); ++i) {
      const int sim = static_cast<int>(i);
      const std::string topo = CpuPath(cpus_[i], "topology");
      const auto file = [&](absl::string_view name) {
        return absl::StrCat(topo, "/", name);
      };

      // Package.
      int package = 0;
      SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> package_id,
                                OptInt(file("physical_package_id")));
      SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> die_id,
                                OptInt(file("die_id")));
      if (package_id.has_value()) {
        package = package_ids.Id({0, *package_id});
      } else {
        std::optional<std::vector<int>> list;
        for (absl::string_view name :
             {"package_cpus_list", "core_siblings_list"}) {
          SCHEDSIM_ASSIGN_OR_RETURN(list, OptCpuList(file(name)));
          if (list.has_value()) break;
        }
        if (list.has_value()) {
          package = package_ids.Id({1, LowestOf(*list, sim)});
        } else {
          SCHEDSIM_ASSIGN_OR_RETURN(list, OptCpuList(file("die_cpus_list")));
          if (list.has_value()) {
            package = package_ids.Id({2, LowestOf(*list, sim)});
            pkg_from_die = true;
          } else if (die_id.has_value()) {
            package = package_ids.Id({3, *die_id});
            pkg_from_die = true;
          } else {
            package = package_ids.Id({4});
            pkg_default = true;
          }
        }
      }

      // Core.
      int core = 0;
      std::optional<std::vector<int>> siblings;
      for (absl::string_view name :
           {"thread_siblings_list", "core_cpus_list"}) {
        SCHEDSIM_ASSIGN_OR_RETURN(siblings, OptCpuList(file(name)));
        if (siblings.has_value()) break;
      }
      SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> core_id,
                                OptInt(file("core_id")));
      const CacheIndex* l1 = CoreCache(sim);
      if (siblings.has_value()) {
        core = core_ids.Id({0, LowestOf(*siblings, sim)});
      } else if (core_id.has_value()) {
        core = core_ids.Id({1, package, die_id.value_or(-1), *core_id});
      } else if (l1 != nullptr) {
        core = core_ids.Id({2, LowestOf(l1->shared, sim)});
        if (core_source.empty()) {
          core_source = absl::StrCat("L", l1->level, " ", l1->type,
                                     " cache sharing (cache/index", l1->index,
                                     "/shared_cpu_list)");
        }
      } else {
        core = core_ids.Id({3, sim});
        core_default = true;
      }

      // LLC.
      int llc = 0;
      const CacheIndex* last = LastLevelCache(sim);
      if (last != nullptr) {
        llc = llc_ids.Id({0, last->level, LowestOf(last->shared, sim)});
      } else {
        llc = llc_ids.Id({1, package});
        llc_default = true;
      }

      builder_.AddCpu(sim, package, node_of_[i], llc, core);
    }
    if (!core_source.empty()) {
      Warn(absl::StrCat(
          "cores inferred from ", core_source,
          ": no topology/thread_siblings_list, core_cpus_list or core_id"));
    }
    if (core_default) {
      Warn(
          "no core information (topology or caches); each CPU taken as its "
          "own core");
    }
    if (pkg_from_die) {
      Warn(
          "packages inferred from dies (topology/die_cpus_list or die_id): no "
          "physical_package_id or package_cpus_list");
    }
    if (pkg_default) {
      Warn("no package information; assumed one package");
    }
    if (llc_default) {
      Warn("no cache information; assumed one LLC per package");
    }
    return absl::OkStatus();
  }

  // The cache whose sharing gives a CPU's core: L1 Data, else the lowest
  // level non-instruction cache.
  const CacheIndex* CoreCache(int sim) const {
    const CacheIndex* best = nullptr;
    for (const CacheIndex& c : caches_[sim]) {
      if (c.type == "Instruction") continue;
      if (best == nullptr || c.level < best->level ||
          (c.level == best->level && c.type == "Data")) {
        best = &c;
      }
    }
    return best;
  }

  const CacheIndex* LastLevelCache(int sim) const {
    const CacheIndex* best = nullptr;
    for (const CacheIndex& c : caches_[sim]) {
      if (best == nullptr || c.level > best->level ||
          (c.level == best->level && c.shared.size() > best->shared.size())) {
        best = &c;
      }
    }
    return best;
  }

  // Size, ways and line size of the first CPU's caches.
  absl::Status ReadCacheSpecs() {
    std::vector<CacheSpec> specs;
    std::set<std::string> missing;
    for (const CacheIndex& c : caches_[0]) {
      const std::string idir =
          CpuPath(cpus_[0], absl::StrCat("cache/index", c.index));
      CacheSpec spec;
      spec.level = c.level;
      spec.type = c.type;
      const std::string size_rel = absl::StrCat(idir, "/size");
      if (std::optional<std::string> size = tree_.Read(size_rel)) {
        SCHEDSIM_ASSIGN_OR_RETURN(spec.size_bytes,
                                  ParseSizeBytes(tree_.Path(size_rel), *size));
      } else {
        missing.insert("size");
      }
      SCHEDSIM_ASSIGN_OR_RETURN(
          std::optional<int64_t> ways,
          OptInt(absl::StrCat(idir, "/ways_of_associativity")));
      if (ways.has_value()) {
        spec.ways = static_cast<int>(std::clamp<int64_t>(*ways, 0, 1 << 16));
      } else {
        missing.insert("ways_of_associativity");
      }
      SCHEDSIM_ASSIGN_OR_RETURN(
          std::optional<int64_t> line,
          OptInt(absl::StrCat(idir, "/coherency_line_size")));
      if (line.has_value()) {
        spec.line_bytes =
            static_cast<int>(std::clamp<int64_t>(*line, 0, 1 << 16));
      } else {
        missing.insert("coherency_line_size");
      }
      specs.push_back(std::move(spec));
    }
    auto type_rank = [](const std::string& type) {
      return type == "Data" ? 0 : type == "Instruction" ? 1 : 2;
    };
    std::stable_sort(specs.begin(), specs.end(),
                     [&](const CacheSpec& a, const CacheSpec& b) {
                       if (a.level != b.level) return a.level < b.level;
                       return type_rank(a.type) < type_rank(b.type);
                     });
    if (!missing.empty()) {
      Warn(absl::StrCat("cache ", absl::StrJoin(missing, ", "),
                        " missing for CPU ", cpus_[0],
                        "; size and ways left 0, line size 64"));
    }
    builder_.set_caches(std::move(specs));
    return absl::OkStatus();
  }

  absl::Status ReadCStates() {
    const std::string dir = CpuPath(cpus_[0], "cpuidle");
    std::vector<int> states = tree_.NumberedEntries(dir, "state");
    if (states.empty()) {
      Warn(absl::StrCat("no idle states in ", tree_.Path(dir),
                        "; C-state table left empty"));
      return absl::OkStatus();
    }
    std::vector<CState> table;
    std::set<std::string> missing;
    for (int k : states) {
      const std::string sdir = absl::StrCat(dir, "/state", k);
      const auto file = [&](absl::string_view name) {
        return absl::StrCat(sdir, "/", name);
      };
      CState s;
      std::optional<std::string> name = OptString(file("name"));
      if (name.has_value() && !name->empty()) {
        s.name = *name;
      } else {
        s.name = absl::StrCat("state", k);
        missing.insert(absl::StrCat("state", k, "/name"));
      }
      s.desc = OptString(file("desc")).value_or("");
      SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> latency_us,
                                OptInt(file("latency")));
      SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> residency_us,
                                OptInt(file("residency")));
      SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> power_mw,
                                OptInt(file("power")));
      SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> disable,
                                OptInt(file("disable")));
      if (!latency_us.has_value()) {
        missing.insert(absl::StrCat("state", k, "/latency"));
      }
      if (!residency_us.has_value()) {
        missing.insert(absl::StrCat("state", k, "/residency"));
      }
      // Microseconds to nanoseconds, keeping absurd values in range.
      constexpr int64_t kMaxUs = int64_t{1} << 40;
      s.exit_latency_ns =
          std::clamp<int64_t>(latency_us.value_or(0), 0, kMaxUs) * 1000;
      s.target_residency_ns =
          std::clamp<int64_t>(residency_us.value_or(0), 0, kMaxUs) * 1000;
      s.physical_exit_ns = s.exit_latency_ns;
      s.physical_entry_ns = 0;
      const int64_t p = power_mw.value_or(0);
      s.power_mw = (p > 0 && p < kMaxPlausibleStatePowerMw) ? p : 0;
      s.disabled = disable.value_or(0) != 0;
      if (s.name == "POLL") s.flags |= CState::kPolling;
      table.push_back(std::move(s));
    }
    if (!missing.empty()) {
      Warn(absl::StrCat("idle state files missing in ", tree_.Path(dir), ": ",
                        absl::StrJoin(missing, ", "),
                        "; latency/residency taken as 0"));
    }
    builder_.set_cstates(std::move(table));
    return absl::OkStatus();
  }

  // The cpufreq directory of the first CPU, or "" when there is none.
  absl::StatusOr<std::string> FindCpufreqDir() {
    const int first = cpus_[0];
    const std::string own = CpuPath(first, "cpufreq");
    for (absl::string_view probe : {"cpuinfo_max_freq", "scaling_driver"}) {
      if (tree_.Exists(absl::StrCat(own, "/", probe))) return own;
    }
    const std::string policies = absl::StrCat(kCpuDir, "/cpufreq");
    const std::string same = absl::StrCat(policies, "/policy", first);
    if (tree_.IsDir(same)) return same;
    for (int p : tree_.NumberedEntries(policies, "policy")) {
      const std::string dir = absl::StrCat(policies, "/policy", p);
      SCHEDSIM_ASSIGN_OR_RETURN(std::optional<std::vector<int>> related,
                                OptCpuList(absl::StrCat(dir, "/related_cpus")));
      if (related.has_value() &&
          std::find(related->begin(), related->end(), 0) != related->end()) {
        return dir;
      }
    }
    return std::string();
  }

  absl::Status ReadFrequency() {
    FrequencySpec f;
    SCHEDSIM_ASSIGN_OR_RETURN(cpufreq_dir_, FindCpufreqDir());
    const std::string cppc = CpuPath(cpus_[0], "acpi_cppc");
    const auto cppc_file = [&](absl::string_view name) {
      return absl::StrCat(cppc, "/", name);
    };
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> lowest_perf,
                              OptInt(cppc_file("lowest_perf")));
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> nonlinear_perf,
                              OptInt(cppc_file("lowest_nonlinear_perf")));
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> nominal_perf,
                              OptInt(cppc_file("nominal_perf")));
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> highest_perf,
                              OptInt(cppc_file("highest_perf")));
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> nominal_mhz,
                              OptInt(cppc_file("nominal_freq")));
    auto perf = [](const std::optional<int64_t>& v) {
      return static_cast<int>(std::clamp<int64_t>(v.value_or(0), 0, 1 << 20));
    };
    f.hwp.lowest = perf(lowest_perf);
    f.hwp.most_efficient = perf(nonlinear_perf);
    f.hwp.guaranteed = perf(nominal_perf);
    f.hwp.highest = perf(highest_perf);

    if (cpufreq_dir_.empty()) {
      Warn(absl::StrCat("no cpufreq for CPU ", cpus_[0], " (",
                        tree_.Path(CpuPath(cpus_[0], "cpufreq")), " or ",
                        tree_.Path(kCpuDir), "/cpufreq/policy*)",
                        "; frequencies left 0"));
      builder_.set_frequency(std::move(f));
      return absl::OkStatus();
    }
    const auto file = [&](absl::string_view name) {
      return absl::StrCat(cpufreq_dir_, "/", name);
    };
    constexpr int64_t kMaxKhz = int64_t{1} << 40;
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> min_khz,
                              OptInt(file("cpuinfo_min_freq")));
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> max_khz,
                              OptInt(file("cpuinfo_max_freq")));
    if (!min_khz.has_value() || !max_khz.has_value()) {
      Warn(absl::StrCat("cpuinfo_min_freq or cpuinfo_max_freq missing in ",
                        tree_.Path(cpufreq_dir_), "; taken as 0"));
    }
    f.min_khz = std::clamp<int64_t>(min_khz.value_or(0), 0, kMaxKhz);
    f.max_turbo_khz = std::clamp<int64_t>(max_khz.value_or(0), 0, kMaxKhz);

    const std::string avail_rel = file("scaling_available_frequencies");
    if (std::optional<std::string> avail = tree_.Read(avail_rel)) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          std::vector<int64_t> khz,
          ParseIntRow(tree_.Path(avail_rel), *avail,
                      "space-separated frequencies in kHz"));
      for (int64_t v : khz) {
        if (v > 0 && v < kMaxKhz) f.pstates_khz.push_back(v);
      }
      std::sort(f.pstates_khz.rbegin(), f.pstates_khz.rend());
      f.pstates_khz.erase(
          std::unique(f.pstates_khz.begin(), f.pstates_khz.end()),
          f.pstates_khz.end());
    }

    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> base_khz,
                              OptInt(file("base_frequency")));
    if (base_khz.has_value() && *base_khz > 0) {
      f.base_khz = std::min(*base_khz, kMaxKhz);
    } else if (!f.pstates_khz.empty()) {
      f.base_khz = f.pstates_khz.front();
      Warn(absl::StrCat("no base_frequency; base taken as ", f.base_khz,
                        " kHz, the highest of scaling_available_frequencies "
                        "(ACPI P0)"));
    } else if (nominal_mhz.has_value() && *nominal_mhz > 0) {
      f.base_khz = std::min(*nominal_mhz, kMaxKhz / 1000) * 1000;
      Warn(absl::StrCat("no base_frequency; base taken as ", f.base_khz,
                        " kHz from acpi_cppc/nominal_freq"));
    } else {
      f.base_khz = f.max_turbo_khz;
      Warn("base frequency unknown; assumed cpuinfo_max_freq");
    }

    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> latency_ns,
                              OptInt(file("cpuinfo_transition_latency")));
    if (latency_ns.has_value() &&
        (*latency_ns < 0 || *latency_ns >= kUnknownU32)) {
      Warn("cpuinfo_transition_latency unknown (CPUFREQ_ETERNAL); taken as 0");
      latency_ns.reset();
    }
    f.transition_latency_ns = latency_ns.value_or(0);
    f.driver = OptString(file("scaling_driver")).value_or("");
    f.governor = OptString(file("scaling_governor")).value_or("");

    f.has_epp = tree_.Exists(file("energy_performance_preference")) ||
                tree_.Exists(file("energy_performance_available_preferences"));
    const bool intel_driver =
        f.driver == "intel_pstate" || f.driver == "intel_cpufreq";
    f.has_hwp =
        (intel_driver && (tree_.Exists(absl::StrCat(
                              kCpuDir, "/intel_pstate/hwp_dynamic_boost")) ||
                          f.has_epp)) ||
        absl::StartsWith(f.driver, "amd-pstate");

    if (nominal_perf.has_value() && *nominal_perf > 0) {
      const int64_t nominal_khz =
          (nominal_mhz.has_value() && *nominal_mhz > 0)
              ? std::min(*nominal_mhz, kMaxKhz / 1000) * 1000
              : f.base_khz;
      if (nominal_khz > 0) {
        f.khz_per_perf_unit = (nominal_khz + *nominal_perf / 2) / *nominal_perf;
      }
    }
    driver_ = f.driver;
    builder_.set_frequency(std::move(f));
    return absl::OkStatus();
  }

  void GuessVendor() {
    const std::string idle_driver =
        OptString(absl::StrCat(kCpuDir, "/cpuidle/current_driver"))
            .value_or("");
    std::string evidence;
    Vendor vendor = Vendor::kUnknown;
    if (idle_driver == "intel_idle") {
      vendor = Vendor::kIntel;
      evidence = "cpuidle driver intel_idle";
    } else if (driver_ == "intel_pstate" || driver_ == "intel_cpufreq") {
      vendor = Vendor::kIntel;
      evidence = absl::StrCat("cpufreq driver ", driver_);
    } else if (tree_.IsDir(absl::StrCat(kCpuDir, "/intel_pstate")) ||
               tree_.IsDir(absl::StrCat(kCpuDir, "/intel_uncore_frequency"))) {
      vendor = Vendor::kIntel;
      evidence = "intel_pstate or intel_uncore_frequency in sysfs";
    } else if (absl::StartsWith(driver_, "amd-pstate")) {
      vendor = Vendor::kAmd;
      evidence = absl::StrCat("cpufreq driver ", driver_);
    } else if (tree_.IsDir(absl::StrCat(kCpuDir, "/amd_pstate"))) {
      vendor = Vendor::kAmd;
      evidence = "amd_pstate in sysfs";
    } else if (!cpufreq_dir_.empty() &&
               tree_.Exists(absl::StrCat(cpufreq_dir_, "/cpb"))) {
      vendor = Vendor::kAmd;
      evidence = "acpi-cpufreq's cpb attribute (AMD Core Performance Boost)";
    }
    builder_.set_vendor(vendor);
    if (vendor == Vendor::kUnknown) {
      Warn("vendor not recognisable from sysfs drivers; left unknown");
    } else {
      Warn(absl::StrCat("vendor taken as ", VendorName(vendor), " from ",
                        evidence));
    }
  }

  SysfsTree tree_;
  TopologyBuilder builder_;
  std::vector<int> cpus_;      // sysfs CPU ids, ascending; index = sim id
  std::map<int, int> sim_of_;  // sysfs CPU id -> simulated id
  std::vector<std::vector<CacheIndex>> caches_;  // by simulated CPU
  std::vector<int> node_of_;  // by simulated CPU: sysfs node id
  std::string cpufreq_dir_;
  std::string driver_;
};

}  // namespace

absl::StatusOr<Topology> LoadTopologyFromSysfs(const std::string& sysfs_root,
                                               const std::string& name) {
  return Importer(sysfs_root, name).Run();
}

}  // namespace schedsim::topology
