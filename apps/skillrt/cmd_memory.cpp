// `skillrt --user U memory list [--target memory|user]`,
// `memory add --target T --content C`, `memory replace --target T --old X --content C`,
// `memory remove --target T --old X`: the user's memory stores (the Hermes memory tool).
#include <iostream>

#include "command.hpp"
#include "core/memory/memory.hpp"
#include "protocol/memory_json.hpp"
#include "protocol/error_json.hpp"

namespace skillrt::app {
namespace {

// One store for people: a heading with its usage, then numbered entries
// (continuation lines of a multi-line entry indented under it).
std::string store_text(const core::MemoryStores& stores, core::MemoryTarget target) {
  const auto& entries = stores.entries(target);
  std::string text = std::string(core::memory_target_name(target)) + " (" +
                     std::to_string(core::memory_used_chars(entries)) + "/" +
                     std::to_string(core::memory_char_limit(target)) + " characters)\n";
  if (entries.empty()) {
    return text + "  (empty)\n";
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string number = std::to_string(i + 1) + ". ";
    text += "  " + number;
    for (const char c : entries[i]) {
      text += c;
      if (c == '\n') {
        text += std::string(2 + number.size(), ' ');
      }
    }
    text += '\n';
  }
  return text;
}

class MemoryCommand final : public Command {
public:
  const char* name() const override { return "memory"; }
  const char* summary() const override {
    return "The user's memory (--user): list, add, replace, remove entries of target memory or user";
  }

  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_list = sub.add_subcommand("list", "Show the memory stores (both unless --target is given)");
    m_add = sub.add_subcommand("add", "Add an entry (--target T --content C)");
    m_replace = sub.add_subcommand("replace", "Replace the one entry containing --old with --content");
    m_remove = sub.add_subcommand("remove", "Remove the one entry containing --old");
    const auto targets = CLI::IsMember({"memory", "user"});
    m_list_target =
        m_list->add_option("--target", m_target, "memory (the agent's notes) or user (about the user)")->check(targets);
    for (CLI::App* action : {m_add, m_replace, m_remove}) {
      action->add_option("--target", m_target, "memory (the agent's notes) or user (about the user)")
          ->check(targets)
          ->required();
    }
    for (CLI::App* action : {m_add, m_replace}) {
      action->add_option("--content", m_content, "The entry's text")->required();
    }
    for (CLI::App* action : {m_replace, m_remove}) {
      action->add_option("--old", m_old, "A text that occurs in exactly one entry")->required();
    }
    for (CLI::App* action : {m_list, m_add, m_replace, m_remove}) {
      action->fallthrough(); // global flags may follow
    }
  }

  Outcome run(const Invocation& inv) override {
    core::MemoryRequest request;
    request.action = chosen_action();
    request.target = core::parse_memory_target(m_target).value_or(core::MemoryTarget::memory);
    request.content = m_content;
    request.old_text = m_old;
    auto result = core::run_memory(inv.ctx, request);
    if (!result) {
      return finish_result(inv.json, protocol::error_result_json(result.error()), "");
    }
    if (request.action == core::MemoryAction::list && m_list_target->count() == 0) {
      return finish_result(inv.json, protocol::memory_overview_json(result->stores),
                    store_text(result->stores, core::MemoryTarget::memory) +
                        store_text(result->stores, core::MemoryTarget::user));
    }
    std::string text = store_text(result->stores, result->target);
    if (request.action != core::MemoryAction::list) {
      text = result->message + "\n" + text;
    }
    return finish_result(inv.json, protocol::memory_result_json(*result), text);
  }

private:
  core::MemoryAction chosen_action() const {
    if (m_add->parsed())
      return core::MemoryAction::add;
    if (m_replace->parsed())
      return core::MemoryAction::replace;
    if (m_remove->parsed())
      return core::MemoryAction::remove;
    return core::MemoryAction::list;
  }

  CLI::App* m_list = nullptr;
  CLI::App* m_add = nullptr;
  CLI::App* m_replace = nullptr;
  CLI::App* m_remove = nullptr;
  CLI::Option* m_list_target = nullptr;
  std::string m_target = "memory";
  std::string m_content;
  std::string m_old;
};

} // namespace

std::unique_ptr<Command> make_memory_command() {
  return std::make_unique<MemoryCommand>();
}

} // namespace skillrt::app
