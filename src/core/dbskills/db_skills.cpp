#include "core/dbskills/db_skills.hpp"

#include "core/events/event_bus.hpp"
#include "core/ledger/ledger_blobs.hpp"
#include "core/limits.hpp"
#include "core/manage/content_checks.hpp"
#include "core/tenancy/permissions.hpp"
#include "core/util/text.hpp"
#include "core/validate/skill_name.hpp"
#include "core/yaml/frontmatter.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

// The user the operation is for; refused without one, then the matrix decides.
Result<std::string> authorised_user(const Context& ctx, Operation op) {
  if (!ctx.user_id || ctx.user_id->empty()) {
    return fail(ErrorCode::refused, std::string(k_db_needs_user));
  }
  SKILLRT_TRY(check_permission(ctx, op, Layer::database, *ctx.user_id));
  return *ctx.user_id;
}

// A database skill's name follows the create rule: Hermes can name every row.
Result<void> check_name(std::string_view name) {
  SKILLRT_TRY(check_skill_name(name, SkillNameRule::create));
  return {};
}

Result<void> check_content(std::string_view content) {
  if (trim_ascii_space(content).empty()) {
    return fail(ErrorCode::invalid_argument, "Content cannot be empty.");
  }
  return check_content_chars(content, "SKILL.md");
}

Result<void> check_description(std::string_view description) {
  if (count_chars(description) > limits::k_max_description_length) {
    return fail(ErrorCode::limit_exceeded,
                "Description exceeds " + with_thousands(limits::k_max_description_length) + " characters.");
  }
  return {};
}

Result<void> check_category_text(const std::string& category) {
  if (category.empty()) {
    return {};
  }
  return check_category(category);
}

void announce(const Context& ctx, ChangeKind kind, const DbSkill& row) {
  SkillEvent event;
  event.kind = kind;
  event.layer = Layer::database;
  event.owner = row.user_id;
  event.name = row.name;
  event.location = "db:" + std::to_string(row.id);
  publish_change(ctx, std::move(event));
}

// The one file of a database skill's snapshot.
constexpr std::string_view k_db_skill_file = "SKILL.md";

std::optional<std::vector<LedgerBytes>> files_of(const std::optional<std::string>& content) {
  if (!content) {
    return std::nullopt;
  }
  return std::vector<LedgerBytes>{LedgerBytes{std::string(k_db_skill_file), *content, 0644}};
}

// The row's content now (nullopt when there is no active row).
Result<std::optional<std::string>> current_content(SkillStore& store, const std::string& user, std::string_view name) {
  auto row = store.get_skill(user, name);
  if (!row) {
    if (row.error().code == ErrorCode::not_found) {
      return std::optional<std::string>{};
    }
    return tl::unexpected(row.error());
  }
  return std::optional<std::string>(std::move(row->content));
}

// One write's ledger entry, appended after the write; a failure is a warning.
void record(const Context& ctx, std::string_view name, const DbWriter& by, LedgerAction action,
            const std::optional<std::string>& before, const std::optional<std::string>& after) {
  const auto recorded = [&]() -> Result<void> {
    SKILLRT_TRY_ASSIGN(const Ledger ledger, ledger_for(ctx, Layer::database));
    LedgerChange change;
    change.actor = by.actor;
    change.actor_id = !by.actor_id.empty() ? by.actor_id : ctx.user_id.value_or(std::string());
    change.action = action;
    change.layer = Layer::database;
    change.skill = std::string(name);
    change.path = ledger_db_path(name);
    if (const auto files = files_of(before)) {
      SKILLRT_TRY_ASSIGN(change.before, capture_bytes(ledger, *files));
    }
    if (const auto files = files_of(after)) {
      SKILLRT_TRY_ASSIGN(change.after, capture_bytes(ledger, *files));
    }
    SKILLRT_TRY(append_ledger_entry(ledger, change));
    return {};
  }();
  if (!recorded && by.warnings != nullptr) {
    by.warnings->push_back("The change is made but the ledger did not record it: " + recorded.error().message);
  }
}

// The writes themselves, without a ledger entry (the rollback appends its own).
Result<DbSkill> create_row(const Context& ctx, SkillStore& store, const std::string& user,
                           const DbSkillCreate& request) {
  NewDbSkill row;
  row.name = request.name;
  row.content = request.content;
  row.category = request.category;
  row.description = request.description ? *request.description : description_from_content(request.content);
  SKILLRT_TRY(check_name(row.name));
  SKILLRT_TRY(check_category_text(row.category));
  SKILLRT_TRY(check_content(row.content));
  SKILLRT_TRY(check_description(row.description));
  auto created = store.create_skill(user, row);
  if (created) {
    announce(ctx, ChangeKind::created, *created);
  }
  return created;
}

Result<DbSkill> update_row(const Context& ctx, SkillStore& store, const std::string& user, std::string_view name,
                           const DbSkillChange& change) {
  SKILLRT_TRY(check_name(name));
  if (!change.content && !change.category && !change.description) {
    return fail(ErrorCode::invalid_argument, "Nothing to update: give new content, a category or a description.");
  }
  DbSkillUpdate update;
  update.content = change.content;
  update.category = change.category;
  update.description = change.description;
  if (change.content) {
    SKILLRT_TRY(check_content(*change.content));
    if (!change.description) {
      // New content brings its own description (when it declares one).
      if (std::string declared = description_from_content(*change.content); !declared.empty()) {
        update.description = std::move(declared);
      }
    }
  }
  if (change.category) {
    SKILLRT_TRY(check_category_text(*change.category));
  }
  if (update.description) {
    SKILLRT_TRY(check_description(*update.description));
  }
  auto updated = store.update_skill(user, name, update);
  if (updated) {
    announce(ctx, ChangeKind::updated, *updated);
  }
  return updated;
}

