#include "core/view/inline_shell.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "core/limits.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

// Bytes kept per stream: enough for the character cap in 4-byte UTF-8 plus one
// more character, so "more than the cap" is still detectable.
constexpr std::size_t k_keep_bytes = (limits::k_inline_shell_max_output + 1) * 4;

std::optional<std::string> find_bash() {
  const char* path_env = std::getenv("PATH");
  std::string_view path = path_env != nullptr ? path_env : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const std::size_t colon = path.find(':');
    std::string dir(path.substr(0, colon));
    if (dir.empty()) {
      dir = ".";
    }
    std::string candidate = dir + "/bash";
    if (::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    if (colon == std::string_view::npos) {
      return std::nullopt;
    }
    path.remove_prefix(colon + 1);
  }
}

// Closes both ends of a pipe that are still open.
struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() = default;
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    close_end(0);
    close_end(1);
  }
  bool open() { return ::pipe2(fds, O_CLOEXEC) == 0; }
  void close_end(int i) {
    if (fds[i] >= 0) {
      ::close(fds[i]);
      fds[i] = -1;
    }
  }
};

std::string strip_trailing_newlines(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
    text.pop_back();
  }
  return text;
}

// Cuts text to `max_chars` code points (+ marker) when longer.
std::string cap_chars(const std::string& text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0U) != 0x80U) {
      if (chars == max_chars) {
        return text.substr(0, i) + "...[truncated]";
      }
      ++chars;
    }
  }
  return text;
}

void kill_group(pid_t pid) {
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
}

} // namespace

std::string run_inline_shell(const std::string& command, const std::filesystem::path& cwd, int timeout_s) {
  if (command.find_first_not_of(" \t") == std::string::npos) {
    return "";
  }
  const int timeout = timeout_s < 1 ? 1 : timeout_s;
  const std::optional<std::string> bash = find_bash();
  if (!bash) {
    return "[inline-shell error: bash not found]";
  }
  Pipe out;
  Pipe err;
  Pipe exec_status; // the child reports a failed exec here; CLOEXEC closes it on success
  if (!out.open() || !err.open() || !exec_status.open()) {
    return std::string("[inline-shell error: ") + std::strerror(errno) + "]";
  }
  // Everything the child needs is prepared before fork: only async-signal-safe
  // calls happen between fork and exec.
  const std::string cwd_text = cwd.string();
  std::vector<char*> argv{const_cast<char*>(bash->c_str()), const_cast<char*>("-c"), const_cast<char*>(command.c_str()),
                          nullptr};
  const pid_t pid = ::fork();
  if (pid < 0) {
    return std::string("[inline-shell error: ") + std::strerror(errno) + "]";
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) {
      ::dup2(devnull, STDIN_FILENO);
    }
    ::dup2(out.fds[1], STDOUT_FILENO);
    ::dup2(err.fds[1], STDERR_FILENO);
    int code = 0;
    if (!cwd_text.empty() && ::chdir(cwd_text.c_str()) != 0) {
      code = errno;
    } else {
      ::execv(argv[0], argv.data());
      code = errno;
    }
    const ssize_t ignored = ::write(exec_status.fds[1], &code, sizeof code);
    (void)ignored;
    ::_exit(127);
  }
  ::setpgid(pid, pid); // both sides set it, whichever runs first
  out.close_end(1);
  err.close_end(1);
  exec_status.close_end(1);

  int child_errno = 0;
  if (::read(exec_status.fds[0], &child_errno, sizeof child_errno) == static_cast<ssize_t>(sizeof child_errno)) {
    ::waitpid(pid, nullptr, 0);
    return std::string("[inline-shell error: ") + std::strerror(child_errno) + "]";
  }

  std::string stdout_text;
  std::string stderr_text;
  bool timed_out = false;
  bool over_cap = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout);
  pollfd fds[2] = {{out.fds[0], POLLIN, 0}, {err.fds[0], POLLIN, 0}};
  char buffer[8192];
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    const int ready = ::poll(fds, 2, static_cast<int>(left.count()));
    if (ready < 0) {
      if (errno == EINTR) {
        continue;
      }
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) {
        continue;
      }
      const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
      if (got <= 0) {
        if (got < 0 && errno == EINTR) {
          continue;
        }
        fds[i].fd = -1;
        continue;
      }
      std::string& sink = i == 0 ? stdout_text : stderr_text;
      const std::size_t room = k_keep_bytes > sink.size() ? k_keep_bytes - sink.size() : 0;
      sink.append(buffer, std::min(room, static_cast<std::size_t>(got)));
      if (i == 0 && sink.size() >= k_keep_bytes) {
        // stdout alone already decides the (truncated) answer; stop the command.
        over_cap = true;
        fds[0].fd = -1;
        fds[1].fd = -1;
      }
    }
  }
  // A command may close its output and keep running; the deadline still holds.
  while (!timed_out && !over_cap) {
    const pid_t done = ::waitpid(pid, nullptr, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) {
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      timed_out = true;
      break;
    }
    ::usleep(10000);
  }
  if (timed_out || over_cap) {
    kill_group(pid);
    ::waitpid(pid, nullptr, 0);
  }
  if (timed_out) {
    return "[inline-shell timeout after " + std::to_string(timeout) + "s: " + command + "]";
  }
  std::string result = strip_trailing_newlines(sanitize_utf8(stdout_text));
  if (result.empty()) {
    result = strip_trailing_newlines(sanitize_utf8(stderr_text));
  }
  return cap_chars(result, limits::k_inline_shell_max_output);
}

} // namespace skillrt::core
