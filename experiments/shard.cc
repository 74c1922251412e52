// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/shard.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "base/version.h"

namespace schedsim::experiments {
namespace {

std::map<std::string, PartialMerger>& Mergers() {
  static auto* mergers = new std::map<std::string, PartialMerger>();
  return *mergers;
}

absl::Status Invalid(const std::string& where, const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", message));
}

// The value at `key` of object `j`, or an error naming `where`.
absl::StatusOr<const OrderedJson*> Field(const OrderedJson& j,
                                         const std::string& key,
                                         const std::string& where) {
  if (!j.is_object() || !j.contains(key)) {
    return Invalid(where, absl::StrCat("missing \"", key, "\""));
  }
  return &j[key];
}

template <typename T>
absl::StatusOr<T> Unsigned(const OrderedJson& j, const std::string& key,
                           const std::string& where) {
  SCHEDSIM_ASSIGN_OR_RETURN(const OrderedJson* v, Field(j, key, where));
  if (!v->is_number_unsigned()) {
    return Invalid(where, absl::StrCat("\"", key,
                                       "\": expected a non-negative integer, "
                                       "got ",
                                       ShowJson(*v)));
  }
  return v->get<T>();
}

absl::StatusOr<std::vector<double>> Doubles(const OrderedJson& j,
                                            const std::string& where) {
  if (!j.is_array()) return Invalid(where, "expected an array of numbers");
  std::vector<double> out;
  for (size_t i = 0; i < j.size(); ++i) {
    SCHEDSIM_ASSIGN_OR_RETURN(double v,
                              ReadExactNumber(j[i], JsonElement(where, i)));
    out.push_back(v);
  }
  return out;
}

absl::StatusOr<double> DoubleField(const OrderedJson& j, const std::string& key,
                                   const std::string& where) {
  SCHEDSIM_ASSIGN_OR_RETURN(const OrderedJson* v, Field(j, key, where));
  return ReadExactNumber(*v, JsonField(where, key));
}

// The report's counters by their JSON keys (`Report` const or not).
template <typename Report, typename Counter>
std::vector<std::pair<const char*, Counter*>> Counters(Report& r) {
  return {{"wakeups", &r.wakeups},
          {"searches", &r.searches},
          {"probes", &r.probes},
          {"chosen_idle", &r.chosen_idle},
          {"chose_target", &r.chose_target},
          {"chose_prev", &r.chose_prev},
          {"chose_other", &r.chose_other},
          {"migrations", &r.migrations},
          {"context_switches", &r.context_switches},
          {"wait_count", &r.wait_count},
          {"nr_voluntary_switches", &r.nr_voluntary_switches},
          {"nr_involuntary_switches", &r.nr_involuntary_switches},
          {"nr_wakeups_local", &r.nr_wakeups_local},
          {"nr_wakeups_remote", &r.nr_wakeups_remote},
          {"nr_wakeups_migrate", &r.nr_wakeups_migrate},
          {"nr_wakeups_affine", &r.nr_wakeups_affine},
          {"searches_failed", &r.searches_failed}};
}

absl::StatusOr<RunReport> ParseRunReport(const OrderedJson& j,
                                         const std::string& where) {
  if (!j.is_object()) return Invalid(where, "expected an object");
  RunReport r;
  SCHEDSIM_ASSIGN_OR_RETURN(r.duration_s, DoubleField(j, "duration_s", where));
  SCHEDSIM_ASSIGN_OR_RETURN(r.energy_j, DoubleField(j, "energy_j", where));
  SCHEDSIM_ASSIGN_OR_RETURN(const OrderedJson* c0, Field(j, "c0_pct", where));
  SCHEDSIM_ASSIGN_OR_RETURN(r.c0_pct, Doubles(*c0, JsonField(where, "c0_pct")));
  SCHEDSIM_ASSIGN_OR_RETURN(const OrderedJson* cs,
                            Field(j, "cstate_pct", where));
  if (!cs->is_array()) return Invalid(where, "\"cstate_pct\": not an array");
  for (size_t i = 0; i < cs->size(); ++i) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::vector<double> cpu,
        Doubles((*cs)[i], JsonElement(JsonField(where, "cstate_pct"), i)));
    r.cstate_pct.push_back(std::move(cpu));
  }
  SCHEDSIM_ASSIGN_OR_RETURN(const OrderedJson* freq,
                            Field(j, "busy_ns_at_khz", where));
  if (!freq->is_array()) {
    return Invalid(where, "\"busy_ns_at_khz\": not an array");
  }
  for (const OrderedJson& pair : *freq) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() ||
        !pair[1].is_number_integer()) {
      return Invalid(where, "\"busy_ns_at_khz\": expected [kHz, ns] pairs");
    }
    r.busy_ns_at_khz.emplace_back(pair[0].get<int64_t>(),
                                  pair[1].get<int64_t>());
  }
  SCHEDSIM_ASSIGN_OR_RETURN(r.busy_ns, Unsigned<int64_t>(j, "busy_ns", where));
  SCHEDSIM_ASSIGN_OR_RETURN(r.khz_ns_busy,
                            DoubleField(j, "khz_ns_busy", where));
  for (const auto& [key, field] : Counters<RunReport, uint64_t>(r)) {
    SCHEDSIM_ASSIGN_OR_RETURN(*field, Unsigned<uint64_t>(j, key, where));
  }
  SCHEDSIM_ASSIGN_OR_RETURN(r.wait_sum_ns,
                            Unsigned<int64_t>(j, "wait_sum_ns", where));
  SCHEDSIM_ASSIGN_OR_RETURN(r.wait_max_ns,
                            Unsigned<int64_t>(j, "wait_max_ns", where));
  return r;
}

}  // namespace

