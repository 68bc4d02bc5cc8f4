// The scripted chat-completions upstream (scripted_upstream.mjs) as a C++
// test fixture: writes a script, starts the server under the pinned Node 22
// of tests/tools, reads its port, and reads back the requests it logged.
// Tests of anything that talks to a model (src/llm, core/review through
// OpenAiChatClient) run against it instead of a mock of the ChatModel port.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace skillrt::test {

// The node binary to run the script with: $SKILLRT_NODE when set, else the
// pinned one scripts/npm-tools installs; nullopt when it is not there.
std::optional<std::filesystem::path> scripted_upstream_node();

// Whether a missing node must fail the test rather than skip it
// (SKILLRT_REQUIRE_NODE_TOOLS=1, which scripts/test sets).
bool node_tools_required();

class ScriptedUpstream {
public:
  // Writes `script_json` (see scripted_upstream.mjs for its steps) to
  // dir/script.json and starts the server, logging to dir/requests.jsonl.
  // Throws std::runtime_error when it does not come up within 20 s.
  ScriptedUpstream(const std::filesystem::path& node, const std::filesystem::path& dir, const std::string& script_json);
  ScriptedUpstream(const ScriptedUpstream&) = delete;
  ScriptedUpstream& operator=(const ScriptedUpstream&) = delete;
  // Stops the server and waits for it.
  ~ScriptedUpstream();

  std::uint16_t port() const { return m_port; }
  // "http://127.0.0.1:<port>/v1": an OpenAiChatOptions::base_url.
  std::string base_url() const;
  // The logged requests so far, one JSON text each, oldest first.
  std::vector<std::string> requests() const;

private:
  void stop();

  std::filesystem::path m_log;
  pid_t m_pid = -1;
  int m_stdin = -1;  // closing it makes the server exit (--exit-with-stdin)
  int m_stdout = -1; // where it printed its port
  std::uint16_t m_port = 0;
};

} // namespace skillrt::test
