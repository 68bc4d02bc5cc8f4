#include "core/dbskills/db_skills.hpp"

#include "core/events/event_bus.hpp"
#include "core/limits.hpp"
#include "core/manage/content_checks.hpp"
#include "core/tenancy/permissions.hpp"
#include "core/validate/skill_name.hpp"
#include "core/util/text.hpp"
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

Result<DbSkill> db_create_skill(const Context& ctx, SkillStore& store, const DbSkillCreate& request) {
  SKILLRT_TRY_ASSIGN(const std::string user, authorised_user(ctx, Operation::create));
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

Result<DbSkill> db_update_skill(const Context& ctx, SkillStore& store, std::string_view name,
                                const DbSkillChange& change) {
  SKILLRT_TRY_ASSIGN(const std::string user, authorised_user(ctx, Operation::update));
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

Result<DbSkill> db_delete_skill(const Context& ctx, SkillStore& store, std::string_view name) {
  SKILLRT_TRY_ASSIGN(const std::string user, authorised_user(ctx, Operation::remove));
  SKILLRT_TRY(check_name(name));
  auto deleted = store.delete_skill(user, name);
  if (deleted) {
    announce(ctx, ChangeKind::deleted, *deleted);
  }
  return deleted;
}

} // namespace skillrt::core
