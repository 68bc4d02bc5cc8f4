// skillrt: parse the global flags, pick the subcommand, run it. Nothing else
// lives here; every command is one cmd_*.cpp file.
#include <algorithm>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "bundled_seed.hpp"
#include "change_log_publisher.hpp"
#include "command.hpp"
#include "invocation.hpp"
#include "output.hpp"
#include "terminal_stream.hpp"
#include "store/open_store.hpp"

namespace {

using skillrt::app::Outcome;

bool wants_json(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--json") {
      return true;
    }
  }
  return false;
}

int usage_failure(bool json, const std::string& message) {
  if (json) {
    skillrt::app::print_json(skillrt::app::usage_error_json(message));
  } else {
    std::cerr << "skillrt: " << message << "\nRun 'skillrt --help' for usage.\n";
  }
  return skillrt::app::exit_code(Outcome::usage);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"skillrt: a skills runtime for AI agents", "skillrt"};
  app.set_version_flag("--version", "skillrt 0.1.0");
  app.require_subcommand(1);

  skillrt::app::GlobalOptions global;
  app.add_option("--home", global.home, "Home directory (default: $HERMES_HOME, else ~/.hermes)");
  app.add_option("--user", global.user, "User id (multi-user layers)")->check(skillrt::app::user_id_validator());
  app.add_option("--org", global.org, "Organisation id")->check(skillrt::app::org_id_validator());
  app.add_option("--os", global.os, "Operating system for platforms: gating")
      ->check(CLI::IsMember({"linux", "darwin", "win32"}));
  app.add_option("--platform", global.platform, "Chat/session platform for skills.platform_disabled");
  app.add_option("--session", global.session, "Session id for ${HERMES_SESSION_ID}");
  app.add_option("--config", global.config, "Config file (default: HOME/config.yaml)");
  app.add_option("--db", global.db,
                 "Database skills: postgres://… URL or SQLite file (default: database.url, else HOME/skillrt.db)");
  app.add_flag("--json", global.json, "Print exactly one JSON object");

  std::vector<std::unique_ptr<skillrt::app::Command>> commands;
  commands.push_back(skillrt::app::make_list_command());
  commands.push_back(skillrt::app::make_view_command());
  commands.push_back(skillrt::app::make_setup_command());
  commands.push_back(skillrt::app::make_validate_command());
  commands.push_back(skillrt::app::make_doctor_command());
  commands.push_back(skillrt::app::make_trust_command(true));
  commands.push_back(skillrt::app::make_trust_command(false));
  commands.push_back(skillrt::app::make_prompt_command());
  commands.push_back(skillrt::app::make_commands_command());
  commands.push_back(skillrt::app::make_invoke_command());
  commands.push_back(skillrt::app::make_scan_command());
  commands.push_back(skillrt::app::make_db_command());
  commands.push_back(skillrt::app::make_ledger_command());
  commands.push_back(skillrt::app::make_search_command());
  commands.push_back(skillrt::app::make_match_command());
  commands.push_back(skillrt::app::make_memory_command());
  commands.push_back(skillrt::app::make_todo_command());
  commands.push_back(skillrt::app::make_token_command());
  commands.push_back(skillrt::app::make_mcp_command());
  commands.push_back(skillrt::app::make_serve_command());
  commands.push_back(skillrt::app::make_review_command());
  commands.push_back(skillrt::app::make_pending_command());
  for (const char* verb : {"pin", "unpin", "adopt"}) {
    commands.push_back(skillrt::app::make_usage_command(verb));
  }
  commands.push_back(skillrt::app::make_curate_command());
  commands.push_back(skillrt::app::make_promote_command());
  commands.push_back(skillrt::app::make_sync_command());
  commands.push_back(skillrt::app::make_reset_command());
  commands.push_back(skillrt::app::make_install_command());
  commands.push_back(skillrt::app::make_uninstall_command());
  commands.push_back(skillrt::app::make_plugin_command());
  commands.push_back(skillrt::app::make_check_command());
  commands.push_back(skillrt::app::make_update_command());
  commands.push_back(skillrt::app::make_audit_command());
  commands.push_back(skillrt::app::make_keygen_command());
  commands.push_back(skillrt::app::make_sign_command());
  for (auto action : {skillrt::core::ManageAction::create, skillrt::core::ManageAction::edit,
                      skillrt::core::ManageAction::patch, skillrt::core::ManageAction::remove_skill,
                      skillrt::core::ManageAction::write_file, skillrt::core::ManageAction::remove_file}) {
    commands.push_back(skillrt::app::make_manage_command(action));
  }

  std::vector<CLI::App*> subs;
  for (auto& command : commands) {
    CLI::App* sub = app.add_subcommand(command->name(), command->summary());
    sub->fallthrough();  // global flags may follow the subcommand
    command->configure(*sub);
    subs.push_back(sub);
  }

  const bool json = wants_json(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_failure(json, e.what());
  }

  // From here on a skill's text reaches the terminal only through the escaper
  // (ESC, CSI, OSC, C1 and other controls shown, not obeyed). --json stdout is
  // left byte-exact, and so is `mcp`'s: it carries JSON-RPC to a client, not
  // text to a terminal.
  bool protocol_stdout = json;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    protocol_stdout = protocol_stdout || (subs[i]->parsed() && commands[i]->name() == std::string_view("mcp"));
  }
  skillrt::app::TerminalSafeOutput terminal_safe(protocol_stdout);
  try {
    skillrt::app::Invocation inv = skillrt::app::make_invocation(global);
    terminal_safe.allow_styles(inv.color);
    inv.db = global.db;
    // Over PostgreSQL, the CLI's writes reach the change log every replica
    // reads. `serve` and `mcp` have a bus (and, for serve, a relay) of their own.
    std::optional<skillrt::app::ChangeLogPublisher> change_log;
    const std::string& location = inv.database_location();
    const bool own_bus = std::any_of(commands.begin(), commands.end(), [&](const auto& command) {
      const std::string_view name = command->name();
      return (name == "serve" || name == "mcp") &&
             subs[static_cast<std::size_t>(&command - commands.data())]->parsed();
    });
    if (!own_bus && skillrt::store::is_postgres_location(location)) {
      change_log.emplace(location);
      inv.ctx.events = &change_log->bus();
    }
    std::size_t seeded = 0;
    if (auto problem = skillrt::app::seed_bundled_skills(inv.ctx, inv.config, seeded)) {
      std::cerr << "skillrt: warning: " << *problem << '\n';
    } else if (seeded > 0 && !json) {
      std::cerr << "skillrt: seeded " << seeded << " bundled skills into " << inv.ctx.skills_dir().string() << '\n';
    }
    for (std::size_t i = 0; i < commands.size(); ++i) {
      if (subs[i]->parsed()) {
        return skillrt::app::exit_code(commands[i]->run(inv));
      }
    }
  } catch (const std::exception& e) {
    // A bug, not bad input: still one JSON object and a clear message.
    skillrt::app::Json out = skillrt::app::Json::object();
    out["success"] = false;
    out["error"] = std::string("internal error: ") + e.what();
    if (json) {
      skillrt::app::print_json(out);
    } else {
      std::cerr << "skillrt: internal error: " << e.what() << '\n';
    }
    return skillrt::app::exit_code(Outcome::failed);
  }
  return usage_failure(json, "no command given");
}
