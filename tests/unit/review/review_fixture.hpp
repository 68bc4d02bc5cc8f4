// A temp home plus the scripted upstream, and a review wired as the binary
// wires it (OpenAiChatClient → run_review with the protocol toolbox).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <stop_token>

#include <nlohmann/json.hpp>

#include "../manage/manage_fixture.hpp"
#include "core/review/review_engine.hpp"
#include "core/review/review_session.hpp"
#include "core/review/review_snapshot.hpp"
#include "core/usage/usage_book.hpp"
#include "llm/openai_chat_client.hpp"
#include "protocol/review_toolbox.hpp"
#include "support/scripted_upstream/scripted_upstream.hpp"

namespace skillrt::test {

class ReviewFixture : public ManageFixture {
 public:
  static std::vector<core::ChatMessage> conversation() {
    core::ChatMessage system;
    system.role = core::ChatRole::system;
    system.content = "You are a coding agent.";
    core::ChatMessage user;
    user.role = core::ChatRole::user;
    user.content = "Deploy the app, and remember to run the smoke tests first.";
    core::ChatMessage answer;
    answer.role = core::ChatRole::assistant;
    answer.content = "Deployed after the smoke tests passed.";
    return {system, user, answer};
  }

 protected:
  void SetUp() override {
    m_node = scripted_upstream_node();
    if (!m_node) {
      if (node_tools_required()) {
        FAIL() << "SKILLRT_REQUIRE_NODE_TOOLS=1 but the pinned node is missing (run scripts/npm-tools)";
      }
      GTEST_SKIP() << "the pinned node of tests/tools is missing (run scripts/npm-tools)";
    }
  }

  // Starts the scripted upstream on `steps` (a JSON array).
  void upstream(const std::string& steps) {
    m_upstream = std::make_unique<ScriptedUpstream>(*m_node, m_root, R"({"steps":)" + steps + "}");
  }

  llm::OpenAiChatOptions client_options() const {
    llm::OpenAiChatOptions out;
    out.base_url = m_upstream->base_url();
    out.connect_timeout_ms = 5000;
    out.request_timeout_ms = 20000;
    out.max_retry_wait_ms = 5000;
    return out;
  }

  core::ReviewReport review(core::ReviewOptions options = {}, std::stop_token stop = {},
                            const std::vector<core::ChatMessage>& messages = conversation()) {
    llm::OpenAiChatClient model(client_options());
    core::ReviewSession session(m_ctx, m_cfg, core::skills_viewed_in(messages), "conv");
    protocol::ReviewTools tools(session, false);
    core::ReviewInput input;
    input.conversation = messages;
    if (options.model.empty()) {
      options.model = "review-model";
    }
    return core::run_review(model, tools, input, options, stop);
  }

  nlohmann::json request(std::size_t index) const {
    const auto lines = m_upstream->requests();
    if (index >= lines.size()) {
      ADD_FAILURE() << "request " << index << " was not logged (" << lines.size() << " were)";
      return nlohmann::json();
    }
    return nlohmann::json::parse(lines[index]);
  }

  // The content of the last tool message of logged request `index`.
  std::string last_tool_result(std::size_t index) const {
    const nlohmann::json sent = request(index);
    std::string out;
    for (const auto& message : sent["body"]["messages"]) {
      if (message["role"] == "tool") {
        out = message["content"].get<std::string>();
      }
    }
    return out;
  }

  void make_agent_skill(const std::string& rel, const std::string& name) {
    make_skill(rel, name);
    ASSERT_TRUE(core::update_usage(m_ctx, core::Layer::shared, std::filesystem::path(rel).filename().string(),
                                   [](core::UsageRecord& r) { r.created_by = core::SkillAuthor::agent; }));
  }

  std::optional<std::filesystem::path> m_node;
  std::unique_ptr<ScriptedUpstream> m_upstream;
};

// One scripted step that calls `tool` with `arguments` (a JSON object text).
inline std::string call_step(const std::string& id, const std::string& tool, const nlohmann::json& arguments,
                             int prompt_tokens = 100) {
  nlohmann::json step = {{"type", "completion"},
                         {"content", nullptr},
                         {"tool_calls", {{{"id", id}, {"name", tool}, {"arguments", arguments.dump()}}}},
                         {"usage", {{"prompt_tokens", prompt_tokens}, {"completion_tokens", 10}}}};
  return step.dump();
}

inline std::string final_step(const std::string& text) {
  return nlohmann::json{{"type", "completion"}, {"content", text}, {"usage", {{"prompt_tokens", 50}, {"completion_tokens", 5}}}}
      .dump();
}

}  // namespace skillrt::test
