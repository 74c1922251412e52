// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/progress.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_format.h"

namespace schedsim::cli {

std::string FormatDuration(double s) {
  if (!std::isfinite(s) || s < 0) s = 0;
  const int64_t t = static_cast<int64_t>(std::llround(s));
  if (t >= 3600) {
    return absl::StrFormat("%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60);
  }
  return absl::StrFormat("%d:%02d", t / 60, t % 60);
}

double EstimateSecondsLeft(double elapsed_s, int64_t done, int64_t total,
                           double estimate_s) {
  if (done > 0) {
    const int64_t left = total > done ? total - done : 0;
    return elapsed_s / static_cast<double>(done) * static_cast<double>(left);
  }
  if (estimate_s > 0)
    return estimate_s > elapsed_s ? estimate_s - elapsed_s : 0;
  return -1;
}

std::string ProgressText(int64_t done, int64_t total, absl::string_view unit,
                         double elapsed_s, double eta_s) {
  constexpr int kWidth = 30;
  const int filled =
      total > 0 ? static_cast<int>(std::min(done, total) * kWidth / total)
                : kWidth;
  return absl::StrFormat(
      "[%s%s] %d/%d %s, %s elapsed, ETA %s", std::string(filled, '#'),
      std::string(kWidth - filled, '.'), done, total, unit,
      FormatDuration(elapsed_s), eta_s < 0 ? "?" : FormatDuration(eta_s));
}

ProgressLine::ProgressLine(std::ostream* out, std::string unit,
                           double estimate_s, std::chrono::milliseconds period)
    : out_(out),
      unit_(std::move(unit)),
      estimate_s_(estimate_s),
      period_(period),
      start_(std::chrono::steady_clock::now()) {
  ticker_ = std::thread([this] { Tick(); });
}

ProgressLine::~ProgressLine() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  ticker_.join();
}

void ProgressLine::Tick() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    cv_.wait_for(lock, period_, [this] { return stop_; });
    if (!stop_ && shown_) DrawLocked();
  }
}

void ProgressLine::DrawLocked() {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
          .count();
  *out_ << "\r\033[K"
        << ProgressText(
               done_, total_, unit_, elapsed,
               EstimateSecondsLeft(elapsed, done_, total_, estimate_s_))
        << std::flush;
  shown_ = true;
  ++draws_;
}

void ProgressLine::Update(int64_t done, int64_t total) {
  std::lock_guard<std::mutex> lock(mu_);
  done_ = done;
  total_ = total;
  DrawLocked();
}

void ProgressLine::Print(absl::string_view line) {
  std::lock_guard<std::mutex> lock(mu_);
  *out_ << "\r\033[K" << line << "\n";
  DrawLocked();
}

void ProgressLine::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  if (shown_) *out_ << "\r\033[K" << std::flush;
  shown_ = false;
}

int64_t ProgressLine::draws() const {
  std::lock_guard<std::mutex> lock(mu_);
  return draws_;
}

}  // namespace schedsim::cli
