// One subcommand of the CLI. Each command lives in its own cmd_*.cpp file:
// it declares its flags on a CLI11 sub-app, then runs with the Invocation.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/manage/manage_request.hpp"
#include "invocation.hpp"
#include "output.hpp"

namespace skillrt::app {

class Command {
 public:
  virtual ~Command() = default;
  virtual const char* name() const = 0;
  virtual const char* summary() const = 0;
  // Declares the command's own flags and positionals.
  virtual void configure(CLI::App& sub) = 0;
  // Runs after parsing; prints its result and says how it ended.
  virtual Outcome run(const Invocation& inv) = 0;
};

std::unique_ptr<Command> make_list_command();
std::unique_ptr<Command> make_view_command();
std::unique_ptr<Command> make_setup_command();  // cmd_setup.cpp: supply a skill's environment variables
std::unique_ptr<Command> make_validate_command();
std::unique_ptr<Command> make_doctor_command();
std::unique_ptr<Command> make_trust_command(bool trust);
std::unique_ptr<Command> make_prompt_command();
std::unique_ptr<Command> make_commands_command();
std::unique_ptr<Command> make_invoke_command();
std::unique_ptr<Command> make_scan_command();
std::unique_ptr<Command> make_db_command();  // cmd_db.cpp: database skills
std::unique_ptr<Command> make_ledger_command();  // cmd_ledger.cpp: the audit log of skill changes
std::unique_ptr<Command> make_search_command();  // cmd_search.cpp: relevant-skill search
std::unique_ptr<Command> make_match_command();   // cmd_match.cpp: the skills a message triggers
std::unique_ptr<Command> make_memory_command();  // cmd_memory.cpp: the user's memory stores
std::unique_ptr<Command> make_todo_command();    // cmd_todo.cpp: the user's todo list
std::unique_ptr<Command> make_token_command();   // cmd_token.cpp: API tokens for `serve`
std::unique_ptr<Command> make_mcp_command();     // cmd_mcp.cpp: MCP over stdio
std::unique_ptr<Command> make_serve_command();   // cmd_serve.cpp: MCP over Streamable HTTP
// Distribution (issue 5/5).
std::unique_ptr<Command> make_sync_command();       // cmd_sync.cpp: bundled skills sync
std::unique_ptr<Command> make_reset_command();      // cmd_sync.cpp: reset NAME [--restore]
std::unique_ptr<Command> make_install_command();    // cmd_install.cpp: install through quarantine
std::unique_ptr<Command> make_uninstall_command();  // cmd_uninstall.cpp
std::unique_ptr<Command> make_plugin_command();     // cmd_plugin.cpp: list / enable / disable / install plugins
std::unique_ptr<Command> make_check_command();      // cmd_check.cpp: upstream changed? locally modified?
std::unique_ptr<Command> make_update_command();     // cmd_update.cpp
std::unique_ptr<Command> make_audit_command();      // cmd_audit.cpp: rescan installed skills, drift
std::unique_ptr<Command> make_keygen_command();     // cmd_keygen.cpp: ed25519 key pair
std::unique_ptr<Command> make_sign_command();       // cmd_sign.cpp: sign a bundle
// Skills that learn (issue 2/6).
std::unique_ptr<Command> make_review_command();   // cmd_review.cpp: one background review now
std::unique_ptr<Command> make_pending_command();  // cmd_pending.cpp: the approval inbox
std::unique_ptr<Command> make_usage_command(const char* verb);  // cmd_usage.cpp: pin / unpin / adopt
std::unique_ptr<Command> make_curate_command();   // cmd_curate.cpp: age agent-made skills
std::unique_ptr<Command> make_promote_command();  // cmd_promote.cpp: move a skill between folders
// skill_manage, one command per action (cmd_manage.cpp).
std::unique_ptr<Command> make_manage_command(core::ManageAction action);

}  // namespace skillrt::app
