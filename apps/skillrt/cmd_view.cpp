// `skillrt view NAME [--file PATH]` = Hermes skill_view, plus the skill's
// provenance (JSON `provenance`; on stderr in text mode). A successful view of
// a skill that is ready counts in its usage record, which the curator ages by.
#include <iostream>
#include <optional>
#include <vector>

#include "command.hpp"
#include "core/discovery/roots.hpp"
#include "core/provenance/provenance.hpp"
#include "core/usage/usage_book.hpp"
#include "core/util/terminal_text.hpp"
#include "core/view/view_usage.hpp"
#include "protocol/provenance_json.hpp"
#include "protocol/view_json.hpp"

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
    std::vector<std::string> warnings;
    const auto answer = core::view_skill(inv.ctx, inv.config, m_name, file, warnings);
    Json result;
    std::string provenance_note;
    if (!answer) {
      result = protocol::view_failure_json(answer.error());
    } else if (const auto* doc = std::get_if<core::SkillDocument>(&*answer)) {
      result = protocol::skill_document_json(*doc);
      if (doc->skill_dir) {
        const auto roots = core::compute_roots(inv.ctx, inv.config.skills);
        const core::Provenance provenance =
            core::ProvenanceIndex::load(inv.ctx, inv.config, roots).of(doc->tier, *doc->skill_dir);
        result["provenance"] = protocol::provenance_json(provenance);
        provenance_note = protocol::provenance_label(provenance);
        if (provenance.policy) {
          provenance_note += "; folder " + protocol::folder_policy_text(*provenance.policy);
        }
      }
      if (const auto subject = core::usage_subject(*doc)) {
        // Bookkeeping: a read-only home or a locked book never fails the view.
        (void)core::record_view(inv.ctx, subject->layer, subject->name);
      }
    } else {
      result = protocol::skill_file_json(std::get<core::SkillFile>(*answer));
    }
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
