// Database skills: create, read, list, update and delete the hermes_skills rows
// of the context's user through a SkillStore. This is where the database
// layer's rules live: the permission matrix (tenancy/permissions.hpp), the
// skill-name and content rules shared with skill_manage, the description taken
// from the content's frontmatter, and a change event for every write.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context.hpp"
#include "core/ledger/ledger.hpp"
#include "core/ledger/ledger_rollback.hpp"
#include "core/store/skill_store.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// The refusal when the context has no user.
inline constexpr std::string_view k_db_needs_user = "database skills need a user (--user)";

struct DbSkillCreate {
  std::string name;
  std::string content;                    // the SKILL.md text (required, non-blank)
  std::string category;                   // "" = none
  std::optional<std::string> description; // nullopt: the frontmatter description of content
};

struct DbSkillChange {
  std::optional<std::string> content;
  std::optional<std::string> category;    // "" clears it
  std::optional<std::string> description; // nullopt with new content: re-read from its frontmatter
};

// Who writes, for the entry the write leaves in the user's ledger
// (core/ledger), and where a ledger problem goes.
struct DbWriter {
  LedgerActor actor = LedgerActor::user;
  std::string actor_id;                         // "" = ctx's user
  std::vector<std::string>* warnings = nullptr; // a write the ledger could not record says so here
};

Result<std::vector<DbSkill>> db_list_skills(const Context& ctx, SkillStore& store);
Result<DbSkill> db_get_skill(const Context& ctx, SkillStore& store, std::string_view name);
// Every write leaves one entry in the user's ledger (core/ledger: SKILL.md as
// the one file of the snapshot, path "db:<name>"). A ledger failure never
// undoes the write: it goes to `by.warnings` when given.
Result<DbSkill> db_create_skill(const Context& ctx, SkillStore& store, const DbSkillCreate& request,
                                const DbWriter& by = {});
Result<DbSkill> db_update_skill(const Context& ctx, SkillStore& store, std::string_view name,
                                const DbSkillChange& change, const DbWriter& by = {});
// Deactivates the row (it stays in the table); returns it as it was.
Result<DbSkill> db_delete_skill(const Context& ctx, SkillStore& store, std::string_view name, const DbWriter& by = {});

// `ledger rollback ID` of a database skill's entry in `ledger` (the user's):
// the row is put back as the entry's `before` (created, updated or
// deleted), refused when it changed since unless forced, and the rollback
// is appended as an entry of its own. A row's category and description are
// not in the ledger: a recreated row has none but its frontmatter's.
Result<LedgerRollback> db_rollback_change(const Context& ctx, SkillStore& store, const Ledger& ledger,
                                          std::string_view id, const LedgerRollbackOptions& options);

// The description a SKILL.md text declares in its frontmatter ("" when none).
std::string description_from_content(std::string_view content);

} // namespace skillrt::core