std::string Shard::Text() const { return absl::StrCat(index, "/", count); }

std::string Shard::FileName() const {
  return absl::StrCat("shard-", index, "-of-", count, ".json");
}

absl::StatusOr<Shard> ParseShard(const std::string& text,
                                 const std::string& flag) {
  const std::vector<std::string> parts = absl::StrSplit(text, '/');
  Shard s;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &s.index) ||
      !absl::SimpleAtoi(parts[1], &s.count) || s.count < 1 ||
      s.count > kMaxShards || s.index < 0 || s.index >= s.count) {
    return absl::InvalidArgumentError(absl::StrCat(
        flag, " expects I/N: shard I of N, N in 1..", kMaxShards,
        " and I in 0..N-1 (numbered from 0, as $SLURM_ARRAY_TASK_ID in "
        "--array=0-(N-1)), got '",
        text, "'"));
  }
  return s;
}

std::vector<std::vector<int>> AssignShards(const std::vector<double>& costs,
                                           int count) {
  std::vector<std::vector<int>> shards(std::max(count, 1));
  std::vector<int> order(costs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return costs[a] > costs[b]; });
  // (load, shard): the least loaded shard first, then the lowest.
  std::set<std::pair<double, int>> load;
  for (int s = 0; s < static_cast<int>(shards.size()); ++s) load.insert({0, s});
  for (int run : order) {
    auto [total, s] = *load.begin();
    load.erase(load.begin());
    shards[s].push_back(run);
    const double c = costs[run];
    load.insert({total + (std::isfinite(c) && c > 0 ? c : 0), s});
  }
  for (std::vector<int>& s : shards) std::sort(s.begin(), s.end());
  return shards;
}

std::string ContentHash(absl::string_view text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return absl::StrFormat("fnv1a64:%016x", h);
}

OrderedJson ExactNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

absl::StatusOr<double> ReadExactNumber(const OrderedJson& j,
                                       const std::string& where) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "nan") return std::nan("");
    if (s == "inf") return HUGE_VAL;
    if (s == "-inf") return -HUGE_VAL;
  }
  return Invalid(where, absl::StrCat("expected a number (or \"nan\", \"inf\", "
                                     "\"-inf\"), got ",
                                     ShowJson(j)));
}

OrderedJson RunResultJson(const RunResult& run, OrderedJson j) {
  OrderedJson metrics = OrderedJson::array();
  for (double m : run.metrics) metrics.push_back(ExactNumber(m));
  const RunReport& r = run.report;
  OrderedJson report;
  report["duration_s"] = ExactNumber(r.duration_s);
  report["energy_j"] = ExactNumber(r.energy_j);
  OrderedJson c0 = OrderedJson::array();
  for (double v : r.c0_pct) c0.push_back(ExactNumber(v));
  report["c0_pct"] = std::move(c0);
  OrderedJson cs = OrderedJson::array();
  for (const std::vector<double>& cpu : r.cstate_pct) {
    OrderedJson one = OrderedJson::array();
    for (double v : cpu) one.push_back(ExactNumber(v));
    cs.push_back(std::move(one));
  }
  report["cstate_pct"] = std::move(cs);
  OrderedJson freq = OrderedJson::array();
  for (const auto& [khz, ns] : r.busy_ns_at_khz) freq.push_back({khz, ns});
  report["busy_ns_at_khz"] = std::move(freq);
  report["busy_ns"] = r.busy_ns;
  report["khz_ns_busy"] = ExactNumber(r.khz_ns_busy);
  for (const auto& [key, field] :
       Counters<const RunReport, const uint64_t>(r)) {
    report[key] = *field;
  }
  report["wait_sum_ns"] = r.wait_sum_ns;
  report["wait_max_ns"] = r.wait_max_ns;
  j["seed"] = run.seed;
  j["events"] = run.events;
  if (run.settle) j["settle"] = SettleOutcomeJson(*run.settle);
  j["metrics"] = std::move(metrics);
  j["report"] = std::move(report);
  return j;
}

