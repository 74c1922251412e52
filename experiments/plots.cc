// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/plots.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "experiments/compare.h"
#include "experiments/reports.h"
#include "experiments/statistics.h"

namespace schedsim::experiments {
namespace {

constexpr int kGnuplotTimeoutS = 120;

// `text` as a file-name part: letters, digits, '.', '_' and '-' kept, the
// rest '_'.
std::string FileSafe(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) c = '_';
  }
  return out.empty() ? "_" : out;
}

// A gnuplot single-quoted string (no escapes; '' is a quote).
std::string Gp(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out.push_back('\'');
    if (c == '\n' || c == '\r') c = ' ';
    out.push_back(c);
  }
  return out + "'";
}

// A label in a data file: double-quoted, without double quotes inside.
std::string DatLabel(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out.push_back(c == '"' || c == '\n' ? '\'' : c);
  return out + "\"";
}

std::string Num(double v) { return absl::StrFormat("%.10g", v); }

// The script's settings before each plot.
std::string PlotHeader(const std::string& png, const std::string& title) {
  return absl::StrCat(
      "\nreset\nset output ", Gp(png), "\nset title ", Gp(title),
      "\nset grid ytics\nset key outside right top\nset border 3\n"
      "set tics nomirror\n");
}

// Per metric: the mean of each variant with min..max error bars, over the
// sweep values (lines) or the variants (bars).
void MetricPlots(const Experiment& e, const ExperimentResult& r,
                 PlotFiles* plots, std::string* script) {
  const int points = e.num_points();
  const int variants = static_cast<int>(r.variants.size());
  for (size_t m = 0; m < r.metrics.size(); ++m) {
    const workloads::MetricInfo& metric = r.metrics[m];
    const std::string base = "metric-" + FileSafe(metric.name);
    std::string dat = absl::StrCat(
        "# ", metric.name, " (", metric.unit, "): ", MeanLabel(metric.mean),
        ", min and max over ", e.iterations, " iterations\n");
    const std::string title =
        absl::StrCat(metric.name, " (", metric.unit, ", ",
                     metric.higher_is_better ? "higher" : "lower",
                     " is better): ", MeanLabel(metric.mean), " of ",
                     e.iterations, " iterations, bars from min to max");
    std::string& gp = *script;
    absl::StrAppend(&gp, PlotHeader(base + ".png", title), "set ylabel ",
                    Gp(metric.unit), "\n");
    if (!e.sweep) {
      absl::StrAppend(&dat, "# index variant mean min max\n");
      for (int v = 0; v < variants; ++v) {
        const Summary s = Summarize(r.Samples(0, v, static_cast<int>(m)));
        absl::StrAppend(&dat, v, " ", DatLabel(r.variants[v].name), " ",
                        Num(MeanOf(s, metric.mean)), " ", Num(s.min), " ",
                        Num(s.max), "\n");
      }
      absl::StrAppend(
          &gp, "set xrange [-0.5:", variants - 0.5,
          "]\nset yrange [0:*]\nset boxwidth 0.6\n"
          "set style fill solid 0.5 border -1\nplot ",
          Gp(base + ".dat"),
          " using 1:3:xtic(2) with boxes notitle, '' using 1:3:4:5 with "
          "yerrorbars lc rgb 'black' pt 7 title 'min..max'\n");
    } else {
      absl::StrAppend(&dat, "# index ", e.sweep->param);
      for (const Variant& v : r.variants) {
        absl::StrAppend(&dat, " ", FileSafe(v.name), ":mean,min,max");
      }
      dat.push_back('\n');
      for (int p = 0; p < points; ++p) {
        absl::StrAppend(&dat, p, " ", DatLabel(e.PointValue(p)));
        for (int v = 0; v < variants; ++v) {
          const Summary s = Summarize(r.Samples(p, v, static_cast<int>(m)));
          absl::StrAppend(&dat, " ", Num(MeanOf(s, metric.mean)), " ",
                          Num(s.min), " ", Num(s.max));
        }
        dat.push_back('\n');
      }
      absl::StrAppend(&gp, "set xlabel ", Gp(e.sweep->param),
                      "\nset xrange [-0.5:", points - 0.5, "]\nplot ");
      for (int v = 0; v < variants; ++v) {
        // Side by side, so that the bars do not hide each other.
        const double offset = (v - (variants - 1) / 2.0) * 0.06;
        absl::StrAppend(&gp, v == 0 ? Gp(base + ".dat") : ", ''", " using ($1",
                        offset < 0 ? "" : "+", Num(offset), "):", 3 + 3 * v,
                        ":", 4 + 3 * v, ":", 5 + 3 * v,
                        v == 0 ? ":xtic(2)" : "", " with yerrorlines title ",
                        Gp(r.variants[v].name));
      }
      gp.push_back('\n');
    }
    plots->files.emplace_back(base + ".dat", std::move(dat));
    plots->pngs.push_back(base + ".png");
  }
}

