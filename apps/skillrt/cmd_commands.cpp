// `skillrt commands` = Hermes scan_skill_commands: the skills offered as slash commands.
#include <iostream>

#include "command.hpp"
#include "core/commands/skill_commands.hpp"
#include "core/discovery/catalog.hpp"
#include "protocol/commands_json.hpp"

namespace skillrt::app {
namespace {

class CommandsCommand final : public Command {
public:
  const char* name() const override { return "commands"; }
  const char* summary() const override { return "List the skills offered as slash commands"; }
  void configure(CLI::App& /*sub*/) override {}
  Outcome run(const Invocation& inv) override {
    const core::Catalog catalog = core::build_catalog(inv.ctx, inv.config);
    const core::SkillCommands commands = core::scan_skill_commands(catalog);
    if (inv.json) {
      protocol::write_commands_json(std::cout, commands);
      return Outcome::ok;
    }
    std::cout << protocol::commands_text(commands);
    for (const std::string& warning : commands.warnings) {
      std::cerr << "warning: " << warning << '\n';
    }
    return Outcome::ok;
  }
};

} // namespace

std::unique_ptr<Command> make_commands_command() {
  return std::make_unique<CommandsCommand>();
}

} // namespace skillrt::app
