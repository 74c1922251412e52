// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Rng: the simulator's only source of randomness. A seeded pseudo-random
// generator whose sequence is the same on every platform and compiler, so a
// (seed, configuration) pair names exactly one simulation run.
//
// Algorithm: xoshiro256** 1.0 (Blackman and Vigna, 2018; public-domain
// reference at https://prng.di.unimi.it/xoshiro256starstar.c), its 256-bit
// state filled from the 64-bit seed by SplitMix64 (Steele, Lea and Flood,
// 2014), as the xoshiro authors recommend. Nothing here uses std::mt19937 or
// the std:: distributions: the standard leaves the distributions'
// algorithms to each library, so their output differs between libstdc++,
// libc++ and MSVC.
//
// Reproducibility, per call:
//   * NextU64, NextU32, UniformU64, UniformInt, UniformDouble, Bernoulli
//     and Shuffle use only integer arithmetic and exact conversions: their
//     results are bit-identical everywhere.
//   * Exponential, Normal and LogNormal also call std::log / std::exp
//     (std::sqrt is correctly rounded by IEEE 754, so it is exact
//     everywhere). glibc >= 2.28's log and exp are accurate to < 1 ulp and
//     give the same bits on every x86-64 and AArch64 machine; another libm
//     (musl, macOS, MSVC) may differ in the last bit of some samples. The
//     generator's state never depends on those bits, so a difference cannot
//     spread to later draws except through what the caller does with them.
//     rng.cc is compiled with -ffp-contract=off (see sim/BUILD) so that no
//     compiler fuses a*b+c into one rounding on targets with FMA; do not
//     build it with -ffast-math.
//
// Streams: `DeriveSeed(seed, i)` and `Rng::Fork(i)` give statistically
// independent child generators (one per experiment repetition, per CPU, per
// workload generator), so adding draws to one stream never shifts another.
//
// Rng is a small value type (40 bytes): copying it copies the stream
// position. It is not thread-safe; give each thread its own Fork.

#ifndef SCHEDSIM_SIM_RNG_H_
#define SCHEDSIM_SIM_RNG_H_

#include <array>
#include <cstdint>
#include <iterator>
#include <utility>

namespace schedsim::sim {

// One step of SplitMix64: advances `*state` by the golden-ratio increment
// and returns the mixed output. Seeded with 1234567, the first outputs are
// 6457827717110365317, 3203168211198807973, ... (the published reference).
uint64_t SplitMix64Next(uint64_t* state);

// SplitMix64's output function (the "mix13"-style finalizer): a bijection on
// uint64 that scrambles every input bit into every output bit.
uint64_t Mix64(uint64_t x);

// The seed of child stream `index` of `seed`. For a fixed `seed`, distinct
// indices give distinct child seeds (the map is a bijection of `index`), and
// the child seeds look independent of each other and of `seed`. Use it to
// seed per-repetition runs: `Rng rng(DeriveSeed(base_seed, repetition))`.
uint64_t DeriveSeed(uint64_t seed, uint64_t index);

class Rng {
 public:
  // Seeds the 256-bit state with four successive SplitMix64 outputs from
  // `seed`. Every seed (including 0) is fine.
  explicit Rng(uint64_t seed);

  // A generator in exactly this state; for tests against published
  // xoshiro256** vectors and for checkpoints. REQUIRES: not all zero.
  static Rng FromState(const std::array<uint64_t, 4>& state);
  // The xoshiro256** state (the cached normal deviate is not included).
  std::array<uint64_t, 4> state() const { return s_; }

  // The next raw 64-bit output of xoshiro256**.
  uint64_t NextU64() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // The upper 32 bits of NextU64() (the better bits of any generator).
  uint32_t NextU32() { return static_cast<uint32_t>(NextU64() >> 32); }

  // Uniform in [0, n), without modulo bias, by Lemire's multiply-and-reject
  // method ("Fast Random Integer Generation in an Interval", 2019). Usually
  // consumes one NextU64(); more only with probability < n / 2^64.
  // REQUIRES: n > 0.
  uint64_t UniformU64(uint64_t n);

  // Uniform in [lo, hi). REQUIRES: lo < hi.
  int64_t UniformInt(int64_t lo, int64_t hi);

  // Uniform in [0, 1): the top 53 bits of NextU64() times 2^-53, so every
  // result is a multiple of 2^-53 and 1.0 is never returned.
  double UniformDouble() {
    return static_cast<double>(NextU64() >> 11) * 0x1.0p-53;
  }

  // True with probability p (p <= 0: never; p >= 1: always). Consumes one
  // NextU64() whatever p is.
  bool Bernoulli(double p) { return UniformDouble() < p; }

  // Exponentially distributed with the given mean, by inversion:
  // -mean * log(1 - U). The result is finite and >= 0 (at most
  // 36.8 * mean). Consumes one NextU64(). REQUIRES: mean > 0.
  double Exponential(double mean);

  // Normally distributed, by Marsaglia's polar method (log and sqrt only; no
  // sin/cos, whose accuracy varies more between libms). Each accepted pair
  // yields two deviates; the second is cached and returned by the next call
  // to Normal or LogNormal. REQUIRES: stddev >= 0.
  double Normal(double mean, double stddev);

  // exp(Normal(mu, sigma)): mu and sigma are the parameters of the
  // underlying normal; the mean of the result is exp(mu + sigma^2 / 2) and
  // its median exp(mu). REQUIRES: sigma >= 0.
  double LogNormal(double mu, double sigma);

  // An independent generator for child stream `stream_id`, seeded from this
  // generator's current state and `stream_id`. Does not advance this
  // generator: forking the same id twice from the same state gives the same
  // child; distinct ids give distinct, independent children.
  Rng Fork(uint64_t stream_id) const;

  // Fisher-Yates shuffle of [first, last), using UniformU64, so the
  // permutation is the same everywhere (std::shuffle's is not).
  template <typename RandomIt>
  void Shuffle(RandomIt first, RandomIt last) {
    using Diff = typename std::iterator_traits<RandomIt>::difference_type;
    const Diff n = last - first;
    for (Diff i = n - 1; i > 0; --i) {
      const Diff j =
          static_cast<Diff>(UniformU64(static_cast<uint64_t>(i) + 1));
      using std::swap;
      swap(first[i], first[j]);
    }
  }

 private:
  Rng() = default;
  static constexpr uint64_t Rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
  }

  std::array<uint64_t, 4> s_ = {};
  double spare_normal_ = 0.0;
  bool has_spare_normal_ = false;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_RNG_H_
