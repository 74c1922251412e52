// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/version.h"
#include "experiments/reports.h"
#include "experiments/statistics.h"

namespace schedsim::experiments {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* MeanKey(workloads::MeanKind kind) {
  switch (kind) {
    case workloads::MeanKind::kHarmonic:
      return "hmean";
    case workloads::MeanKind::kGeometric:
      return "gmean";
    case workloads::MeanKind::kArithmetic:
      break;
  }
  return "amean";
}

OrderedJson Number(double v) {
  if (!std::isfinite(v)) return nullptr;
  return v;
}

// Everything the outputs show about one metric of one variant at one sweep
// point.
struct Cell {
  std::vector<double> samples;
  Summary summary;
  double mean = 0;  // by the metric's mean kind
  // Against the baseline (NaN for the baseline itself).
  double diff_pct = 0;        // of `mean`, positive = better
  double amean_diff_pct = 0;  // of the arithmetic means, positive = better
  double ci95_pct = kNaN;     // CI half-width, % of |baseline amean|
  WelchResult welch;
  bool significant = false;
  bool identical = false;  // NoSpread(samples): >= 2 samples, all equal
};

// cells[point][variant][metric].
using Cells = std::vector<std::vector<std::vector<Cell>>>;

Cells ComputeCells(const Experiment& e, const ExperimentResult& r) {
  const int points = e.num_points();
  const int variants = static_cast<int>(r.variants.size());
  const int metrics = static_cast<int>(r.metrics.size());
  Cells cells(points, std::vector<std::vector<Cell>>(
                          variants, std::vector<Cell>(metrics)));
  for (int p = 0; p < points; ++p) {
    for (int m = 0; m < metrics; ++m) {
      const workloads::MetricInfo& info = r.metrics[m];
      for (int v = 0; v < variants; ++v) {
        Cell& c = cells[p][v][m];
        c.samples = r.Samples(p, v, m);
        c.summary = Summarize(c.samples);
        c.mean = MeanOf(c.summary, info.mean);
        c.identical = NoSpread(c.samples);
      }
      const Cell& base = cells[p][0][m];
      for (int v = 0; v < variants; ++v) {
        Cell& c = cells[p][v][m];
        if (v == 0) {
          c.diff_pct = c.amean_diff_pct = 0;
          c.welch.t = c.welch.df = c.welch.p_value = kNaN;
          c.welch.ci95_half_width = kNaN;
          continue;
        }
        c.diff_pct = PctDiff(base.mean, c.mean, info.higher_is_better);
        c.amean_diff_pct =
            PctDiff(base.summary.amean, c.summary.amean, info.higher_is_better);
        c.welch = WelchTTest(base.samples, c.samples);
        c.significant = Significant(c.welch);
        c.ci95_pct =
            base.summary.amean != 0
                ? c.welch.ci95_half_width / std::fabs(base.summary.amean) * 100
                : kNaN;
      }
    }
  }
  return cells;
}

// Decimals for a metric's values: about four significant digits for the
// largest mean, at least 2 and at most 8 decimals.
int Decimals(const Cells& cells, int metric) {
  double largest = 0;
  for (const auto& point : cells) {
    for (const auto& variant : point) {
      const double v = std::fabs(variant[metric].summary.amean);
      if (std::isfinite(v)) largest = std::max(largest, v);
    }
  }
  if (largest == 0) return 2;
  const int digits = 3 - static_cast<int>(std::floor(std::log10(largest)));
  return std::clamp(digits, 2, 8);
}

std::string Value(double v, int decimals) {
  if (std::isnan(v)) return "n/a";
  return absl::StrFormat("%.*f", decimals, v);
}

// "(  +4.20%)", "*  +4.20%*" when significant, "(   0.00%)" for the
// baseline.
std::string PctCell(double pct, bool baseline, bool significant) {
  std::string text;
  if (baseline) {
    text = "0.00%";
  } else if (std::isnan(pct)) {
    text = "n/a";
  } else {
    text = absl::StrFormat("%+.2f%%", pct);
  }
  const char* mark = significant ? "*" : "(";
  const char* end = significant ? "*" : ")";
  return absl::StrFormat("%s%8s%s", mark, text, end);
}

// The kernel-list line: "d=+4.20% ±1.10% p=0.30%".
std::string DiffLine(const Cell& c) {
  auto pct = [](double v, bool sign) {
    if (std::isnan(v)) return std::string("n/a");
    return sign ? absl::StrFormat("%+.2f%%", v) : absl::StrFormat("%.2f%%", v);
  };
  return absl::StrCat("d=", pct(c.amean_diff_pct, true), " ±",
                      pct(c.ci95_pct, false),
                      " p=", pct(c.welch.p_value * 100, false));
}

std::string PolicyText(const PolicySpec& p) {
  std::string text = p.name;
  if (!p.params.empty()) {
    std::vector<std::string> kv;
    for (const auto& [name, value] : p.params) {
      kv.push_back(absl::StrCat(name, "=", platform::ParamValueText(value)));
    }
    absl::StrAppend(&text, " (", absl::StrJoin(kv, ", "), ")");
  }
  return text;
}

std::string VariantText(const Variant& v) {
  std::string text = absl::StrCat("cpufreq ", PolicyText(v.cpufreq),
                                  ", cpuidle ", PolicyText(v.cpuidle),
                                  ", placement ", PolicyText(v.placement));
  if (!v.config_overrides.empty()) {
    std::vector<std::string> kv;
    for (const auto& item : v.config_overrides.items()) {
      kv.push_back(absl::StrCat(item.key(), "=", item.value().dump()));
    }
    absl::StrAppend(&text, "; config ", absl::StrJoin(kv, ", "));
  }
  return text;
}

std::string PadLeft(const std::string& s, size_t width) {
  const size_t w = DisplayWidth(s);
  return w >= width ? s : std::string(width - w, ' ') + s;
}

std::string PadRight(const std::string& s, size_t width) {
  const size_t w = DisplayWidth(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

// One table row: a stat label, a metric label and per variant either a
// value and a percentage, or one text spanning both.
struct Row {
  std::string stat;
  std::string name;
  std::vector<std::pair<std::string, std::string>> cells;  // value, pct
  bool spanning = false;  // cells[v].first spans the value and pct columns
  std::string note;       // when not empty: a line of its own
};

std::string RenderRows(const std::vector<Row>& rows, size_t variants) {
  size_t w_stat = 0, w_name = 0;
  std::vector<size_t> w_value(variants, 0), w_pct(variants, 0);
  for (const Row& r : rows) {
    if (!r.note.empty()) continue;
    w_stat = std::max(w_stat, DisplayWidth(r.stat));
    w_name = std::max(w_name, DisplayWidth(r.name));
    if (r.spanning) continue;
    for (size_t v = 0; v < r.cells.size() && v < variants; ++v) {
      w_value[v] = std::max(w_value[v], DisplayWidth(r.cells[v].first));
      w_pct[v] = std::max(w_pct[v], DisplayWidth(r.cells[v].second));
    }
  }
  // Spanning cells (the header, the Diff rows) widen the value column.
  for (const Row& r : rows) {
    if (!r.note.empty() || !r.spanning) continue;
    for (size_t v = 0; v < r.cells.size() && v < variants; ++v) {
      const size_t span = w_value[v] + 1 + w_pct[v];
      const size_t need = DisplayWidth(r.cells[v].first);
      if (need > span) w_value[v] += need - span;
    }
  }
  std::string out;
  for (const Row& r : rows) {
    if (!r.note.empty()) {
      absl::StrAppend(&out, r.note, "\n");
      continue;
    }
    std::string line =
        absl::StrCat(PadRight(r.stat, w_stat), "  ", PadRight(r.name, w_name));
    for (size_t v = 0; v < r.cells.size() && v < variants; ++v) {
      absl::StrAppend(&line, "  ");
      if (r.spanning) {
        absl::StrAppend(&line,
                        PadLeft(r.cells[v].first, w_value[v] + 1 + w_pct[v]));
      } else {
        absl::StrAppend(&line, PadLeft(r.cells[v].first, w_value[v]), " ",
                        PadLeft(r.cells[v].second, w_pct[v]));
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string CsvNumber(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return absl::StrFormat("%.10g", v);
}

// The row label of metric `m` at point `p`: "ops_per_s-4", or the metric
// alone without a sweep.
std::string RowName(const Experiment& e, const workloads::MetricInfo& info,
                    int p) {
  return e.sweep ? absl::StrCat(info.name, "-", e.PointValue(p)) : info.name;
}

// The spread warnings of metric `m` at point `p`, in variant order (see
// SpreadWarnings in compare.h).
std::vector<std::string> Warnings(const Experiment& e,
                                  const ExperimentResult& r, const Cells& cells,
                                  int p, int m) {
  std::vector<std::string> out;
  const std::string row = RowName(e, r.metrics[m], p);
  const Cell& base = cells[p][0][m];
  const std::string& base_name = r.variants[0].name;
  if (r.variants.size() == 1) {
    if (base.identical) {
      out.push_back(absl::StrCat(row, ": every iteration of ", base_name,
                                 " is identical (no spread)"));
    }
    return out;
  }
  for (size_t v = 1; v < r.variants.size(); ++v) {
    const Cell& c = cells[p][v][m];
    const std::string& name = r.variants[v].name;
    if (base.identical && c.identical) {
      out.push_back(absl::StrCat(row, ": every iteration of ", base_name,
                                 " and ", name,
                                 " is identical (no spread): no "
                                 "significance test"));
    } else if (base.identical || c.identical) {
      out.push_back(absl::StrCat(
          row, ": every iteration of ", base.identical ? base_name : name,
          " is identical (no spread): the test rests on ",
          base.identical ? name : base_name, "'s spread alone"));
    }
  }
  return out;
}

// Every spread warning: by metric, then point, then variant.
std::vector<std::string> AllWarnings(const Experiment& e,
                                     const ExperimentResult& r,
                                     const Cells& cells) {
  std::vector<std::string> out;
  for (size_t m = 0; m < r.metrics.size(); ++m) {
    for (int p = 0; p < e.num_points(); ++p) {
      for (std::string& w : Warnings(e, r, cells, p, static_cast<int>(m))) {
        out.push_back(std::move(w));
      }
    }
  }
  return out;
}

}  // namespace

const char* MeanLabel(workloads::MeanKind kind) {
  switch (kind) {
    case workloads::MeanKind::kHarmonic:
      return "Hmean";
    case workloads::MeanKind::kGeometric:
      return "Gmean";
    case workloads::MeanKind::kArithmetic:
      break;
  }
  return "Amean";
}

double MeanOf(const Summary& s, workloads::MeanKind kind) {
  switch (kind) {
    case workloads::MeanKind::kHarmonic:
      return s.hmean;
    case workloads::MeanKind::kGeometric:
      return s.gmean;
    case workloads::MeanKind::kArithmetic:
      break;
  }
  return s.amean;
}

std::vector<std::string> SpreadWarnings(const Experiment& e,
                                        const ExperimentResult& r) {
  return AllWarnings(e, r, ComputeCells(e, r));
}

std::string ComparisonTable(const Experiment& e, const ExperimentResult& r) {
  const Cells cells = ComputeCells(e, r);
  const size_t variants = r.variants.size();
  std::string out =
      absl::StrCat(e.filename, ": ", e.model->name, " on ", r.machine->name(),
                   " (", r.machine->num_cpus(), " CPUs), ", e.iterations,
                   e.iterations == 1 ? " iteration" : " iterations", " of ",
                   e.duration_ms, " ms");
  if (e.warmup_ms > 0)
    absl::StrAppend(&out, " after ", e.warmup_ms, " ms warm-up");
  absl::StrAppend(&out, ", seed ", e.seed, "\n");
  if (!e.description.empty()) absl::StrAppend(&out, e.description, "\n");
  if (e.sweep) {
    absl::StrAppend(&out, "Sweep: ", e.sweep->param, " = ");
    std::vector<std::string> values;
    for (int p = 0; p < e.num_points(); ++p) values.push_back(e.PointValue(p));
    absl::StrAppend(&out, absl::StrJoin(values, ", "), "\n");
  }
  absl::StrAppend(&out, "Variants (the first is the baseline):\n");
  std::vector<std::vector<std::string>> legend;
  for (const Variant& v : r.variants) {
    legend.push_back({absl::StrCat("  ", v.name), VariantText(v)});
  }
  absl::StrAppend(&out, AlignColumns(legend, 2, 2), "\n");

  std::vector<Row> rows;
  Row header;
  header.spanning = true;
  for (const Variant& v : r.variants) header.cells.push_back({v.name, ""});
  rows.push_back(header);
  for (size_t m = 0; m < r.metrics.size(); ++m) {
    const workloads::MetricInfo& info = r.metrics[m];
    const int decimals = Decimals(cells, static_cast<int>(m));
    Row note;
    note.note =
        absl::StrCat("\n", info.name, " (", info.unit, ", ",
                     info.higher_is_better ? "higher" : "lower", " is better)");
    rows.push_back(note);
    auto name = [&](int p) { return RowName(e, info, p); };
    struct Stat {
      std::string label;
      double Summary::*field;  // nullptr: the metric's mean
      bool spread;             // lower is better, no significance marker
      int decimals;            // -1: the metric's
    };
    const std::vector<Stat> stats = {
        {"Min", &Summary::min, false, -1},
        {"Max", &Summary::max, false, -1},
        {MeanLabel(info.mean), nullptr, false, -1},
        {"Stddev", &Summary::stddev, true, -1},
        {"CoeffVar", &Summary::coeffvar, true, 2},
    };
    for (const Stat& stat : stats) {
      for (int p = 0; p < e.num_points(); ++p) {
        Row row;
        row.stat = stat.label;
        row.name = name(p);
        const Cell& base = cells[p][0][m];
        for (size_t v = 0; v < variants; ++v) {
          const Cell& c = cells[p][v][m];
          const double value =
              stat.field == nullptr ? c.mean : c.summary.*stat.field;
          const double base_value =
              stat.field == nullptr ? base.mean : base.summary.*stat.field;
          const bool higher = stat.spread ? false : info.higher_is_better;
          const double pct = stat.field == nullptr
                                 ? c.diff_pct
                                 : PctDiff(base_value, value, higher);
          const bool significant = stat.field == nullptr && c.significant;
          row.cells.push_back(
              {Value(value, stat.decimals < 0 ? decimals : stat.decimals),
               PctCell(pct, v == 0, significant)});
        }
        rows.push_back(std::move(row));
      }
    }
    for (int p = 0; p < e.num_points(); ++p) {
      Row row;
      row.stat = "Diff";
      row.name = name(p);
      row.spanning = true;
      for (size_t v = 0; v < variants; ++v) {
        row.cells.push_back({v == 0 ? "-" : DiffLine(cells[p][v][m]), ""});
      }
      rows.push_back(std::move(row));
    }
    for (int p = 0; p < e.num_points(); ++p) {
      for (const std::string& w :
           Warnings(e, r, cells, p, static_cast<int>(m))) {
        Row warning;
        warning.note = absl::StrCat("warning: ", w);
        rows.push_back(std::move(warning));
      }
    }
  }
  absl::StrAppend(&out, RenderRows(rows, variants));
  absl::StrAppend(
      &out,
      "\n(%): difference against the baseline, positive = better; a "
      "smaller spread\n(Stddev, CoeffVar) counts as better. *...*: "
      "significant, Welch's t-test p < 0.05.\nDiff: d = difference of the "
      "arithmetic means, ± its 95% confidence half-width,\np = the t-test's "
      "p-value, all in percent. p=n/a: no test (fewer than 2\niterations, "
      "or no spread on either side: every iteration identical).\n");
  return out;
}

std::string ReportsSection(const Experiment& e, const ExperimentResult& r) {
  std::vector<std::string> names;
  for (const Variant& v : r.variants) names.push_back(v.name);
  std::string out;
  for (int p = 0; p < e.num_points(); ++p) {
    std::vector<VariantReport> reports;
    for (size_t v = 0; v < r.variants.size(); ++v) {
      reports.push_back(r.Report(p, static_cast<int>(v)));
    }
    absl::StrAppend(&out, "\nReports");
    if (e.sweep) absl::StrAppend(&out, ", ", e.PointName(p));
    absl::StrAppend(&out, " (means over ", e.iterations, " runs per variant)\n",
                    ReportsText(names, reports));
  }
  return out;
}

std::string SettleSection(const Experiment& e, const ExperimentResult& r) {
  std::string out;
  bool any = false;
  for (int p = 0; p < e.num_points(); ++p) {
    for (size_t v = 0; v < r.variants.size(); ++v) {
      const std::vector<RunResult>& runs = r.runs[p][v];
      std::map<std::string, int> reasons;
      int min_batches = std::numeric_limits<int>::max(), max_batches = 0;
      const SettleOutcome* one = nullptr;
      double lo = 0, hi = 0, widest = 0;
      bool extrapolated = false;
      std::string metric, length;
      for (const RunResult& run : runs) {
        if (!run.settle || run.settle->fixed_length) continue;
        const SettleOutcome& s = *run.settle;
        one = &s;
        ++reasons[s.stop_reason];
        min_batches = std::min(min_batches, s.batches);
        max_batches = std::max(max_batches, s.batches);
        widest = std::max(widest, s.relative_half_width);
        if (!s.extrapolated_metric.empty()) {
          metric = s.extrapolated_metric;
          length = s.length;
          lo = extrapolated ? std::min(lo, s.extrapolated) : s.extrapolated;
          hi = extrapolated ? std::max(hi, s.extrapolated) : s.extrapolated;
          extrapolated = true;
        }
      }
      if (one == nullptr) continue;
      any = true;
      std::vector<std::string> why;
      for (const auto& [reason, n] : reasons) {
        why.push_back(absl::StrCat(n, " ", reason));
      }
      absl::StrAppend(&out, "  ", r.variants[v].name);
      if (e.sweep) absl::StrAppend(&out, ", ", e.PointName(p));
      absl::StrAppend(&out, ": ", absl::StrJoin(why, ", "), " of ", runs.size(),
                      " runs, after ",
                      min_batches == max_batches
                          ? absl::StrCat(min_batches)
                          : absl::StrCat(min_batches, "-", max_batches),
                      " batches of ", Value(one->batch_s * 1e3, 0), " ms");
      if (runs.size() == 1) {
        absl::StrAppend(&out, "; rate ", Value(one->rate, 0), "/s [",
                        Value(one->ci_low, 0), ", ", Value(one->ci_high, 0),
                        "] (95%)");
        if (!metric.empty()) {
          absl::StrAppend(&out, "; ", metric, " at ", length, ": ",
                          Value(one->extrapolated, 3), " [",
                          Value(one->extrapolated_low, 3), ", ",
                          Value(one->extrapolated_high, 3),
                          "] (95%), extrapolated");
        }
      } else {
        absl::StrAppend(&out, "; each run's rate within +-",
                        Value(widest * 100, 2), "% (95%, the widest)");
        if (!metric.empty()) {
          absl::StrAppend(&out, "; ", metric, " at ", length,
                          ", extrapolated: ", Value(lo, 3), "-", Value(hi, 3),
                          " over the runs");
        }
      }
      absl::StrAppend(&out, "\n");
    }
  }
  if (!any) return "";
  return absl::StrCat(
      "\nSettled runs (each stops once its rate has settled, at most ",
      e.duration_ms,
      " ms;\n--fixed-length runs the whole length; --format=json has each "
      "run's settle object):\n",
      out,
      "A value \"extrapolated\" is the metric at the benchmark's published "
      "length computed\nfrom the settled rate, not simulated to the end.\n");
}

OrderedJson ResultJson(const Experiment& e, const ExperimentResult& r) {
  const Cells cells = ComputeCells(e, r);
  OrderedJson j;
  j["schema_version"] = base::kResultSchemaVersion;
  j["experiment"] = e.filename;
  j["description"] = e.description;
  j["schedsim"] = {{"version", base::kSchedsimVersion},
                   {"commit", base::SchedsimCommit()}};
  j["machine"] = r.machine->name();
  j["num_cpus"] = r.machine->num_cpus();
  j["workload"] = {{"model", e.model->name},
                   {"params", ParamMapJson(e.params)}};
  if (e.sweep) {
    OrderedJson values = OrderedJson::array();
    for (const platform::ParamValue& v : e.sweep->values) {
      values.push_back(ParamValueJson(v));
    }
    j["sweep"] = {{"param", e.sweep->param}, {"values", std::move(values)}};
  } else {
    j["sweep"] = nullptr;
  }
  j["iterations"] = e.iterations;
  j["seed"] = e.seed;
  j["warmup_ms"] = e.warmup_ms;
  j["duration_ms"] = e.duration_ms;
  j["baseline"] = r.variants[0].name;
  OrderedJson variants = OrderedJson::array();
  for (const Variant& v : r.variants) {
    auto policy = [](const PolicySpec& p) {
      return OrderedJson{{"name", p.name}, {"params", ParamMapJson(p.params)}};
    };
    variants.push_back(
        {{"name", v.name},
         {"description", v.description},
         {"cpufreq", policy(v.cpufreq)},
         {"cpuidle", policy(v.cpuidle)},
         {"placement", policy(v.placement)},
         {"kernel", v.kernel.empty() ? OrderedJson() : OrderedJson(v.kernel)},
         {"config", v.config_overrides}});
  }
  j["variants"] = std::move(variants);
  OrderedJson metrics = OrderedJson::array();
  for (const workloads::MetricInfo& m : r.metrics) {
    metrics.push_back({{"name", m.name},
                       {"unit", m.unit},
                       {"higher_is_better", m.higher_is_better},
                       {"mean", MeanKey(m.mean)},
                       {"doc", m.doc}});
  }
  j["metrics"] = std::move(metrics);
  j["cstates"] = r.cstate_names;

  OrderedJson points = OrderedJson::array();
  for (int p = 0; p < e.num_points(); ++p) {
    OrderedJson point;
    point["sweep_value"] =
        e.sweep ? ParamValueJson(e.sweep->values[p]) : OrderedJson(nullptr);
    OrderedJson params = OrderedJson::object();
    for (const auto& [name, value] : r.point_params[p].values()) {
      params[name] = ParamValueJson(value);
    }
    point["params"] = std::move(params);
    OrderedJson by_variant = OrderedJson::object();
    for (size_t v = 0; v < r.variants.size(); ++v) {
      OrderedJson variant;
      OrderedJson ms = OrderedJson::object();
      for (size_t m = 0; m < r.metrics.size(); ++m) {
        const workloads::MetricInfo& info = r.metrics[m];
        const Cell& c = cells[p][v][m];
        OrderedJson one;
        one["unit"] = info.unit;
        one["higher_is_better"] = info.higher_is_better;
        one["mean"] = MeanKey(info.mean);
        OrderedJson samples = OrderedJson::array();
        for (double s : c.samples) samples.push_back(Number(s));
        one["samples"] = std::move(samples);
        one["summary"] = {{"n", c.summary.n},
                          {"amean", Number(c.summary.amean)},
                          {"hmean", Number(c.summary.hmean)},
                          {"gmean", Number(c.summary.gmean)},
                          {"stddev", Number(c.summary.stddev)},
                          {"coeffvar", Number(c.summary.coeffvar)},
                          {"min", Number(c.summary.min)},
                          {"max", Number(c.summary.max)}};
        one["diff_pct"] = Number(c.diff_pct);
        one["amean_diff_pct"] = Number(c.amean_diff_pct);
        one["ci95_pct"] = Number(c.ci95_pct);
        one["t"] = Number(c.welch.t);
        one["df"] = Number(c.welch.df);
        one["p_value"] = Number(c.welch.p_value);
        one["significant"] = c.significant;
        one["identical"] = c.identical;
        ms[info.name] = std::move(one);
      }
      variant["metrics"] = std::move(ms);
      variant["report"] = VariantReportJson(r.Report(p, static_cast<int>(v)));
      OrderedJson runs = OrderedJson::array();
      for (size_t i = 0; i < r.runs[p][v].size(); ++i) {
        const RunResult& run = r.runs[p][v][i];
        OrderedJson one;
        one["iteration"] = i;
        one["seed"] = run.seed;
        one["events"] = run.events;
        if (run.settle) one["settle"] = SettleOutcomeJson(*run.settle);
        OrderedJson values = OrderedJson::object();
        for (size_t m = 0; m < r.metrics.size(); ++m) {
          values[r.metrics[m].name] = Number(run.metrics[m]);
        }
        one["metrics"] = std::move(values);
        one["report"] = RunReportJson(run.report, r.cstate_names);
        runs.push_back(std::move(one));
      }
      variant["runs"] = std::move(runs);
      by_variant[r.variants[v].name] = std::move(variant);
    }
    point["variants"] = std::move(by_variant);
    points.push_back(std::move(point));
  }
  j["points"] = std::move(points);
  j["warnings"] = AllWarnings(e, r, cells);
  return j;
}

std::string ResultCsv(const Experiment& e, const ExperimentResult& r) {
  const Cells cells = ComputeCells(e, r);
  std::string out =
      "sweep_param,sweep_value,variant,metric,unit,row,iteration,seed,value\n";
  const std::string param = e.sweep ? CsvField(e.sweep->param) : "";
  for (int p = 0; p < e.num_points(); ++p) {
    const std::string value = CsvField(e.PointValue(p));
    for (size_t v = 0; v < r.variants.size(); ++v) {
      for (size_t m = 0; m < r.metrics.size(); ++m) {
        const Cell& c = cells[p][v][m];
        const std::string prefix = absl::StrCat(
            param, ",", value, ",", CsvField(r.variants[v].name), ",",
            CsvField(r.metrics[m].name), ",", CsvField(r.metrics[m].unit), ",");
        for (size_t i = 0; i < c.samples.size(); ++i) {
          absl::StrAppend(&out, prefix, "sample,", i, ",", r.runs[p][v][i].seed,
                          ",", CsvNumber(c.samples[i]), "\n");
        }
        const std::vector<std::pair<const char*, double>> summary = {
            {"amean", c.summary.amean},       {"hmean", c.summary.hmean},
            {"gmean", c.summary.gmean},       {"stddev", c.summary.stddev},
            {"coeffvar", c.summary.coeffvar}, {"min", c.summary.min},
            {"max", c.summary.max},           {"diff_pct", c.diff_pct},
            {"ci95_pct", c.ci95_pct},         {"p_value", c.welch.p_value},
        };
        for (const auto& [row, number] : summary) {
          absl::StrAppend(&out, prefix, row, ",,,", CsvNumber(number), "\n");
        }
      }
    }
  }
  return out;
}

}  // namespace schedsim::experiments
