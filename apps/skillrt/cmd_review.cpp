// `skillrt review --transcript FILE [--focus TEXT] [--memory] [--model-of-conversation M]`:
// one background review now (spec §2.17), against the model configured in
// auxiliary.background_review, on the conversation in FILE (OpenAI chat
// messages: a JSON array, or an object with "messages" and optionally
// "model" and "conversation_id"). Prints what it did; writes that need
// approval become proposals (`skillrt pending`).
#include <iostream>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "core/chat/chat_wire.hpp"
#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/review/review_engine.hpp"
#include "core/review/review_model.hpp"
#include "protocol/error_json.hpp"
#include "protocol/review_json.hpp"
#include "review_runner.hpp"

namespace skillrt::app {
namespace {

// The optional members of an object-form transcript.
struct TranscriptInfo {
  std::string model;
  std::string conversation_id;
};

TranscriptInfo transcript_info(const std::string& text) {
  TranscriptInfo info;
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (!doc.is_object()) {
    return info;
  }
  if (const auto model = doc.find("model"); model != doc.end() && model->is_string()) {
    info.model = model->get<std::string>();
  }
  if (const auto id = doc.find("conversation_id"); id != doc.end() && id->is_string()) {
    info.conversation_id = id->get<std::string>();
  }
  return info;
}

std::string report_text(const core::ReviewReport& report) {
  std::string text = "Review " + std::string(core::review_ending_name(report.ending));
  text += " after " + std::to_string(report.iterations) + " model call" + (report.iterations == 1 ? "" : "s");
  text += " (" + std::to_string(report.usage.prompt_tokens) + " prompt + " +
          std::to_string(report.usage.completion_tokens) + " completion tokens" +
          (report.digest ? ", conversation sent as a digest" : "") + ")\n";
  if (!report.error.empty()) {
    text += "error: " + report.error + "\n";
  }
  for (const core::ReviewAction& action : report.actions) {
    text += "  " + action.tool + ": " + action.summary;
    if (!action.proposal_id.empty()) {
      text += " -> proposal " + action.proposal_id + " (" + action.proposal_state + ")";
    }
    text += "\n";
  }
  if (!report.final_text.empty()) {
    text += report.final_text + "\n";
  }
  bool staged = false;
  for (const core::ReviewAction& action : report.actions) {
    staged = staged || action.proposal_state == "pending";
  }
  if (staged) {
    text += "Review the proposals with: skillrt pending list\n";
  }
  return text;
}

class ReviewCommand final : public Command {
 public:
  const char* name() const override { return "review"; }
  const char* summary() const override {
    return "Run a background review of a conversation now: the model improves skills (as proposals to approve)";
  }

  void configure(CLI::App& sub) override {
    sub.add_option("--transcript", m_transcript, "The conversation: a JSON file of OpenAI chat messages")->required();
    sub.add_option("--focus", m_focus, "What the review should look at (as Hermes' /refine FOCUS)");
    sub.add_flag("--memory", m_memory, "Review the user's memory too (needs --user)");
    sub.add_option("--model-of-conversation", m_conversation_model,
                   "The model the conversation ran on; a different review model gets a digest");
  }

  Outcome run(const Invocation& inv) override {
    // The configuration first: a missing model is the likeliest problem.
    if (auto settings = core::review_model_settings(inv.ctx, inv.config); !settings) {
      return finish_result(inv.json, protocol::error_result_json(settings.error()), "");
    }
    auto text = core::read_regular_file(m_transcript, limits::k_transcript_max_bytes);
    if (!text) {
      return finish_result(inv.json, protocol::error_result_json(text.error()), "");
    }
    auto conversation = core::parse_chat_messages(*text);
    if (!conversation) {
      Error error = conversation.error();
      error.message = m_transcript + ": " + error.message;
      return finish_result(inv.json, protocol::error_result_json(error), "");
    }
    const TranscriptInfo info = transcript_info(*text);
    core::ReviewJob job;
    job.ctx = inv.ctx;
    job.conversation_id = info.conversation_id;
    job.messages = std::move(*conversation);
    job.conversation_model = m_conversation_model.empty() ? info.model : m_conversation_model;
    job.prompt.skills = true;
    job.prompt.memory = m_memory;
    job.prompt.focus = m_focus;
    std::stop_source never;  // Ctrl-C ends the process; nothing to cancel it from here
    const core::ReviewReport report = run_review_job(job, inv.config, never.get_token());
    return finish_result(inv.json, protocol::review_report_json(report), report_text(report));
  }

 private:
  std::string m_transcript;
  std::string m_focus;
  std::string m_conversation_model;
  bool m_memory = false;
};

}  // namespace

std::unique_ptr<Command> make_review_command() { return std::make_unique<ReviewCommand>(); }

}  // namespace skillrt::app