// One clustered bar chart: `rows` (label, value per variant).
void Histogram(
    const std::string& base, const std::string& title,
    const std::string& ylabel, const std::string& what,
    const std::vector<std::string>& variant_names,
    const std::vector<std::pair<std::string, std::vector<double>>>& rows,
    PlotFiles* plots, std::string* script) {
  std::string dat = absl::StrCat("# ", title, "\n# ", what);
  for (const std::string& v : variant_names) {
    absl::StrAppend(&dat, " ", FileSafe(v));
  }
  dat.push_back('\n');
  for (const auto& [label, values] : rows) {
    dat += DatLabel(label);
    for (double v : values) absl::StrAppend(&dat, " ", Num(v));
    dat.push_back('\n');
  }
  absl::StrAppend(script, PlotHeader(base + ".png", title), "set ylabel ",
                  Gp(ylabel), "\nset xlabel ", Gp(what),
                  "\nset yrange [0:*]\nset style data histograms\n"
                  "set style histogram clustered gap 1\n"
                  "set style fill solid 0.8 border -1\n");
  if (rows.size() > 12) absl::StrAppend(script, "set xtics rotate by -45\n");
  absl::StrAppend(script, "plot ");
  for (size_t v = 0; v < variant_names.size(); ++v) {
    absl::StrAppend(script, v == 0 ? Gp(base + ".dat") : ", ''", " using ",
                    v + 2, v == 0 ? ":xtic(1)" : "", " title ",
                    Gp(variant_names[v]));
  }
  script->push_back('\n');
  plots->files.emplace_back(base + ".dat", std::move(dat));
  plots->pngs.push_back(base + ".png");
}

// Per sweep value: C-state residency and frequency residency.
void ResidencyPlots(const Experiment& e, const ExperimentResult& r,
                    PlotFiles* plots, std::string* script) {
  std::vector<std::string> names;
  for (const Variant& v : r.variants) names.push_back(v.name);
  for (int p = 0; p < e.num_points(); ++p) {
    std::vector<VariantReport> reports;
    for (size_t v = 0; v < r.variants.size(); ++v) {
      reports.push_back(r.Report(p, static_cast<int>(v)));
    }
    const std::string suffix =
        e.sweep ? "-" + FileSafe(e.PointValue(p)) : std::string();
    const std::string at =
        e.sweep ? absl::StrCat(", ", e.PointName(p)) : std::string();
    if (!r.cstate_names.empty()) {
      std::vector<std::pair<std::string, std::vector<double>>> rows;
      rows.emplace_back("C0", std::vector<double>());
      for (const VariantReport& v : reports) {
        rows[0].second.push_back(v.c0_avg_pct);
      }
      for (size_t s = 0; s < r.cstate_names.size(); ++s) {
        std::vector<double> values;
        for (const VariantReport& v : reports) {
          values.push_back(s < v.cstate_avg_pct.size() ? v.cstate_avg_pct[s]
                                                       : 0.0);
        }
        rows.emplace_back(r.cstate_names[s], std::move(values));
      }
      Histogram("cstates" + suffix,
                absl::StrCat(
                    "C-state residency (%C0 includes POLL; mean over CPUs and ",
                    e.iterations, " iterations", at, ")"),
                "% of time", "state", names, rows, plots, script);
    }
    std::map<int64_t, std::vector<double>> by_khz;
    for (size_t v = 0; v < reports.size(); ++v) {
      for (const auto& [khz, pct] : reports[v].busy_pct_at_khz) {
        std::vector<double>& row = by_khz[khz];
        row.resize(reports.size(), 0.0);
        row[v] = pct;
      }
    }
    if (!by_khz.empty()) {
      std::vector<std::pair<std::string, std::vector<double>>> rows;
      for (auto& [khz, values] : by_khz) {
        rows.emplace_back(Num(khz / 1000.0), std::move(values));
      }
      Histogram("freq" + suffix,
                absl::StrCat("Frequency residency (busy time, all CPUs, ",
                             e.iterations, " iterations", at, ")"),
                "% of busy time", "MHz", names, rows, plots, script);
    }
  }
}

