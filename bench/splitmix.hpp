// The benchmarks' random numbers: splitmix64, tiny, fast and identical on
// every platform, so the same seed always gives byte-identical test data (no
// std distributions, whose output differs between library versions).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace skillrt::bench {

class SplitMix {
 public:
  explicit SplitMix(std::uint64_t seed) : m_state(seed) {}
  std::uint64_t next() {
    m_state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = m_state;
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
  }
  // Uniform in [0, n); the modulo bias is irrelevant for test data.
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
  std::size_t between(std::size_t lo, std::size_t hi) { return lo + below(hi - lo + 1); }
  bool per_mille(std::size_t p) { return below(1000) < p; }
  double unit() { return static_cast<double>(next() >> 11U) / static_cast<double>(1ULL << 53U); }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  std::uint64_t m_state;
};

}  // namespace skillrt::bench
