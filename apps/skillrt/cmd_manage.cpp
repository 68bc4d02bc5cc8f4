// The skill_manage commands (spec §2.10), one per action:
//   create NAME [--category C] --content FILE|-     edit NAME --content FILE|-
//   patch NAME (--old S|--old-file F) (--new S|--new-file F) [--file PATH] [--replace-all]
//   delete NAME [--absorbed-into X]                  write-file NAME PATH --content FILE|-
//   remove-file NAME PATH
// create, edit, patch and write-file take --confirm to keep a write the guard
// answered "ask" for (never one it blocked). Every action takes
// --source user|shared: the layer written (default: the user's own layer with
// --user, else shared; shared writes with a user need --org 0).
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <tuple>

#include "command.hpp"
#include "content_input.hpp"
#include "core/manage/manage_request.hpp"
#include "protocol/manage_json.hpp"

namespace skillrt::app {
namespace {

using core::ManageAction;

class ManageCommand final : public Command {
public:
  explicit ManageCommand(ManageAction action) : m_action(action) {}

  const char* name() const override {
    switch (m_action) {
    case ManageAction::create:
      return "create";
    case ManageAction::edit:
      return "edit";
    case ManageAction::patch:
      return "patch";
    case ManageAction::remove_skill:
      return "delete";
    case ManageAction::write_file:
      return "write-file";
    case ManageAction::remove_file:
      return "remove-file";
    }
    return "?";
  }

  const char* summary() const override {
    switch (m_action) {
    case ManageAction::create:
      return "Create a skill from a SKILL.md";
    case ManageAction::edit:
      return "Rewrite a skill's SKILL.md";
    case ManageAction::patch:
      return "Find and replace text in a skill (fuzzy matching)";
    case ManageAction::remove_skill:
      return "Delete a skill";
    case ManageAction::write_file:
      return "Write a supporting file into a skill";
    case ManageAction::remove_file:
      return "Remove a supporting file from a skill";
    }
    return "";
  }

  void configure(CLI::App& sub) override {
    sub.add_option("name", m_name, "Skill name (as the catalog shows it) or category/name")->required();
    switch (m_action) {
    case ManageAction::create:
      sub.add_option("--category", m_category, "Category folder for the new skill");
      sub.add_option("--content", m_content, "SKILL.md to write: a file, or - for stdin")->required();
      break;
    case ManageAction::edit:
      sub.add_option("--content", m_content, "The new SKILL.md: a file, or - for stdin")->required();
      break;
    case ManageAction::patch: {
      auto* old_text = sub.add_option("--old", m_old, "Text to find");
      auto* old_file = sub.add_option("--old-file", m_old_file, "Read the text to find from a file (- = stdin)");
      old_text->excludes(old_file);
      auto* new_text = sub.add_option("--new", m_new, "Replacement text (may be empty)");
      auto* new_file = sub.add_option("--new-file", m_new_file, "Read the replacement from a file (- = stdin)");
      new_text->excludes(new_file);
      sub.add_option("--file", m_file, "Patch this supporting file instead of SKILL.md");
      sub.add_flag("--replace-all", m_replace_all, "Replace every match");
      break;
    }
    case ManageAction::remove_skill:
      sub.add_option("--absorbed-into", m_absorbed_into,
                     "The skill that took over this one's content (\"\" = explicit prune)");
      break;
    case ManageAction::write_file:
      sub.add_option("path", m_file, "Path inside the skill, e.g. references/api.md")->required();
      sub.add_option("--content", m_content, "File content: a file, or - for stdin")->required();
      break;
    case ManageAction::remove_file:
      sub.add_option("path", m_file, "Path inside the skill, e.g. references/api.md")->required();
      break;
    }
    sub.add_option("--source", m_source,
                   "Layer to write: user (default with --user) or shared (needs --org 0 when a user is given)")
        ->check(CLI::IsMember({"user", "shared"}));
    if (m_action == ManageAction::create || m_action == ManageAction::edit || m_action == ManageAction::patch ||
        m_action == ManageAction::write_file) {
      sub.add_flag("--confirm", m_confirm, "Keep the write even if the guard asks for confirmation");
    }
  }

  Outcome run(const Invocation& inv) override {
    core::ManageRequest request;
    request.action = m_action;
    request.name = m_name;
    request.actor = core::LedgerActor::user; // a person at the command line

    request.confirm = m_confirm;
    request.replace_all = m_replace_all;
    if (m_source) {
      request.layer = *m_source == "user" ? core::Layer::user : core::Layer::shared;
    }
    if (m_content) {
      auto bytes = read_content_input(*m_content, "--content");
      if (!bytes) {
        return usage(inv, bytes.error().message);
      }
      (m_action == ManageAction::write_file ? request.file_content : request.content) = std::move(*bytes);
    }
    if (m_action == ManageAction::create) {
      request.category = m_category;
    }
    if (m_file) {
      request.file_path = m_file;
    }
    if (m_action == ManageAction::patch) {
      request.old_string = m_old;
      request.new_string = m_new;
      for (auto [source, flag, target] : {std::tuple{&m_old_file, "--old-file", &request.old_string},
                                          std::tuple{&m_new_file, "--new-file", &request.new_string}}) {
        if (!*source) {
          continue;
        }
        auto bytes = read_content_input(**source, flag);
        if (!bytes) {
          return usage(inv, bytes.error().message);
        }
        *target = std::move(*bytes);
      }
      if (!request.old_string) {
        return usage(inv, "patch needs --old TEXT or --old-file FILE");
      }
      if (!request.new_string) {
        return usage(inv, "patch needs --new TEXT or --new-file FILE (--new \"\" deletes the match)");
      }
    }
    if (m_action == ManageAction::remove_skill) {
      request.absorbed_into = m_absorbed_into;
    }

    const Json result = protocol::skill_manage_json(inv.ctx, inv.config, request);
    const Outcome outcome = outcome_of(result);
    if (const auto warnings = result.find("warnings"); warnings != result.end() && warnings->is_array()) {
      for (const auto& warning : *warnings) {
        std::cerr << "warning: " << warning.get<std::string>() << '\n';
      }
    }
    if (inv.json) {
      print_json(result);
    } else if (outcome == Outcome::ok) {
      std::cout << result.value("message", "") << '\n';
    } else {
      print_error_text(result);
      if (const auto preview = result.find("file_preview"); preview != result.end() && preview->is_string()) {
        std::cerr << "file preview:\n" << preview->get<std::string>() << '\n';
      }
    }
    return outcome;
  }

private:
  Outcome usage(const Invocation& inv, const std::string& message) {
    if (inv.json) {
      print_json(usage_error_json(message));
    } else {
      std::cerr << "skillrt " << name() << ": " << message << '\n';
    }
    return Outcome::usage;
  }

  ManageAction m_action;
  std::string m_name;
  std::optional<std::string> m_category;
  std::optional<std::string> m_content;
  std::optional<std::string> m_old;
  std::optional<std::string> m_old_file;
  std::optional<std::string> m_new;
  std::optional<std::string> m_new_file;
  std::optional<std::string> m_file;
  std::optional<std::string> m_absorbed_into;
  std::optional<std::string> m_source;
  bool m_replace_all = false;
  bool m_confirm = false;
};

} // namespace

std::unique_ptr<Command> make_manage_command(core::ManageAction action) {
  return std::make_unique<ManageCommand>(action);
}

} // namespace skillrt::app
