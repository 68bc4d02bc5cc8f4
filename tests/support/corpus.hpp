// The shared corpus (../shared/corpus beside the clone) for the tests that read
// it. Outside CI a missing corpus skips them; scripts/test sets
// SKILLRT_REQUIRE_CORPUS=1, where a missing corpus fails them instead, so a CI
// run can never pass with the corpus tests silently skipped.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace skillrt::test {

inline bool corpus_required() {
  const char* value = std::getenv("SKILLRT_REQUIRE_CORPUS");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

} // namespace skillrt::test

// Ends the current test when CONDITION is false: a failure under
// SKILLRT_REQUIRE_CORPUS=1, a skip otherwise. MESSAGE says what is missing.
#define SKILLRT_REQUIRE_CORPUS_OR_SKIP(condition, message)                                                             \
  do {                                                                                                                 \
    if (!(condition)) {                                                                                                \
      if (::skillrt::test::corpus_required()) {                                                                        \
        FAIL() << (message) << " (SKILLRT_REQUIRE_CORPUS=1)";                                                          \
      }                                                                                                                \
      GTEST_SKIP() << (message);                                                                                       \
    }                                                                                                                  \
  } while (false)
