// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// ProgressLine: the one-line progress display of `schedsim run` and
// `schedsim validate` on a terminal:
//
//   [#########.....................] 12/40 runs, 0:42 elapsed, ETA 1:38
//
// redrawn in place on each Update() and, from a background thread, every
// `period` (1 s by default) even when nothing finished, so the elapsed time
// and the ETA move during long runs. The ETA is the elapsed time per unit
// done times the units left; before the first unit finishes it is the cost
// estimate given to the constructor less the elapsed time (`?` without
// one). Print() writes a whole line above the bar; Clear() erases it and
// stops the redraws. Thread-safe.

#ifndef SCHEDSIM_CLI_PROGRESS_H_
#define SCHEDSIM_CLI_PROGRESS_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>  // NOLINT(build/c++11)

#include "absl/strings/string_view.h"

namespace schedsim::cli {

// "m:ss", or "h:mm:ss" from an hour on; negative or not finite reads as 0.
std::string FormatDuration(double seconds);

// The ETA in seconds: elapsed / done x (total - done) when done > 0, else
// estimate - elapsed (at least 0); < 0 when not known (done 0, no
// estimate).
double EstimateSecondsLeft(double elapsed_s, int64_t done, int64_t total,
                           double estimate_s);

// The line, without the leading \r: bar, counts, elapsed and ETA.
std::string ProgressText(int64_t done, int64_t total, absl::string_view unit,
                         double elapsed_s, double eta_s);

class ProgressLine {
 public:
  // `out` is not owned (stderr, in practice). `unit` names what is counted
  // ("runs"); `estimate_s` is the whole job's estimated wall time, <= 0 if
  // none.
  ProgressLine(std::ostream* out, std::string unit, double estimate_s,
               std::chrono::milliseconds period = std::chrono::seconds(1));
  ~ProgressLine();

  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void Update(int64_t done, int64_t total);
  // Erases the bar, writes `line` (a newline is added) and redraws.
  void Print(absl::string_view line);
  // Erases the bar and stops redrawing (Update() and Print() draw again).
  void Clear();

  // Redraws so far (Update's and the thread's).
  int64_t draws() const;

 private:
  void DrawLocked();
  void Tick();

  std::ostream* out_;
  std::string unit_;
  double estimate_s_;
  std::chrono::milliseconds period_;
  std::chrono::steady_clock::time_point start_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int64_t done_ = 0;
  int64_t total_ = 0;
  bool shown_ = false;
  bool stop_ = false;
  int64_t draws_ = 0;
  std::thread ticker_;
};

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_PROGRESS_H_