absl::StatusOr<RunResult> ParseRunResult(const OrderedJson& j,
                                         const std::string& where) {
  RunResult run;
  SCHEDSIM_ASSIGN_OR_RETURN(run.seed, Unsigned<uint64_t>(j, "seed", where));
  SCHEDSIM_ASSIGN_OR_RETURN(run.events, Unsigned<uint64_t>(j, "events", where));
  if (j.contains("settle")) {
    run.settle.emplace();
    if (!ParseSettleOutcome(j["settle"], &*run.settle)) {
      return absl::InvalidArgumentError(
          absl::StrCat(JsonField(where, "settle"),
                       ": expected a settle outcome (mode, stop_reason, "
                       "numbers)"));
    }
  }
  SCHEDSIM_ASSIGN_OR_RETURN(const OrderedJson* metrics,
                            Field(j, "metrics", where));
  SCHEDSIM_ASSIGN_OR_RETURN(run.metrics,
                            Doubles(*metrics, JsonField(where, "metrics")));
  SCHEDSIM_ASSIGN_OR_RETURN(const OrderedJson* report,
                            Field(j, "report", where));
  SCHEDSIM_ASSIGN_OR_RETURN(
      run.report, ParseRunReport(*report, JsonField(where, "report")));
  return run;
}

OrderedJson PartialHeader(const std::string& kind, const Shard& shard,
                          const std::string& source_file,
                          const std::string& source_text,
                          const OrderedJson& settings) {
  OrderedJson j;
  j["schedsim_partial"] = kPartialFormat;
  j["kind"] = kind;
  j["schedsim"] = {{"version", base::kSchedsimVersion},
                   {"commit", base::SchedsimCommit()}};
  j["shard"] = {{"index", shard.index}, {"count", shard.count}};
  j["source"] = {{"file", source_file},
                 {"hash", ContentHash(source_text)},
                 {"text", source_text}};
  j["settings"] = settings;
  return j;
}

std::string PartialDigest(const OrderedJson& partial) {
  OrderedJson rest = partial;
  rest.erase("digest");
  return ContentHash(
      rest.dump(-1, ' ', false, OrderedJson::error_handler_t::replace));
}

absl::StatusOr<std::string> WritePartial(const OrderedJson& partial,
                                         const Shard& shard,
                                         const std::string& dir) {
  const std::filesystem::path d(dir.empty() ? "." : dir);
  std::error_code ec;
  std::filesystem::create_directories(d, ec);
  if (ec) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot create ", d.string(), ": ", ec.message()));
  }
  const std::string path = (d / shard.FileName()).string();
  // The digest of everything else (issue 49 #13): merge refuses a shard
  // whose metrics or seeds were edited by hand.
  OrderedJson signed_partial = partial;
  signed_partial.erase("digest");
  signed_partial["digest"] = PartialDigest(signed_partial);
  // Written to a temporary name and renamed: a reader never sees half a
  // file.
  const std::string tmp = path + ".tmp";
  std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
  if (f) {
    f << signed_partial.dump(1, ' ', false,
                             OrderedJson::error_handler_t::replace)
      << "\n";
  }
  if (f) f.close();
  if (!f) return absl::FailedPreconditionError("cannot write " + tmp);
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot rename ", tmp, " to ", path, ": ", ec.message()));
  }
  return path;
}

