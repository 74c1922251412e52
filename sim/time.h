// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Simulated time. `SimTime` is an absolute instant and `SimDuration` a signed
// span between two instants; both are a single int64 count of nanoseconds, so
// they cost exactly what a raw int64 costs (trivially copyable, constexpr, no
// floating point anywhere). The separate types keep "instant" and "span" from
// being mixed up: instant + span is an instant, instant - instant is a span,
// instant + instant does not compile.
//
//   SimTime now = SimTime::Zero() + Milliseconds(4);
//   SimDuration slice = Microseconds(750);
//   SimTime deadline = now + 3 * slice;
//   SimDuration left = deadline - now;  // 2.25 ms
//
// Range: int64 nanoseconds covers +-292 years. Arithmetic that overflows is
// undefined behaviour, as for int64 (in a constant expression it is a
// compile error). `SimTime::Max()` means "never"; do not add to it.
//
// Conversions to double (`ToDoubleSeconds()` etc.) are for reports and
// plots only: simulation logic must stay in integer nanoseconds so that runs
// are bit-for-bit reproducible.

#ifndef SCHEDSIM_SIM_TIME_H_
#define SCHEDSIM_SIM_TIME_H_

#include <cstdint>
#include <limits>
#include <ostream>
#include <utility>

namespace schedsim::sim {

class SimDuration;
constexpr SimDuration Nanoseconds(int64_t n);

// A signed span of simulated time, in nanoseconds.
class SimDuration {
 public:
  // Zero.
  constexpr SimDuration() = default;

  static constexpr SimDuration Zero() { return SimDuration(0); }
  // The longest representable span (about 292 years).
  static constexpr SimDuration Max() {
    return SimDuration(std::numeric_limits<int64_t>::max());
  }

  // The span as a count of nanoseconds.
  constexpr int64_t ns() const { return ns_; }
  // For reporting only; see the file comment.
  constexpr double ToDoubleSeconds() const { return ns_ * 1e-9; }
  constexpr double ToDoubleMilliseconds() const { return ns_ * 1e-6; }
  constexpr double ToDoubleMicroseconds() const { return ns_ * 1e-3; }

  constexpr SimDuration& operator+=(SimDuration d) {
    ns_ += d.ns_;
    return *this;
  }
  constexpr SimDuration& operator-=(SimDuration d) {
    ns_ -= d.ns_;
    return *this;
  }
  constexpr SimDuration& operator*=(int64_t k) {
    ns_ *= k;
    return *this;
  }
  // Truncates toward zero, like int64 division. REQUIRES: k != 0.
  constexpr SimDuration& operator/=(int64_t k) {
    ns_ /= k;
    return *this;
  }

  friend constexpr SimDuration operator+(SimDuration a, SimDuration b) {
    return SimDuration(a.ns_ + b.ns_);
  }
  friend constexpr SimDuration operator-(SimDuration a, SimDuration b) {
    return SimDuration(a.ns_ - b.ns_);
  }
  friend constexpr SimDuration operator-(SimDuration d) {
    return SimDuration(-d.ns_);
  }
  friend constexpr SimDuration operator*(SimDuration d, int64_t k) {
    return SimDuration(d.ns_ * k);
  }
  friend constexpr SimDuration operator*(int64_t k, SimDuration d) {
    return SimDuration(k * d.ns_);
  }
  // Truncates toward zero. REQUIRES: k != 0.
  friend constexpr SimDuration operator/(SimDuration d, int64_t k) {
    return SimDuration(d.ns_ / k);
  }
  // How many whole `b` fit in `a` (truncated toward zero). REQUIRES: b != 0.
  friend constexpr int64_t operator/(SimDuration a, SimDuration b) {
    return a.ns_ / b.ns_;
  }
  // The remainder of `a / b`, with the sign of `a`. REQUIRES: b != 0.
  friend constexpr SimDuration operator%(SimDuration a, SimDuration b) {
    return SimDuration(a.ns_ % b.ns_);
  }

