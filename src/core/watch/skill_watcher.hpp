// Watches skill directories with inotify (recursively, new subdirectories
// included) and reports changed paths after a quiet period, so a burst of
// writes (an editor's save, a git checkout) becomes one callback. Linux only;
// glibc's <sys/inotify.h>, no library. Used by the MCP servers to drop
// catalog snapshots and send list_changed (issue 4/5).
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core {

class SkillWatcher {
 public:
  struct Options {
    std::chrono::milliseconds debounce{150};  // quiet time after the last event before the callback
    std::size_t max_watches = 65'536;          // directories; past it, a warning and no more watches
    // Also poll this every `poll_interval` on the watcher thread (the
    // database's change stamps); empty = no polling.
    std::function<void()> poll;
    std::chrono::milliseconds poll_interval{1000};
  };
  // Distinct changed paths (files or directories) of one debounced burst.
  // Runs on the watcher's own thread. An overflow of the kernel queue is
  // reported as one empty vector ("something changed, rescan").
  using Callback = std::function<void(std::vector<std::filesystem::path> changed)>;

  // Starts watching `roots` (missing roots are fine: their parent is watched
  // until they appear). Fails when inotify is unavailable. Every directory
  // that exists is watched before this returns, so a change made right after
  // is reported (callers and tests need not wait for the thread to start).
  static Result<std::unique_ptr<SkillWatcher>> start(std::vector<std::filesystem::path> roots, Callback on_change,
                                                     Options options);
  // Replaces the watched roots (a new user's directory appeared, config changed).
  virtual void set_roots(std::vector<std::filesystem::path> roots) = 0;
  // Stops the thread; no callback runs after the destructor returns.
  virtual ~SkillWatcher() = default;
};

}  // namespace skillrt::core