Result<DbSkill> delete_row(const Context& ctx, SkillStore& store, const std::string& user, std::string_view name) {
  SKILLRT_TRY(check_name(name));
  auto deleted = store.delete_skill(user, name);
  if (deleted) {
    announce(ctx, ChangeKind::deleted, *deleted);
  }
  return deleted;
}

} // namespace

std::string description_from_content(std::string_view content) {
  const Frontmatter fm = parse_frontmatter(content);
  const YamlNode* node = fm.fields.get("description");
  if (node == nullptr || node->is_null() || !node->truthy()) {
    return {};
  }
  // A frontmatter longer than the limit is cut rather than refused: the
  // caller did not write this description directly.
  return preview_chars(trim_ascii_space(node->to_string()), limits::k_max_description_length, "");
}

Result<std::vector<DbSkill>> db_list_skills(const Context& ctx, SkillStore& store) {
  SKILLRT_TRY_ASSIGN(const std::string user, authorised_user(ctx, Operation::list));
  return store.list_skills(user);
}

Result<DbSkill> db_get_skill(const Context& ctx, SkillStore& store, std::string_view name) {
  SKILLRT_TRY_ASSIGN(const std::string user, authorised_user(ctx, Operation::read));
  SKILLRT_TRY(check_name(name));
  return store.get_skill(user, name);
}

Result<DbSkill> db_create_skill(const Context& ctx, SkillStore& store, const DbSkillCreate& request,
                                const DbWriter& by) {
  SKILLRT_TRY_ASSIGN(const std::string user, authorised_user(ctx, Operation::create));
  auto created = create_row(ctx, store, user, request);
  if (created) {
    record(ctx, created->name, by, LedgerAction::create, std::nullopt, created->content);
  }
  return created;
}

Result<DbSkill> db_update_skill(const Context& ctx, SkillStore& store, std::string_view name,
                                const DbSkillChange& change, const DbWriter& by) {
  SKILLRT_TRY_ASSIGN(const std::string user, authorised_user(ctx, Operation::update));
  SKILLRT_TRY(check_name(name));
  // Read just before the write: what the entry records as "before".
  auto before = current_content(store, user, name);
  auto updated = update_row(ctx, store, user, name, change);
  if (updated) {
    if (before) {
      record(ctx, name, by, LedgerAction::edit, *before, updated->content);
    } else if (by.warnings != nullptr) {
      by.warnings->push_back("The change is made but the ledger did not record it: " + before.error().message);
    }
  }
  return updated;
}

Result<DbSkill> db_delete_skill(const Context& ctx, SkillStore& store, std::string_view name, const DbWriter& by) {
  SKILLRT_TRY_ASSIGN(const std::string user, authorised_user(ctx, Operation::remove));
  auto deleted = delete_row(ctx, store, user, name);
  if (deleted) {
    // The row as it was is the "before".
    record(ctx, name, by, LedgerAction::remove, deleted->content, std::nullopt);
  }
  return deleted;
}

Result<LedgerRollback> db_rollback_change(const Context& ctx, SkillStore& store, const Ledger& ledger,
                                          std::string_view id, const LedgerRollbackOptions& options) {
  SKILLRT_TRY_ASSIGN(const LedgerEntry undone, find_ledger_entry(ledger, id));
  if (undone.layer != Layer::database) {
    return fail(ErrorCode::invalid_argument, "ledger entry " + undone.id + " is not about a database skill");
  }
  const Operation op = !undone.before ? Operation::remove : (!undone.after ? Operation::create : Operation::update);
  SKILLRT_TRY_ASSIGN(const std::string user, authorised_user(ctx, op));
  if (user != ledger.owner) {
    return fail(ErrorCode::refused, "ledger entry " + undone.id + " belongs to another user's ledger");
  }
  SKILLRT_TRY_ASSIGN(const std::optional<std::string> now, current_content(store, user, undone.skill));
  SKILLRT_TRY_ASSIGN(const LedgerBytesRollback plan, plan_bytes_rollback(ledger, undone, files_of(now), options));
  if (!plan.restore) {
    SKILLRT_TRY(delete_row(ctx, store, user, undone.skill));
  } else {
    const LedgerBytes* skill_md = nullptr;
    for (const LedgerBytes& file : *plan.restore) {
      skill_md = file.path == k_db_skill_file ? &file : skill_md;
    }
    if (skill_md == nullptr || plan.restore->size() != 1) {
      return fail(ErrorCode::invalid_argument, "ledger entry " + undone.id + " holds no database skill's SKILL.md");
    }
    if (now) {
      DbSkillChange change;
      change.content = skill_md->bytes;
      SKILLRT_TRY(update_row(ctx, store, user, undone.skill, change));
    } else {
      DbSkillCreate create;
      create.name = undone.skill;
      create.content = skill_md->bytes;
      SKILLRT_TRY(create_row(ctx, store, user, create));
    }
  }
  LedgerRollback done;
  done.undone = undone;
  if (auto appended = append_ledger_entry(ledger, plan.change); appended) {
    done.entry = std::move(*appended);
  } else {
    done.warnings.push_back("The rollback is made but the ledger did not record it: " + appended.error().message);
  }
  return done;
}

} // namespace skillrt::core
