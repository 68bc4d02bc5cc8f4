// `skillrt invoke "/a /b instruction" [--runtime-note TEXT]` = Hermes
// build_skill_invocation_message: the message a host sends for a slash command.
#include <iostream>
#include <string>
#include <vector>

#include "command.hpp"
#include "core/commands/invocation_message.hpp"
#include "core/usage/usage_book.hpp"
#include "protocol/commands_json.hpp"

namespace skillrt::app {
namespace {

class InvokeCommand final : public Command {
public:
  const char* name() const override { return "invoke"; }
  const char* summary() const override { return "Build the message for a slash-command invocation"; }
  void configure(CLI::App& sub) override {
    sub.add_option("input", m_input, "The typed text, e.g. \"/deploy staging\" (words are joined by spaces)")
        ->required();
    sub.add_option("--runtime-note", m_runtime_note, "A note from the host appended to the message");
  }
  Outcome run(const Invocation& inv) override {
    std::string input;
    for (const std::string& word : m_input) {
      if (!input.empty()) {
        input += ' ';
      }
      input += word;
    }
    const auto invocation = core::build_invocation(inv.ctx, inv.config, input, m_runtime_note);
    const Json result = protocol::invocation_json(invocation);
    if (invocation) {
      for (const core::UsageSubject& used : invocation->used) {
        (void)core::record_use(inv.ctx, used.layer, used.name);  // bookkeeping, never a failure
      }
    }
    const bool usage = !invocation && invocation.error().code == ErrorCode::invalid_argument;
    if (inv.json) {
      print_json(result);
    } else if (invocation) {
      std::cout << invocation->message << '\n';
    } else {
      print_error_text(result);
    }
    return invocation ? Outcome::ok : usage ? Outcome::usage : Outcome::failed;
  }

private:
  std::vector<std::string> m_input;
  std::string m_runtime_note;
};

} // namespace

std::unique_ptr<Command> make_invoke_command() {
  return std::make_unique<InvokeCommand>();
}

} // namespace skillrt::app
