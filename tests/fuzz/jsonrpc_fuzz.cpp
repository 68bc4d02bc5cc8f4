// Fuzzes JSON-RPC framing and MCP dispatch: the input is one message text,
// handed to an initialized session and to a fresh one of a real server
// (watch off) over a small temporary home with a shared and a user skill.
// Every answer must be one JSON-RPC response object; a crash, a sanitizer
// report or a broken invariant (abort) is a finding.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/server.hpp"
#include "protocol/yaml_json.hpp"
#include "store/open_store.hpp"

namespace {

namespace fs = std::filesystem;
using skillrt::protocol::Json;

void check(bool condition) {
  if (!condition) {
    std::abort();
  }
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

class Fixture {
 public:
  Fixture() {
    std::string pattern = (fs::temp_directory_path() / "skillrt-jsonrpc-fuzz-XXXXXX").string();
    check(::mkdtemp(pattern.data()) != nullptr);
    m_root = fs::canonical(pattern);
    const fs::path home = m_root / "home";
    write(home / "skills/devops/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy it\n---\nRun $ARGUMENTS\n");
    write(home / "skills/devops/deploy/references/api.md", "# API\n");
    write(home / "users/alice/skills/mine/SKILL.md", "---\nname: mine\ndescription: Alice's\n---\nBody\n");
    skillrt::mcp::ServerOptions options;
    options.base.home = home;
    options.base.cwd = m_root;
    options.base.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
    options.watch = false;
    options.store = skillrt::store::store_source("", options.base);
    m_server = std::make_unique<skillrt::mcp::Server>(std::move(options));
    m_session = m_server->open_session(skillrt::mcp::Caller{std::string("alice"), "1"}, [](std::string message) {
      check(Json::accept(message));
    });
    const auto answer = m_session->handle(
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
    check(answer.has_value() && m_session->initialized());
  }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;
  ~Fixture() {
    m_session.reset();
    m_server.reset();
    std::error_code ec;
    fs::remove_all(m_root, ec);
  }
  skillrt::mcp::Server& server() { return *m_server; }
  skillrt::mcp::Session& session() { return *m_session; }

 private:
  fs::path m_root;
  std::unique_ptr<skillrt::mcp::Server> m_server;
  std::shared_ptr<skillrt::mcp::Session> m_session;
};

Fixture& fixture() {
  static Fixture instance;
  return instance;
}

// An answer is exactly one response object: jsonrpc 2.0, an id, and either a
// result object or an error with an integer code and a message.
void check_answer(const std::optional<std::string>& answer) {
  if (!answer) {
    return;
  }
  const Json response = Json::parse(*answer, nullptr, false);
  check(!response.is_discarded() && response.is_object());
  check(response.value("jsonrpc", "") == "2.0");
  check(response.contains("id"));
  const Json& id = response["id"];
  check(id.is_null() || id.is_string() || id.is_number_integer());
  check(response.contains("result") != response.contains("error"));
  if (response.contains("error")) {
    const Json& error = response["error"];
    check(error.is_object() && error["code"].is_number_integer() && error["message"].is_string());
  } else {
    check(response["result"].is_object());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  Fixture& home = fixture();
  check_answer(home.session().handle(input));
  // Before initialize only ping and initialize itself may succeed.
  auto fresh = home.server().open_session(skillrt::mcp::Caller{std::nullopt, ""}, {});
  check_answer(fresh->handle(input));
  return 0;
}