namespace {

absl::StatusOr<LoadedPartial> LoadPartial(const std::string& path) {
  SCHEDSIM_ASSIGN_OR_RETURN(std::string text,
                            ReadFileText(path, "partial result"));
  LoadedPartial p;
  p.path = path;
  // A key twice in one object: JSON parsers keep either one; a partial
  // result written by schedsim never has it (issue 49 #13).
  std::vector<std::set<std::string>> keys;
  std::string duplicate;
  const OrderedJson::parser_callback_t check =
      [&](int, OrderedJson::parse_event_t event, OrderedJson& parsed) {
        if (event == OrderedJson::parse_event_t::object_start) {
          keys.emplace_back();
        } else if (event == OrderedJson::parse_event_t::object_end) {
          if (!keys.empty()) keys.pop_back();
        } else if (event == OrderedJson::parse_event_t::key && !keys.empty() &&
                   parsed.is_string() && duplicate.empty() &&
                   !keys.back().insert(parsed.get<std::string>()).second) {
          duplicate = parsed.get<std::string>();
        }
        return true;
      };
  p.json = OrderedJson::parse(text, check, /*allow_exceptions=*/false);
  if (!duplicate.empty() && !p.json.is_discarded()) {
    return Invalid(path, absl::StrCat("the key \"", duplicate,
                                      "\" appears twice in one object; a "
                                      "partial result has each key once"));
  }
  if (p.json.is_discarded() || !p.json.is_object() ||
      !p.json.contains("schedsim_partial")) {
    return Invalid(path,
                   "not a partial result (a shard-I-of-N.json file that "
                   "`schedsim run --shard` or `schedsim validate --shard` "
                   "writes)");
  }
  const OrderedJson& j = p.json;
  if (j["schedsim_partial"] != kPartialFormat) {
    return Invalid(
        path,
        absl::StrCat("partial result format ", j["schedsim_partial"].dump(),
                     "; this schedsim reads format ", kPartialFormat));
  }
  const bool ok =
      j.contains("kind") && j["kind"].is_string() && j.contains("shard") &&
      j["shard"].is_object() && j["shard"].value("index", -1) >= 0 &&
      j["shard"].value("count", 0) >= 1 &&
      j["shard"].value("index", -1) < j["shard"].value("count", 0) &&
      j.contains("source") && j["source"].is_object() &&
      j["source"].value("file", OrderedJson()).is_string() &&
      j["source"].value("text", OrderedJson()).is_string() &&
      j.contains("settings") && j.contains("schedsim");
  if (!ok) {
    return Invalid(path,
                   "a partial result needs \"kind\", \"shard\" {index, "
                   "count}, \"source\" {file, hash, text}, \"settings\" and "
                   "\"schedsim\"");
  }
  p.kind = j["kind"].get<std::string>();
  p.shard.index = j["shard"]["index"].get<int>();
  p.shard.count = j["shard"]["count"].get<int>();
  p.source_file = j["source"]["file"].get<std::string>();
  p.source_text = j["source"]["text"].get<std::string>();
  p.settings = j["settings"];
  if (j["source"].value("hash", std::string()) != ContentHash(p.source_text)) {
    return Invalid(path, "the source text does not match its hash");
  }
  if (!j.contains("digest") || !j["digest"].is_string() ||
      j["digest"].get<std::string>() != PartialDigest(j)) {
    return Invalid(
        path, absl::StrCat("its content does not match its digest ",
                           j.contains("digest") ? j["digest"].dump() : "(none)",
                           ": the file was changed after `--shard` wrote it; "
                           "run that shard again"));
  }
  return p;
}

// The partial result files of one argument: the file itself, or a
// directory's shard-*-of-*.json files (sorted).
absl::StatusOr<std::vector<std::string>> PartialFiles(const std::string& arg) {
  std::error_code ec;
  if (!std::filesystem::is_directory(arg, ec)) {
    if (!std::filesystem::exists(arg, ec)) {
      return absl::NotFoundError(
          absl::StrCat(arg, ": no such directory or file"));
    }
    return std::vector<std::string>{arg};
  }
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(arg, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("shard-", 0) == 0 && name.size() > 5 &&
        name.substr(name.size() - 5) == ".json" &&
        name.find("-of-") != std::string::npos) {
      files.push_back(entry.path().string());
    }
  }
  if (ec) return absl::NotFoundError(absl::StrCat(arg, ": ", ec.message()));
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    return absl::NotFoundError(
        absl::StrCat(arg, ": no partial results (shard-I-of-N.json files)"));
  }
  return files;
}

}  // namespace