// A heat map of one value per (bin, CPU row): `value(cpu, bin)` is written
// as is, NaN when `known` says it is not known.
template <typename Value>
void TimelineMap(const std::string& base, const std::string& title,
                 const std::string& cblabel, const traces::CpuTimeline& t,
                 Value value, const std::string& palette, PlotFiles* plots,
                 std::string* script) {
  const std::vector<int>& cpus = t.cpus();
  std::string dat =
      absl::StrCat("# ", title, "\n# time_ms row ", cblabel, " (row r is CPU ",
                   "cpus[r]; NaN: not known)\n");
  for (size_t row = 0; row < cpus.size(); ++row) {
    for (int b = 0; b < t.bins(); ++b) {
      const double mid_ms = (t.BinStartNs(b) + t.BinStartNs(b + 1)) / 2.0 / 1e6;
      const double v = value(cpus[row], b);
      absl::StrAppend(&dat, Num(mid_ms), " ", row, " ",
                      std::isnan(v) ? std::string("NaN") : Num(v), "\n");
    }
    dat.push_back('\n');
  }
  std::string ytics;
  const size_t step = std::max<size_t>(1, (cpus.size() + 15) / 16);
  for (size_t row = 0; row < cpus.size(); row += step) {
    absl::StrAppend(&ytics, ytics.empty() ? "" : ", ", "'", cpus[row], "' ",
                    row);
  }
  absl::StrAppend(script, PlotHeader(base + ".png", title), "set xlabel ",
                  Gp("simulated time (ms)"), "\nset ylabel 'CPU'\nset cblabel ",
                  Gp(cblabel), "\nset xrange [", Num(t.from_ns() / 1e6), ":",
                  Num(t.to_ns() / 1e6),
                  "]\nset yrange [-0.5:", Num(cpus.size() - 0.5),
                  "]\nset ytics (", ytics, ")\n", palette, "plot ",
                  Gp(base + ".dat"), " using 1:2:3 with image notitle\n");
  plots->files.emplace_back(base + ".dat", std::move(dat));
  plots->pngs.push_back(base + ".png");
}

// Per traced variant: frequency and idle state over time, per CPU.
void TimelinePlots(const ExperimentResult& r,
                   const std::vector<TimelinePlot>& timelines, PlotFiles* plots,
                   std::string* script) {
  for (const TimelinePlot& tp : timelines) {
    if (tp.timeline == nullptr || tp.timeline->cpus().empty()) continue;
    const traces::CpuTimeline& t = *tp.timeline;
    const std::string v = FileSafe(tp.variant);
    const std::string span =
        absl::StrCat(Num(t.from_ns() / 1e6), "-", Num(t.to_ns() / 1e6), " ms");
    TimelineMap(
        "timeline-freq-" + v,
        absl::StrCat("Frequency per CPU over time, ", tp.variant,
                     " (the traced iteration, ", span, ")"),
        "MHz", t,
        [&](int cpu, int bin) {
          const double khz = t.MeanKhz(cpu, bin);
          return khz < 0 ? std::nan("") : khz / 1000.0;
        },
        "set palette rgbformulae 33,13,10\nset cbrange [*:*]\n", plots, script);
    // 0 = C0 (not idle), s + 1 = idle state s.
    const int states = std::max<int>(t.num_idle_states(),
                                     static_cast<int>(r.cstate_names.size()));
    std::string cbtics = "'C0' 0";
    for (int s = 0; s < states; ++s) {
      absl::StrAppend(&cbtics, ", ",
                      Gp(s < static_cast<int>(r.cstate_names.size())
                             ? r.cstate_names[s]
                             : absl::StrCat("state ", s)),
                      " ", s + 1);
    }
    TimelineMap(
        "timeline-idle-" + v,
        absl::StrCat("Idle state per CPU over time (the state of most of each ",
                     "bin), ", tp.variant, " (", span, ")"),
        "idle state", t,
        [&](int cpu, int bin) {
          const int st = t.MainIdleState(cpu, bin);
          return st == traces::CpuTimeline::kUnknown ? std::nan("") : st + 1.0;
        },
        absl::StrCat("set palette maxcolors ", std::max(states + 1, 2),
                     "\nset palette defined (0 '#d62728', 1 '#ffbf00', 2 "
                     "'#2ca02c', 3 '#1f77b4', 4 '#17becf', 5 '#9467bd')\n"
                     "set cbrange [-0.5:",
                     Num(std::max(states, 1) + 0.5), "]\nset cbtics (", cbtics,
                     ")\n"),
        plots, script);
  }
}

