// A real MCP Server over a temporary skills home, sessions that collect their
// notifications, and helpers to send one JSON-RPC call and read the answer.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mcp/server.hpp"
#include "protocol/yaml_json.hpp"
#include "store/open_store.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::test {

using protocol::Json;

inline std::string skill_md(const std::string& name, const std::string& description,
                            const std::string& body = "Do the thing.\n") {
  return "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body;
}

// The notifications one session received, in order.
class Inbox {
 public:
  mcp::MessageSink sink() {
    return [this](std::string message) {
      std::lock_guard lock(m_mutex);
      m_messages.push_back(Json::parse(message));
      m_changed.notify_all();
    };
  }
  std::vector<Json> messages() {
    std::lock_guard lock(m_mutex);
    return m_messages;
  }
  std::size_t count(const std::string& method) {
    std::lock_guard lock(m_mutex);
    std::size_t n = 0;
    for (const Json& message : m_messages) {
      n += message.value("method", "") == method ? 1 : 0;
    }
    return n;
  }
  // Waits until a notification `method` arrived (true) or the timeout passed.
  bool wait_for(const std::string& method, std::chrono::milliseconds timeout) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [&] {
      for (const Json& message : m_messages) {
        if (message.value("method", "") == method) {
          return true;
        }
      }
      return false;
    });
  }
  void clear() {
    std::lock_guard lock(m_mutex);
    m_messages.clear();
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::vector<Json> m_messages;
};

class McpHome {
 public:
  explicit McpHome(bool watch = false) : m_watch(watch) { std::filesystem::create_directories(home() / "skills"); }

  std::filesystem::path home() const { return m_tree.path() / "home"; }
  const TempTree& tree() const { return m_tree; }

  // HOME/skills/<rel>/SKILL.md (shared layer).
  std::filesystem::path shared_skill(const std::string& rel, const std::string& name, const std::string& description,
                                     const std::string& body = "Do the thing.\n") const {
    return m_tree.write(std::filesystem::path("home/skills") / rel / "SKILL.md", skill_md(name, description, body));
  }
  // HOME/users/<uid>/skills/<rel>/SKILL.md (that user's layer).
  std::filesystem::path user_skill(const std::string& uid, const std::string& rel, const std::string& name,
                                   const std::string& description) const {
    return m_tree.write(std::filesystem::path("home/users") / uid / "skills" / rel / "SKILL.md",
                        skill_md(name, description));
  }

  mcp::ServerOptions options() const {
    mcp::ServerOptions options;
    options.base.home = home();
    options.base.cwd = m_tree.path();
    options.base.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
    options.watch = m_watch;
    options.debounce_ms = 50;
    options.view_cache_racy_window = m_view_racy_window;
    options.config = m_config;
    if (m_sweep.count() > 0) {
      options.sweep_interval = m_sweep;
      options.inotify = false;
    }
    // The real SQLite store in the test home, composed as apps/ does.
    options.store = store::store_source("", options.base);
    return options;
  }

  // Before the server starts: how old a file must be before a skill_view
  // answer computed from it is cached (the product waits 2 s).
  void set_view_racy_window(std::chrono::milliseconds window) { m_view_racy_window = window; }
  // Before the server starts: find file changes by the stat sweep alone,
  // every `interval` (a replica on a shared volume).
  void set_sweep_only(std::chrono::milliseconds interval) { m_sweep = interval; }
  // Before the server starts: the config it serves with.
  void set_config(core::Config config) { m_config = std::move(config); }

  mcp::Server& server() {
    if (!m_server) {
      m_server = std::make_unique<mcp::Server>(options());
    }
    return *m_server;
  }

  std::shared_ptr<mcp::Session> open(std::optional<std::string> user = std::nullopt, Inbox* inbox = nullptr,
                                     std::string org = "1") {
    return server().open_session(mcp::Caller{std::move(user), std::move(org)},
                                 inbox != nullptr ? inbox->sink() : mcp::MessageSink());
  }
  // Opens and initializes a session.
  std::shared_ptr<mcp::Session> ready(std::optional<std::string> user = std::nullopt, Inbox* inbox = nullptr,
                                      std::string org = "1") {
    auto session = open(std::move(user), inbox, std::move(org));
    const auto answer = session->handle(
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    EXPECT_TRUE(answer.has_value());
    EXPECT_TRUE(session->initialized());
    return session;
  }

 private:
  TempTree m_tree;
  bool m_watch;
  std::chrono::milliseconds m_view_racy_window{2000};
  std::chrono::milliseconds m_sweep{0};
  core::Config m_config;
  std::unique_ptr<mcp::Server> m_server;
};

// Sends one request; returns the whole response object.
inline Json rpc(mcp::Session& session, const std::string& method, const Json& params = Json::object(),
                const Json& id = 1) {
  Json request = Json::object();
  request["jsonrpc"] = "2.0";
  request["id"] = id;
  request["method"] = method;
  request["params"] = params;
  const auto answer = session.handle(request.dump());
  if (!answer) {
    ADD_FAILURE() << "no answer to " << method;
    return Json();
  }
  return Json::parse(*answer);
}

// The `result` of a request that must succeed.
inline Json result_of(mcp::Session& session, const std::string& method, const Json& params = Json::object()) {
  Json response = rpc(session, method, params);
  EXPECT_TRUE(response.contains("result")) << response.dump();
  return response.contains("result") ? response["result"] : Json();
}

// The error code of a request that must fail.
inline int error_code_of(mcp::Session& session, const std::string& method, const Json& params = Json::object()) {
  Json response = rpc(session, method, params);
  EXPECT_TRUE(response.contains("error")) << response.dump();
  return response.contains("error") ? response["error"]["code"].get<int>() : 0;
}

inline Json call_tool(mcp::Session& session, const std::string& name, const Json& arguments) {
  return result_of(session, "tools/call", Json{{"name", name}, {"arguments", arguments}});
}

}  // namespace skillrt::test