absl::StatusOr<std::vector<LoadedPartial>> LoadPartials(
    const std::vector<std::string>& paths) {
  std::vector<LoadedPartial> all;
  for (const std::string& arg : paths) {
    SCHEDSIM_ASSIGN_OR_RETURN(std::vector<std::string> files,
                              PartialFiles(arg));
    for (const std::string& f : files) {
      SCHEDSIM_ASSIGN_OR_RETURN(LoadedPartial p, LoadPartial(f));
      all.push_back(std::move(p));
    }
  }
  if (all.empty()) return absl::InvalidArgumentError("no partial results");
  const LoadedPartial& first = all[0];
  for (const LoadedPartial& p : all) {
    const std::string pair = absl::StrCat(first.path, " and ", p.path);
    if (p.kind != first.kind) {
      return absl::InvalidArgumentError(
          absl::StrCat(pair, " are partial results of different commands (",
                       first.kind, ", ", p.kind, ")"));
    }
    if (p.json["schedsim"] != first.json["schedsim"]) {
      return absl::InvalidArgumentError(absl::StrCat(
          pair, " come from different schedsim builds (",
          first.json["schedsim"].dump(), ", ", p.json["schedsim"].dump(),
          "); run every shard with one build"));
    }
    if (p.source_text != first.source_text ||
        p.source_file != first.source_file) {
      return absl::InvalidArgumentError(absl::StrCat(
          pair, " are shards of different ",
          first.kind == "run" ? "experiment files" : "catalogues", " (",
          first.source_file, " ", first.json["source"]["hash"].dump(), ", ",
          p.source_file, " ", p.json["source"]["hash"].dump(), ")"));
    }
    if (p.settings != first.settings) {
      return absl::InvalidArgumentError(
          absl::StrCat(pair, " are shards run with different settings (",
                       first.settings.dump(), ", ", p.settings.dump(), ")"));
    }
    if (p.shard.count != first.shard.count) {
      return absl::InvalidArgumentError(
          absl::StrCat(pair, " split the runs differently (shard ",
                       first.shard.Text(), ", shard ", p.shard.Text(), ")"));
    }
  }
  const int count = first.shard.count;
  std::vector<const LoadedPartial*> by_index(count, nullptr);
  for (const LoadedPartial& p : all) {
    const LoadedPartial*& slot = by_index[p.shard.index];
    if (slot != nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shard ", p.shard.Text(), " twice: ", slot->path, " and ", p.path));
    }
    slot = &p;
  }
  std::vector<std::string> missing;
  for (int i = 0; i < count; ++i) {
    if (by_index[i] == nullptr) missing.push_back(absl::StrCat(i, "/", count));
  }
  if (!missing.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "missing shard", missing.size() == 1 ? " " : "s ",
        absl::StrJoin(missing, ", "), " in ", absl::StrJoin(paths, ", "),
        " (have ", all.size(), " of ", count, ")"));
  }
  std::vector<LoadedPartial> ordered;
  for (const LoadedPartial* p : by_index) ordered.push_back(*p);
  return ordered;
}

bool RegisterPartialMerger(const std::string& kind, PartialMerger merger) {
  Mergers()[kind] = merger;
  return true;
}

PartialMerger FindPartialMerger(const std::string& kind) {
  auto it = Mergers().find(kind);
  return it == Mergers().end() ? nullptr : it->second;
}

absl::StatusOr<std::vector<RunResult>> CollectRuns(
    const std::vector<RunSource>& sources, int64_t total,
    const std::string& what) {
  std::vector<std::optional<RunResult>> runs(total);
  std::vector<const std::string*> from(total, nullptr);
  for (const RunSource& s : sources) {
    if (s.runs == nullptr || !s.runs->is_array()) {
      return Invalid(s.path, absl::StrCat(what,
                                          ": \"runs\": expected an "
                                          "array"));
    }
    for (size_t i = 0; i < s.runs->size(); ++i) {
      const OrderedJson& one = (*s.runs)[i];
      const std::string where =
          absl::StrCat(s.path, ": ", what, ": runs[", i, "]");
      if (!one.is_object() || !one.contains("run") ||
          !one["run"].is_number_unsigned() ||
          one["run"].get<int64_t>() >= total) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": \"run\": expected a run number in 0..", total - 1));
      }
      const int64_t run = one["run"].get<int64_t>();
      if (from[run] != nullptr) {
        return absl::InvalidArgumentError(absl::StrCat(
            what, ": run ", run, " is in both ", *from[run], " and ", s.path));
      }
      SCHEDSIM_ASSIGN_OR_RETURN(RunResult r, ParseRunResult(one, where));
      runs[run] = std::move(r);
      from[run] = &s.path;
    }
  }
  std::vector<RunResult> out;
  for (int64_t run = 0; run < total; ++run) {
    if (!runs[run]) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, ": run ", run, " of ", total, " is in no partial result"));
    }
    out.push_back(*std::move(runs[run]));
  }
  return out;
}

}  // namespace schedsim::experiments