// The program `name` (a path, or looked up in PATH); "" if not found.
std::string FindProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    return access(name.c_str(), X_OK) == 0 ? name : "";
  }
  const char* path = std::getenv("PATH");
  for (absl::string_view dir :
       absl::StrSplit(path != nullptr ? path : "/usr/bin:/bin", ':')) {
    std::string candidate = absl::StrCat(dir.empty() ? "." : dir, "/", name);
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// Runs `program kPlotScript` in `dir`; its output (stdout and stderr) goes
// to `*output`.
absl::Status RunGnuplot(const std::string& program, const std::string& dir,
                        std::string* output) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    if (chdir(dir.c_str()) != 0) _exit(126);
    execl(program.c_str(), program.c_str(), kPlotScript,
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(kGnuplotTimeoutS);
  bool timed_out = false;
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (output->size() < (1 << 16)) output->append(buf, n);
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    return absl::InternalError(absl::StrCat("gnuplot ran over ",
                                            kGnuplotTimeoutS, " s on ", dir,
                                            "/", kPlotScript));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::vector<absl::string_view> lines = absl::StrSplit(
        absl::string_view(*output), '\n', absl::SkipWhitespace());
    if (lines.size() > 8) lines.resize(8);
    return absl::InternalError(absl::StrCat(
        "gnuplot failed on ", dir, "/", kPlotScript, " (",
        WIFEXITED(status) ? absl::StrCat("exit ", WEXITSTATUS(status))
                          : absl::StrCat("signal ", WTERMSIG(status)),
        ")", lines.empty() ? "" : ": ", absl::StrJoin(lines, " / ")));
  }
  return absl::OkStatus();
}

}  // namespace

PlotFiles MakePlots(const Experiment& e, const ExperimentResult& r,
                    const std::vector<TimelinePlot>& timelines) {
  PlotFiles plots;
  std::string script = absl::StrCat(
      "# The pictures of `schedsim run ", e.filename,
      " --plots=DIR`; run `gnuplot ", kPlotScript,
      "` in DIR to redraw them.\n"
      "set terminal pngcairo size 960,540 noenhanced font ',10'\n");
  MetricPlots(e, r, &plots, &script);
  ResidencyPlots(e, r, &plots, &script);
  TimelinePlots(r, timelines, &plots, &script);
  absl::StrAppend(&script, "\nunset output\n");
  plots.files.emplace_back(kPlotScript, std::move(script));
  return plots;
}

absl::Status WritePlots(const Experiment& e, const ExperimentResult& r,
                        const std::string& dir, const std::string& gnuplot,
                        const std::vector<TimelinePlot>& timelines) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat("--plots: cannot create ", dir, ": ", ec.message()));
  }
  const PlotFiles plots = MakePlots(e, r, timelines);
  for (const auto& [name, text] : plots.files) {
    const std::string path = absl::StrCat(dir, "/", name);
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (f) f << text;
    if (f) f.close();
    if (!f) {
      return absl::InvalidArgumentError(
          absl::StrCat("--plots: cannot write ", path));
    }
  }
  const std::string program = FindProgram(gnuplot);
  if (program.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "--plots: gnuplot not found ('", gnuplot,
        "' is not an executable in PATH): install Debian's gnuplot-nox "
        "(dev/setup installs it), or draw the pictures later with `gnuplot ",
        kPlotScript, "` in ", dir, ", where the data and the script are"));
  }
  std::string output;
  absl::Status ran = RunGnuplot(program, dir, &output);
  if (!ran.ok()) return ran;
  for (const std::string& png : plots.pngs) {
    if (!std::filesystem::exists(absl::StrCat(dir, "/", png), ec)) {
      return absl::InternalError(absl::StrCat(
          "gnuplot did not write ", dir, "/", png,
          output.empty() ? "" : absl::StrCat(": ", output.substr(0, 500))));
    }
  }
  return absl::OkStatus();
}

}  // namespace schedsim::experiments
