// `skillrt [--user U] ledger list [--skill NAME]`, `ledger verify`,
// `ledger rollback ID [--force]`: the audit log of skill changes
// (core/ledger). With --user the user's ledger (their file and database
// skills), else the shared layer's; --source picks one explicitly, like the
// write commands. verify exits 1 when the ledger is not intact.
#include <iostream>
#include <optional>
#include <string>

#include "command.hpp"
#include "core/dbskills/db_skills.hpp"
#include "core/ledger/ledger.hpp"
#include "core/ledger/ledger_verify.hpp"
#include "core/manage/ledger_rollback.hpp"
#include "core/tenancy/permissions.hpp"
#include "protocol/error_json.hpp"
#include "protocol/ledger_json.hpp"
#include "store/open_store.hpp"

namespace skillrt::app {
namespace {

class LedgerCommand final : public Command {
public:
  const char* name() const override { return "ledger"; }
  const char* summary() const override {
    return "The audit log of skill changes: list, verify, rollback ID (--user: the user's ledger)";
  }

  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_list = sub.add_subcommand("list", "List the ledger's entries, oldest first");
    m_verify = sub.add_subcommand("verify", "Check the hash chain, the head and every blob (exit 1 on a problem)");
    m_rollback = sub.add_subcommand("rollback", "Restore a skill as it was before entry ID (itself a new entry)");
    m_list->add_option("--skill", m_skill, "Only this skill's entries");
    m_rollback->add_option("id", m_id, "The entry's id (at least 4 of its hex digits)")->required();
    m_rollback->add_flag("--force", m_force, "Restore even when the skill changed since the entry");
    for (CLI::App* action : {m_list, m_verify, m_rollback}) {
      action->add_option("--source", m_source, "Which ledger: user (default with --user) or shared")
          ->check(CLI::IsMember({"user", "shared"}));
      action->fallthrough(); // global flags may follow
    }
  }

  Outcome run(const Invocation& inv) override {
    const core::Layer layer = m_source ? (*m_source == "user" ? core::Layer::user : core::Layer::shared)
                                       : (inv.ctx.user_id ? core::Layer::user : core::Layer::shared);
    auto ledger = core::ledger_for(inv.ctx, layer);
    if (!ledger) {
      return failure(inv, ledger.error());
    }
    if (auto allowed = core::check_permission(inv.ctx, core::Operation::read, layer, ledger->owner); !allowed) {
      return failure(inv, allowed.error());
    }
    if (m_list->parsed()) {
      auto entries = core::list_ledger(*ledger, m_skill);
      if (!entries) {
        return failure(inv, entries.error());
      }
      return finish_result(inv.json, protocol::ledger_list_json(*ledger, *entries),
                           protocol::ledger_list_text(*entries, inv.color));
    }
    if (m_verify->parsed()) {
      const core::LedgerVerifyReport report = core::verify_ledger(*ledger);
      if (inv.json) {
        print_json(protocol::ledger_verify_json(*ledger, report));
      } else {
        (report.ok() ? std::cout : std::cerr) << protocol::ledger_verify_text(report);
      }
      return report.ok() ? Outcome::ok : Outcome::failed;
    }
    return rollback(inv, *ledger);
  }

private:
  Outcome rollback(const Invocation& inv, const core::Ledger& ledger) {
    core::LedgerRollbackOptions options;
    options.force = m_force;
    options.actor = core::LedgerActor::user;
    options.actor_id = inv.ctx.user_id.value_or("");
    auto entry = core::find_ledger_entry(ledger, m_id);
    if (!entry) {
      return failure(inv, entry.error());
    }
    Result<core::LedgerRollback> done = tl::unexpected(Error{});
    if (entry->layer == core::Layer::database) {
      // A database skill's rows are written through the store the command picks.
      const std::string& location = inv.database_location();
      auto store = store::open_store(location, inv.ctx);
      if (!store) {
        return failure(inv, store.error());
      }
      done = core::db_rollback_change(inv.ctx, **store, ledger, m_id, options);
    } else {
      done = core::rollback_skill_change(inv.ctx, inv.config, ledger, m_id, options);
    }
    if (!done) {
      return failure(inv, done.error());
    }
    for (const std::string& warning : done->warnings) {
      std::cerr << "warning: " << warning << '\n';
    }
    return finish_result(inv.json, protocol::ledger_rollback_json(*done),
                         protocol::ledger_rollback_message(*done) + "\n");
  }

  static Outcome failure(const Invocation& inv, const Error& error) {
    return finish_result(inv.json, protocol::error_result_json(error), "");
  }

  CLI::App* m_list = nullptr;
  CLI::App* m_verify = nullptr;
  CLI::App* m_rollback = nullptr;
  std::string m_skill;
  std::string m_id;
  std::optional<std::string> m_source;
  bool m_force = false;
};

} // namespace

std::unique_ptr<Command> make_ledger_command() {
  return std::make_unique<LedgerCommand>();
}

} // namespace skillrt::app
