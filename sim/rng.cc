// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/rng.h"

#include <cassert>
#include <cmath>
#include <cstdint>

#include "absl/numeric/int128.h"

namespace schedsim::sim {
namespace {

constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15;
// Offsets the index before it is mixed: Mix64(0) == 0, so without it child 0
// of `seed` would be Mix64(seed), a value related to the parent's own
// SplitMix64 sequence. Arbitrary odd constant (fractional bits of e).
constexpr uint64_t kDeriveSalt = 0xb7e151628aed2a6b;
// Separates Fork's hashing of the state from DeriveSeed's of a seed
// (fractional bits of sqrt(2)).
constexpr uint64_t kForkSalt = 0x6a09e667f3bcc909;

}  // namespace

uint64_t SplitMix64Next(uint64_t* state) {
  *state += kGoldenGamma;
  return Mix64(*state);
}

uint64_t Mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9;
  x = (x ^ (x >> 27)) * 0x94d049bb133111eb;
  return x ^ (x >> 31);
}

uint64_t DeriveSeed(uint64_t seed, uint64_t index) {
  // Both steps are bijections, so for a fixed seed the map index -> child is
  // one-to-one; the outer Mix64 decorrelates children of nearby seeds.
  return Mix64(seed ^ Mix64(index + kDeriveSalt));
}

Rng::Rng(uint64_t seed) {
  uint64_t sm = seed;
  for (uint64_t& word : s_) word = SplitMix64Next(&sm);
  // SplitMix64 is a bijection of its counter, so four successive outputs
  // cannot all be zero.
}

Rng Rng::FromState(const std::array<uint64_t, 4>& state) {
  assert((state[0] | state[1] | state[2] | state[3]) != 0 &&
         "xoshiro256** state must not be all zero");
  Rng rng;
  rng.s_ = state;
  return rng;
}

uint64_t Rng::UniformU64(uint64_t n) {
  assert(n > 0);
  absl::uint128 m = absl::uint128(NextU64()) * n;
  uint64_t low = absl::Uint128Low64(m);
  if (low < n) {
    // 2^64 mod n: the number of low products that would bias the result.
    const uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = absl::uint128(NextU64()) * n;
      low = absl::Uint128Low64(m);
    }
  }
  return absl::Uint128High64(m);
}

int64_t Rng::UniformInt(int64_t lo, int64_t hi) {
  assert(lo < hi);
  // Unsigned arithmetic: hi - lo may exceed INT64_MAX, and wraps correctly.
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + UniformU64(span));
}

double Rng::Exponential(double mean) {
  assert(mean > 0);
  // 1 - U is exact and lies in [2^-53, 1], so the log is finite.
  const double one_minus_u = 1.0 - UniformDouble();
  return -mean * std::log(one_minus_u);
}

double Rng::Normal(double mean, double stddev) {
  assert(stddev >= 0);
  double z;
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    z = spare_normal_;
  } else {
    double u, v, s;
    do {
      // 2U - 1 is exact: uniform multiples of 2^-52 in [-1, 1).
      u = 2.0 * UniformDouble() - 1.0;
      v = 2.0 * UniformDouble() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double factor = std::sqrt(-2.0 * std::log(s) / s);
    spare_normal_ = v * factor;
    has_spare_normal_ = true;
    z = u * factor;
  }
  return mean + stddev * z;
}

double Rng::LogNormal(double mu, double sigma) {
  return std::exp(Normal(mu, sigma));
}

Rng Rng::Fork(uint64_t stream_id) const {
  // Compress the 256-bit state to 64 bits (each word is mixed before it is
  // folded in, so no two words can cancel), then derive the child's seed.
  uint64_t h = kForkSalt;
  for (const uint64_t word : s_) h = Mix64(h ^ word) + kGoldenGamma;
  return Rng(DeriveSeed(h, stream_id));
}

}  // namespace schedsim::sim
