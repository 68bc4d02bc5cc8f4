// Waiting for something another thread or process will do: poll a condition
// until it holds or a deadline passes. A test waits for the event itself,
// never for a guessed time, so it is as fast as the machine allows and only a
// real failure (the event never comes) reaches the deadline. Deadlines are
// generous because they only bound a failure, and sanitizer builds are slow.
//
// What stays a plain sleep, by design: a window in which something must NOT
// happen (a lock holder keeps a waiter out for a while), a pace a test
// imposes on purpose (a client trickling bytes), and the passing of a timeout
// that is itself under test.
#pragma once

#include <chrono>
#include <thread>

namespace skillrt::test {

// True as soon as `condition()` is; false when `timeout` passed first.
template <class Condition>
bool wait_until(Condition&& condition, std::chrono::milliseconds timeout,
                std::chrono::milliseconds poll = std::chrono::milliseconds(5)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return condition();
    }
    std::this_thread::sleep_for(poll);
  }
  return true;
}

} // namespace skillrt::test
