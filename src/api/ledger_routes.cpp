// /api/v1/ledger: the audit log of skill changes (`skillrt ledger`): list
// (?layer=user|shared, ?skill=NAME), verify, one entry's diff, and rollback of one entry
// (restores the before state atomically and is itself an entry). With a
// user the default ledger is the user's own; the shared one needs
// ?layer=shared and is readable by everyone, rolled back by the owner org.
#include "api/routes.hpp"
#include "api/skill_layer.hpp"
#include "core/dbskills/db_skills.hpp"
#include "core/diff/ledger_entry_diff.hpp"
#include "core/ledger/ledger.hpp"
#include "core/ledger/ledger_rollback.hpp"
#include "core/ledger/ledger_verify.hpp"
#include "core/manage/ledger_rollback.hpp"
#include "core/tenancy/permissions.hpp"
#include "protocol/hub_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/ledger_json.hpp"

namespace skillrt::api {
namespace {

// The ledger ?layer= names (the database layer's entries are in the user's).
Result<core::Ledger> ledger_of(const ApiCall& call, const Json* body) {
  SKILLRT_TRY_ASSIGN(std::optional<core::Layer> asked, requested_layer(call, body));
  core::Layer layer = asked.value_or(call.ctx.user_id ? core::Layer::user : core::Layer::shared);
  if (layer == core::Layer::database) {
    layer = core::Layer::user;
  }
  SKILLRT_TRY_ASSIGN(core::Ledger ledger, core::ledger_for(call.ctx, layer));
  SKILLRT_TRY(core::check_permission(call.ctx, core::Operation::read, layer, ledger.owner));
  return ledger;
}

ApiResponse list(const RestApiServices&, ApiCall& call) {
  auto ledger = ledger_of(call, nullptr);
  if (!ledger) {
    return error_answer(ledger.error());
  }
  auto entries = core::list_ledger(*ledger, call.query.get("skill").value_or(""));
  if (!entries) {
    return error_answer(entries.error());
  }
  return json_answer(200, protocol::ledger_list_json(*ledger, *entries));
}

ApiResponse verify(const RestApiServices&, ApiCall& call) {
  auto ledger = ledger_of(call, nullptr);
  if (!ledger) {
    return error_answer(ledger.error());
  }
  const core::LedgerVerifyReport report = core::verify_ledger(*ledger);
  return json_answer(200, protocol::ledger_verify_json(*ledger, report));
}

ApiResponse rollback(const RestApiServices& services, ApiCall& call) {
  auto body = body_object(call.request);
  if (!body) {
    return error_answer(body.error());
  }
  auto ledger = ledger_of(call, &*body);
  auto force = ledger ? body_flag(*body, "force") : Result<bool>(tl::unexpected(ledger.error()));
  if (!force) {
    return error_answer(force.error());
  }
  core::LedgerRollbackOptions options;
  options.force = *force;
  options.actor = core::LedgerActor::user;
  options.actor_id = call.ctx.user_id.value_or("");
  auto entry = core::find_ledger_entry(*ledger, call.param("id"));
  if (!entry) {
    return error_answer(entry.error());
  }
  Result<core::LedgerRollback> done = tl::unexpected(Error{});
  if (entry->layer == core::Layer::database) {
    auto written = services.skills->with_store([&](core::SkillStore& store) -> Result<void> {
      SKILLRT_TRY_ASSIGN(done, core::db_rollback_change(call.ctx, store, *ledger, call.param("id"), options));
      return {};
    });
    if (!written) {
      return error_answer(written.error());
    }
  } else {
    done = core::rollback_skill_change(call.ctx, services.skills->config(), *ledger, call.param("id"), options);
  }
  if (!done) {
    return error_answer(done.error());
  }
  return json_answer(200, protocol::ledger_rollback_json(*done));
}

// What one entry changed: its before and after snapshots as a unified diff.
ApiResponse diff(const RestApiServices&, ApiCall& call) {
  auto ledger = ledger_of(call, nullptr);
  if (!ledger) {
    return error_answer(ledger.error());
  }
  auto entry = core::find_ledger_entry(*ledger, call.param("id"));
  if (!entry) {
    return error_answer(entry.error());
  }
  const core::diff::TreeDiff changes = core::diff::diff_ledger_entry(*ledger, *entry);
  Json out = Json::object();
  out["success"] = true;
  out["id"] = entry->id;
  out["skill"] = protocol::json_text(entry->skill);
  out["files"] = protocol::tree_diff_files_json(changes);
  out["diff"] = protocol::json_text(changes.text);
  out["truncated"] = changes.truncated;
  return json_answer(200, out);
}

}  // namespace

void add_ledger_routes(Router& router, const RestApiServices& services) {
  router.add("GET", "/api/v1/ledger", [&services](ApiCall& call) { return list(services, call); });
  router.add("GET", "/api/v1/ledger/verify", [&services](ApiCall& call) { return verify(services, call); });
  router.add("GET", "/api/v1/ledger/{id}/diff", [&services](ApiCall& call) { return diff(services, call); });
  router.add("POST", "/api/v1/ledger/{id}/rollback", [&services](ApiCall& call) { return rollback(services, call); });
}

}  // namespace skillrt::api
