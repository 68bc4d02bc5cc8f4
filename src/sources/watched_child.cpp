// fork + pipe + poll; see watched_child.hpp.
#include "sources/watched_child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <exception>
#include <optional>

#include "core/files/unique_fd.hpp"
#include "core/util/text.hpp"

namespace skillrt::sources {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A message on the pipe: one type byte, a 4-byte payload length, the payload.
constexpr char k_progress = 'p';  // payload: done, total (8 bytes each)
constexpr char k_heartbeat = 'h'; // no payload
constexpr char k_error = 'e';     // payload: the ErrorCode byte, then the message
constexpr char k_done = 'o';      // no payload: the work succeeded
constexpr std::size_t k_header_bytes = 5;
constexpr std::size_t k_max_message_bytes = 2048; // an error message is cut here
constexpr milliseconds k_report_interval{50};

void put_u64(std::string& out, std::uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((value >> shift) & 0xFF));
  }
}

std::uint64_t get_u64(std::string_view in) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    value = (value << 8) | static_cast<unsigned char>(in[i]);
  }
  return value;
}

std::string describe(milliseconds duration) {
  return duration.count() % 1000 == 0 ? std::to_string(duration.count() / 1000) + " s"
                                      : std::to_string(duration.count()) + " ms";
}

// Kills and reaps the child unless the parent saw it end on its own.
struct ChildReaper {
  pid_t pid = -1;
  ~ChildReaper() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  // Waits for the child's end (it closed the pipe, so it is exiting).
  int wait() {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    pid = -1;
    return status;
  }
};

[[noreturn]] void child_main(const ChildWork& work, int fd, pid_t parent);

} // namespace

// The child's private access to send(): the final result is not for `work`.
struct ChildChannelAccess {
  static void send(ChildChannel& channel, char type, std::string_view payload) { channel.send(type, payload); }
  static void flush(ChildChannel& channel) { channel.flush(); }
};

void ChildChannel::send(char type, std::string_view payload) {
  std::string message;
  message.reserve(k_header_bytes + payload.size());
  message.push_back(type);
  const auto size = static_cast<std::uint32_t>(payload.size());
  for (int shift = 24; shift >= 0; shift -= 8) {
    message.push_back(static_cast<char>((size >> shift) & 0xFF));
  }
  message.append(payload);
  std::string_view rest = message;
  while (!rest.empty()) {
    const ssize_t written = ::write(m_fd, rest.data(), rest.size());
    if (written < 0 && errno == EINTR) {
      continue;
    }
    if (written <= 0) {
      return; // the parent is gone; PR_SET_PDEATHSIG ends this process
    }
    rest.remove_prefix(static_cast<std::size_t>(written));
  }
  m_last_sent = Clock::now();
}

bool ChildChannel::due() {
  return Clock::now() - m_last_sent >= k_report_interval;
}

void ChildChannel::progress(std::uint64_t done, std::uint64_t total) {
  m_pending = {done, total};
  if (due()) {
    flush();
  }
}

void ChildChannel::flush() {
  if (!m_pending) {
    return;
  }
  std::string payload;
  put_u64(payload, m_pending->first);
  put_u64(payload, m_pending->second);
  m_pending.reset();
  send(k_progress, payload);
}

void ChildChannel::heartbeat() {
  if (!due()) {
    return;
  }
  if (m_pending) {
    flush(); // progress renews the stall deadline just as well
  } else {
    send(k_heartbeat, {});
  }
}

namespace {

void child_main(const ChildWork& work, int fd, pid_t parent) {
  // Die with the parent, and do not outlive a parent that died before this line.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) {
    ::_exit(1);
  }
  ChildChannel channel(fd);
  Result<void> result;
  try {
    result = work(channel);
  } catch (const std::exception& error) {
    result = fail(ErrorCode::internal, std::string("unexpected exception: ") + error.what());
  } catch (...) {
    result = fail(ErrorCode::internal, "unexpected exception");
  }
  ChildChannelAccess::flush(channel); // the last progress figures, coalesced or not
  if (result) {
    ChildChannelAccess::send(channel, k_done, {});
    ::_exit(0);
  }
  std::string payload(1, static_cast<char>(result.error().code));
  payload.append(result.error().message, 0, k_max_message_bytes);
  ChildChannelAccess::send(channel, k_error, payload);
  // _exit: no atexit handlers or static destructors of the parent's copy run here.
  ::_exit(1);
}

} // namespace

