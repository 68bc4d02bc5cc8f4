#include "core/discovery/git_identity.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

extern char** environ;  // NOLINT: POSIX; read once to build the child's environment

namespace skillrt::core {

namespace {

// git's answer is a few lines per worktree; more than this is not an answer.
constexpr std::size_t k_max_git_output = 1024 * 1024;

class Pipe {
 public:
  Pipe() {
    if (::pipe2(m_fds.data(), O_CLOEXEC) != 0) {
      m_fds = {-1, -1};
    }
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  bool ok() const { return m_fds[0] >= 0; }
  int read_end() const { return m_fds[0]; }
  int write_end() const { return m_fds[1]; }
  void close_read() {
    if (m_fds[0] >= 0) {
      ::close(m_fds[0]);
      m_fds[0] = -1;
    }
  }
  void close_write() {
    if (m_fds[1] >= 0) {
      ::close(m_fds[1]);
      m_fds[1] = -1;
    }
  }

 private:
  std::array<int, 2> m_fds{-1, -1};
};

class SpawnActions {
 public:
  SpawnActions() { m_ok = ::posix_spawn_file_actions_init(&m_actions) == 0; }
  ~SpawnActions() {
    if (m_ok) {
      ::posix_spawn_file_actions_destroy(&m_actions);
    }
  }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  bool ok() const { return m_ok; }
  posix_spawn_file_actions_t* get() { return &m_actions; }

 private:
  posix_spawn_file_actions_t m_actions{};
  bool m_ok = false;
};

std::vector<std::string> environment_without_git() {
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view item(*entry);
    if (!item.starts_with("GIT_")) {
      env.emplace_back(item);
    }
  }
  return env;
}

int wait_child(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      return -1;
    }
  }
  return status;
}

}  // namespace

std::optional<std::string> git_worktree_list(const std::filesystem::path& root, std::chrono::milliseconds timeout) {
  Pipe out;
  SpawnActions actions;
  if (!out.ok() || !actions.ok()) {
    return std::nullopt;
  }
  if (::posix_spawn_file_actions_addopen(actions.get(), 0, "/dev/null", O_RDONLY, 0) != 0 ||
      ::posix_spawn_file_actions_addopen(actions.get(), 2, "/dev/null", O_WRONLY, 0) != 0 ||
      ::posix_spawn_file_actions_adddup2(actions.get(), out.write_end(), 1) != 0) {
    return std::nullopt;
  }
  std::vector<std::string> args = {"git", "-C", root.native(), "worktree", "list", "--porcelain", "-z"};
  std::vector<char*> argv;
  for (auto& arg : args) {
    argv.push_back(arg.data());
  }
  argv.push_back(nullptr);
  std::vector<std::string> env = environment_without_git();
  std::vector<char*> envp;
  for (auto& item : env) {
    envp.push_back(item.data());
  }
  envp.push_back(nullptr);

  pid_t pid = 0;
  if (::posix_spawnp(&pid, "git", actions.get(), nullptr, argv.data(), envp.data()) != 0) {
    return std::nullopt;
  }
  out.close_write();

  std::string output;
  bool timed_out = false;
  bool too_big = false;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::array<char, 4096> buffer{};
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd pfd{out.read_end(), POLLIN, 0};
    int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
    if (ready < 0) {
      if (errno == EINTR) {
        continue;
      }
      timed_out = true;  // cannot wait any more: treat as a failed probe
      break;
    }
    if (ready == 0) {
      timed_out = true;
      break;
    }
    ssize_t got = ::read(out.read_end(), buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) {
        continue;
      }
      break;
    }
    if (got == 0) {
      break;
    }
    output.append(buffer.data(), static_cast<std::size_t>(got));
    if (output.size() > k_max_git_output) {
      too_big = true;
      break;
    }
  }
  if (timed_out || too_big) {
    ::kill(pid, SIGKILL);
  }
  int status = wait_child(pid);
  if (timed_out || too_big || status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return std::nullopt;
  }
  return output;
}

std::vector<std::string> parse_worktree_paths(std::string_view porcelain) {
  constexpr std::string_view k_prefix = "worktree ";
  std::vector<std::string> paths;
  std::size_t start = 0;
  while (start < porcelain.size()) {
    std::size_t end = porcelain.find('\0', start);
    if (end == std::string_view::npos) {
      end = porcelain.size();
    }
    std::string_view field = porcelain.substr(start, end - start);
    if (field.starts_with(k_prefix)) {
      paths.emplace_back(field.substr(k_prefix.size()));
    }
    start = end + 1;
  }
  return paths;
}

}  // namespace skillrt::core
