//===- Random.h - Seeded xoshiro256** generator ------------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// npgen draws every random choice from this generator so that one seed gives
// one byte-identical pcap on every platform: the state is seeded through
// splitmix64, and no library random source is used.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_NPGEN_RANDOM_H
#define TOOLS_NPGEN_RANDOM_H

#include <cstdint>

namespace npcc::tools {

class Random {
public:
  explicit Random(uint64_t Seed) {
    for (uint64_t &Word : State)
      Word = splitmix64(Seed);
  }

  /// The next 64 random bits (xoshiro256**).
  uint64_t next() {
    uint64_t Result = rotl(State[1] * 5, 7) * 9;
    uint64_t T = State[1] << 17;
    State[2] ^= State[0];
    State[3] ^= State[1];
    State[1] ^= State[2];
    State[0] ^= State[3];
    State[2] ^= T;
    State[3] = rotl(State[3], 45);
    return Result;
  }

  /// A uniform integer in [0, Bound); Bound must be nonzero.
  uint64_t below(uint64_t Bound) {
    // Multiply-shift (Lemire) without rejection: the bias is below 2^-32
    // for every bound npgen uses and the result is fully deterministic.
    __extension__ typedef unsigned __int128 Wide; // Quiet under -pedantic.
    return static_cast<uint64_t>((static_cast<Wide>(next()) * Bound) >> 64);
  }

  /// A uniform double in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// True with probability \p Rate; draws nothing when the rate is zero.
  bool chance(double Rate) { return Rate > 0 && unit() < Rate; }

private:
  static uint64_t rotl(uint64_t X, int K) { return X << K | X >> (64 - K); }

  static uint64_t splitmix64(uint64_t &X) {
    uint64_t Z = (X += 0x9e3779b97f4a7c15ULL);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
    return Z ^ (Z >> 31);
  }

  uint64_t State[4];
};

} // namespace npcc::tools

#endif // TOOLS_NPGEN_RANDOM_H