Result<void> run_watched_child(const ChildWork& work, const ChildDeadlines& deadlines,
                               const ChildProgress& on_progress) {
  int ends[2] = {-1, -1};
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    return fail(ErrorCode::io_error, "cannot create a pipe for the worker process: " + core::errno_text(errno));
  }
  core::files::UniqueFd read_end(ends[0]);
  core::files::UniqueFd write_end(ends[1]);
  const pid_t parent = ::getpid();
  ChildReaper child;
  child.pid = ::fork();
  if (child.pid < 0) {
    return fail(ErrorCode::io_error, "cannot start the worker process: " + core::errno_text(errno));
  }
  if (child.pid == 0) {
    read_end.release(); // not closed: the child ends in _exit and never runs destructors
    child_main(work, write_end.get(), parent);
  }
  write_end.reset();

  const Clock::time_point started = Clock::now();
  Clock::time_point last_heard = started;
  std::string buffer;
  std::optional<Error> reported_error;
  bool reported_done = false;
  std::array<char, 4096> chunk{};
  for (;;) {
    const Clock::time_point now = Clock::now();
    if (now - started >= deadlines.total) {
      return fail(ErrorCode::io_error, "not finished after " + describe(deadlines.total));
    }
    if (now - last_heard >= deadlines.stall) {
      return fail(ErrorCode::io_error, "no progress for " + describe(deadlines.stall));
    }
    const Clock::time_point next = std::min(started + deadlines.total, last_heard + deadlines.stall);
    const auto wait = std::chrono::duration_cast<milliseconds>(next - now) + milliseconds(1);
    pollfd watched{read_end.get(), POLLIN, 0};
    const int ready = ::poll(&watched, 1, static_cast<int>(std::min<std::int64_t>(wait.count(), 60'000)));
    if (ready < 0 && errno != EINTR) {
      return fail(ErrorCode::io_error, "cannot watch the worker process: " + core::errno_text(errno));
    }
    if (ready <= 0) {
      continue;
    }
    const ssize_t got = ::read(read_end.get(), chunk.data(), chunk.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      break; // the child closed its end: it is exiting
    }
    buffer.append(chunk.data(), static_cast<std::size_t>(got));
    last_heard = Clock::now();
    while (buffer.size() >= k_header_bytes) {
      std::uint32_t size = 0;
      for (std::size_t i = 1; i < k_header_bytes; ++i) {
        size = (size << 8) | static_cast<unsigned char>(buffer[i]);
      }
      if (size > k_max_message_bytes + 1) {
        return fail(ErrorCode::internal, "the worker process sent a malformed report");
      }
      if (buffer.size() < k_header_bytes + size) {
        break;
      }
      const std::string_view payload(buffer.data() + k_header_bytes, size);
      switch (buffer[0]) {
      case k_progress:
        if (size == 16 && on_progress) {
          on_progress(get_u64(payload), get_u64(payload.substr(8)));
        }
        break;
      case k_error:
        if (size >= 1) {
          const auto code = static_cast<unsigned char>(payload[0]);
          reported_error = Error{code <= static_cast<unsigned char>(ErrorCode::internal) ? static_cast<ErrorCode>(code)
                                                                                         : ErrorCode::internal,
                                 std::string(payload.substr(1)),
                                 {}};
        }
        break;
      case k_done:
        reported_done = true;
        break;
      default: // k_heartbeat: renewing the stall deadline was all it was for
        break;
      }
      buffer.erase(0, k_header_bytes + size);
    }
  }
  const int status = child.wait();
  if (reported_error) {
    return tl::unexpected(*reported_error);
  }
  if (WIFSIGNALED(status)) {
    return fail(ErrorCode::io_error, "the worker process ended by signal " + std::to_string(WTERMSIG(status)) + " (" +
                                         ::strsignal(WTERMSIG(status)) + ")");
  }
  if (!reported_done || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return fail(ErrorCode::io_error, "the worker process ended without a result");
  }
  return {};
}

} // namespace skillrt::sources