  friend constexpr bool operator==(SimDuration a, SimDuration b) {
    return a.ns_ == b.ns_;
  }
  friend constexpr bool operator!=(SimDuration a, SimDuration b) {
    return a.ns_ != b.ns_;
  }
  friend constexpr bool operator<(SimDuration a, SimDuration b) {
    return a.ns_ < b.ns_;
  }
  friend constexpr bool operator<=(SimDuration a, SimDuration b) {
    return a.ns_ <= b.ns_;
  }
  friend constexpr bool operator>(SimDuration a, SimDuration b) {
    return a.ns_ > b.ns_;
  }
  friend constexpr bool operator>=(SimDuration a, SimDuration b) {
    return a.ns_ >= b.ns_;
  }

  template <typename H>
  friend H AbslHashValue(H h, SimDuration d) {
    return H::combine(std::move(h), d.ns_);
  }
  // Prints e.g. "1500ns".
  friend std::ostream& operator<<(std::ostream& os, SimDuration d) {
    return os << d.ns_ << "ns";
  }

 private:
  friend constexpr SimDuration Nanoseconds(int64_t n);
  explicit constexpr SimDuration(int64_t ns) : ns_(ns) {}

  int64_t ns_ = 0;
};

// Factories. REQUIRES: the result fits in int64 nanoseconds (|Seconds(n)|
// needs |n| < 9.2e9).
constexpr SimDuration Nanoseconds(int64_t n) { return SimDuration(n); }
constexpr SimDuration Microseconds(int64_t n) { return Nanoseconds(n * 1000); }
constexpr SimDuration Milliseconds(int64_t n) {
  return Nanoseconds(n * 1000000);
}
constexpr SimDuration Seconds(int64_t n) { return Nanoseconds(n * 1000000000); }

// An absolute simulated instant: nanoseconds since the start of the
// simulation (the epoch, `SimTime::Zero()`).
class SimTime {
 public:
  // The epoch.
  constexpr SimTime() = default;

  static constexpr SimTime FromNanoseconds(int64_t ns) { return SimTime(ns); }
  static constexpr SimTime Zero() { return SimTime(0); }
  // "Never": later than every instant a simulation reaches. Adding a
  // positive duration to it overflows (undefined behaviour).
  static constexpr SimTime Max() {
    return SimTime(std::numeric_limits<int64_t>::max());
  }

  // Nanoseconds since the epoch.
  constexpr int64_t ns() const { return ns_; }
  constexpr SimDuration SinceEpoch() const { return Nanoseconds(ns_); }
  // Seconds since the epoch. For reporting only; see the file comment.
  constexpr double ToDoubleSeconds() const { return ns_ * 1e-9; }

  constexpr SimTime& operator+=(SimDuration d) {
    ns_ += d.ns();
    return *this;
  }
  constexpr SimTime& operator-=(SimDuration d) {
    ns_ -= d.ns();
    return *this;
  }

  friend constexpr SimTime operator+(SimTime t, SimDuration d) {
    return SimTime(t.ns_ + d.ns());
  }
  friend constexpr SimTime operator+(SimDuration d, SimTime t) {
    return SimTime(d.ns() + t.ns_);
  }
  friend constexpr SimTime operator-(SimTime t, SimDuration d) {
    return SimTime(t.ns_ - d.ns());
  }
  friend constexpr SimDuration operator-(SimTime a, SimTime b) {
    return Nanoseconds(a.ns_ - b.ns_);
  }

  friend constexpr bool operator==(SimTime a, SimTime b) {
    return a.ns_ == b.ns_;
  }
  friend constexpr bool operator!=(SimTime a, SimTime b) {
    return a.ns_ != b.ns_;
  }
  friend constexpr bool operator<(SimTime a, SimTime b) {
    return a.ns_ < b.ns_;
  }
  friend constexpr bool operator<=(SimTime a, SimTime b) {
    return a.ns_ <= b.ns_;
  }
  friend constexpr bool operator>(SimTime a, SimTime b) {
    return a.ns_ > b.ns_;
  }
  friend constexpr bool operator>=(SimTime a, SimTime b) {
    return a.ns_ >= b.ns_;
  }

  template <typename H>
  friend H AbslHashValue(H h, SimTime t) {
    return H::combine(std::move(h), t.ns_);
  }
  // Prints e.g. "@1500ns".
  friend std::ostream& operator<<(std::ostream& os, SimTime t) {
    return os << '@' << t.ns_ << "ns";
  }

 private:
  explicit constexpr SimTime(int64_t ns) : ns_(ns) {}

  int64_t ns_ = 0;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_TIME_H_
