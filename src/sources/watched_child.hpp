// Work that may hang inside a library we cannot interrupt (libgit2 1.5 has no
// network timeouts: a server that accepts and then says nothing blocks a
// clone forever) runs in a forked child process that a parent watches with two
// deadlines: a stall deadline, renewed by every report the child sends, and a
// total deadline. Past either, the child is killed (SIGKILL) and the caller
// gets a clear error instead of a hang. The child dies with its parent too.
//
// The child reports through a ChildChannel (a pipe): progress, heartbeats and
// at the end an error (if any). It shares the filesystem, so its real output
// is files; only small messages cross the pipe. `work` runs in the forked copy
// of the process, so it must not rely on other threads of the parent (their
// locks are frozen as they were at fork time); libraries that keep no threads
// of their own (libgit2, libc's malloc) are fine. Only the single-threaded CLI
// (install, update) gets here; a multi-threaded caller could fork while one of
// its threads holds a lock no fork handler covers (a sanitizer's allocator),
// leaving the child stuck until the stall deadline.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "skillrt/result.hpp"

namespace skillrt::sources {

struct ChildDeadlines {
  std::chrono::milliseconds stall; // longest silence from the child
  std::chrono::milliseconds total; // longest run, however busy
};

class ChildChannel {
public:
  explicit ChildChannel(int fd) : m_fd(fd) {}
  // Progress of the work (forwarded to the parent's on_progress); also renews
  // the stall deadline. Reports closer than 50 ms to the previous message are
  // coalesced: the latest figures go with the next report, or at the end.
  void progress(std::uint64_t done, std::uint64_t total);
  // Renews the stall deadline without progress figures (rate-limited too).
  void heartbeat();

private:
  friend struct ChildChannelAccess;
  void send(char type, std::string_view payload);
  void flush(); // sends the coalesced progress figures, if any
  bool due();

  int m_fd;
  std::chrono::steady_clock::time_point m_last_sent{};
  std::optional<std::pair<std::uint64_t, std::uint64_t>> m_pending; // done, total
};

using ChildWork = std::function<Result<void>(ChildChannel&)>;
using ChildProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

// Runs `work` in a child process and returns its result: the error it
// returned (code and message, the message cut at 2 KiB), or an io_error when
// it stalled ("no progress for N s"), ran too long ("not finished after N s"),
// crashed ("ended by signal N") or could not start. `on_progress` (may be
// empty) runs in the parent for each progress report.
Result<void> run_watched_child(const ChildWork& work, const ChildDeadlines& deadlines,
                               const ChildProgress& on_progress);

} // namespace skillrt::sources
