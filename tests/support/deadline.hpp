// A hang guard for tests of hostile input: the work runs on a thread of its
// own, and if it has not returned within a generous limit the whole test
// binary stops with a message. A hang then fails the run at once instead of
// stalling it until ctest's timeout. The limits are far above what the work
// needs under the sanitizers: this catches hangs, it measures no speed
// (speed targets live in bench/).
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <utility>

namespace skillrt::test {

template <class Work>
auto finishes_within(std::chrono::seconds limit, const char* what, Work&& work) {
  auto done = std::async(std::launch::async, std::forward<Work>(work));
  if (done.wait_for(limit) != std::future_status::ready) {
    std::fprintf(stderr, "FATAL: %s did not finish within %lld s (a hang)\n", what,
                 static_cast<long long>(limit.count()));
    std::fflush(stderr);
    // The worker cannot be stopped, and the future would wait for it.
    std::_Exit(1);
  }
  return done.get();
}

} // namespace skillrt::test
