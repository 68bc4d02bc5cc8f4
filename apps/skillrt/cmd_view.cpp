// `skillrt view NAME [--file PATH]` = Hermes skill_view, plus the skill's
// provenance (JSON `provenance`; on stderr in text mode). A successful view of
// a skill that is ready counts in its usage record, which the curator ages by.
#include <iostream>
#include <optional>
#include <vector>

#include "command.hpp"
#include "core/util/terminal_text.hpp"
#include "tool_answers.hpp"

namespace skillrt::app {
namespace {

class ViewCommand final : public Command {
 public:
  const char* name() const override { return "view"; }
  const char* summary() const override { return "Load a skill, or one of its files"; }
  void configure(CLI::App& sub) override {
    sub.add_option("name", m_name, "Skill name, category/name or ns:name")->required();
    sub.add_option("--file", m_file, "A file inside the skill, e.g. references/api.md");
  }
  Outcome run(const Invocation& inv) override {
    std::optional<std::string> file;
    if (!m_file.empty()) {
      file = m_file;
    }
    // The answer (provenance, the view counted in the usage book) is shared
    // with the Python package: apps/common/tool_answers.hpp.
    frontend::SkillViewAnswer answer = frontend::answer_skill_view(inv.ctx, inv.config, m_name, file);
    const Json& result = answer.result;
    const std::vector<std::string>& warnings = answer.warnings;
    const std::string& provenance_note = answer.provenance_note;
    // Warnings go to stderr in every mode so --json stays one clean object.
    for (const auto& warning : warnings) {
      std::cerr << "warning: " << warning << '\n';
    }
    const Outcome outcome = outcome_of(result);
    if (inv.json) {
      print_json(result);
    } else if (outcome == Outcome::ok) {
      const auto content = result.find("content");
      if (content != result.end() && content->is_string()) {
        const std::string& text = content->get_ref<const std::string&>();
        std::cout << text;
        if (!text.empty() && text.back() != '\n') {
          std::cout << '\n';
        }
      }
      if (!provenance_note.empty()) {
        std::cerr << "provenance: " << core::terminal_safe(provenance_note, core::TerminalLayout::single_line) << '\n';
      }
      const auto note = result.find("setup_note");
      if (note != result.end() && note->is_string()) {
        std::cerr << "note: " << note->get<std::string>() << '\n';
      }
    } else {
      print_error_text(result);
    }
    return outcome;
  }

 private:
  std::string m_name;
  std::string m_file;
};

}  // namespace

std::unique_ptr<Command> make_view_command() { return std::make_unique<ViewCommand>(); }

}  // namespace skillrt::app
