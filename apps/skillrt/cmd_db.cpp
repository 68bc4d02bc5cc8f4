// `skillrt [--user U] [--db URL] db list|get NAME|create NAME|update NAME|delete NAME`:
// the database skills (hermes_skills rows) of the user. Where they live: --db,
// else `database.url` in config.yaml, else HOME/skillrt.db.
#include <iostream>
#include <optional>

#include "command.hpp"
#include "content_input.hpp"
#include "core/dbskills/db_skills.hpp"
#include "protocol/db_json.hpp"
#include "protocol/error_json.hpp"
#include "store/open_store.hpp"

namespace skillrt::app {
namespace {

enum class DbAction { list, get, create, update, remove };

class DbCommand final : public Command {
public:
  const char* name() const override { return "db"; }
  const char* summary() const override {
    return "Database skills of the user (--user): list, get, create, update, delete";
  }

  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_list = sub.add_subcommand("list", "List the user's database skills");
    m_get = sub.add_subcommand("get", "Show one database skill with its content");
    m_create = sub.add_subcommand("create", "Create a database skill from a SKILL.md (--content FILE|-)");
    m_update = sub.add_subcommand("update", "Update a database skill's content, category or description");
    m_delete = sub.add_subcommand("delete", "Delete (deactivate) a database skill");
    for (CLI::App* action : {m_list, m_get, m_create, m_update, m_delete}) {
      action->fallthrough(); // global flags may follow
    }
    for (CLI::App* action : {m_get, m_create, m_update, m_delete}) {
      action->add_option("name", m_name, "Skill name")->required();
    }
    for (CLI::App* action : {m_create, m_update}) {
      // --content FILE|- as in create/edit/write-file; --file is the older spelling, kept as an alias.
      m_content_opts.push_back(action->add_option("--content", m_content, "SKILL.md to store: a file, or - for stdin"));
      m_file_opts.push_back(action->add_option("--file", m_file, "Alias of --content"));
      m_category_opts.push_back(action->add_option("--category", m_category, "Category (\"\" clears it on update)"));
      m_description_opts.push_back(
          action->add_option("--description", m_description, "Description (default: the content's frontmatter)"));
    }
  }

  Outcome run(const Invocation& inv) override {
    const DbAction action = chosen_action();
    const bool has_content = given(m_content_opts);
    const bool has_file = given(m_file_opts);
    if (has_content && has_file) {
      return finish_usage(inv.json, "give --content or --file, not both", "db");
    }
    if (action == DbAction::create && !has_content && !has_file) {
      return finish_usage(inv.json, "db create needs --content FILE|-", "db");
    }
    std::optional<std::string> content;
    if (has_content || has_file) {
      auto bytes = has_content ? read_content_input(m_content, "--content") : read_content_input(m_file, "--file");
      if (!bytes) {
        return finish_usage(inv.json, bytes.error().message, "db");
      }
      content = std::move(*bytes);
    }

    // Refuse before touching (or creating) the database file.
    if (!inv.ctx.user_id) {
      return finish_result(inv.json, protocol::error_result_json(Error{ErrorCode::refused, std::string(core::k_db_needs_user), {}}),
                    "");
    }
    const std::string& location = inv.database_location();
    auto store = store::open_store(location, inv.ctx);
    if (!store) {
      return finish_result(inv.json, protocol::error_result_json(store.error()), "");
    }
    core::SkillStore& db = **store;
    const std::string backend = db.backend();

    switch (action) {
    case DbAction::list: {
      auto rows = core::db_list_skills(inv.ctx, db);
      if (!rows) {
        return finish_result(inv.json, protocol::error_result_json(rows.error()), "");
      }
      std::string text;
      for (const core::DbSkill& row : *rows) {
        text += row.name + "  v" + std::to_string(row.version) +
                (row.category.empty() ? "" : "  [" + row.category + "]") +
                (row.description.empty() ? "" : "  " + row.description) + "\n";
      }
      if (rows->empty()) {
        text = "No database skills for user " + *inv.ctx.user_id + ".\n";
      }
      return finish_result(inv.json, protocol::db_list_json(*rows, backend, *inv.ctx.user_id), text);
    }
    case DbAction::get: {
      auto row = core::db_get_skill(inv.ctx, db, m_name);
      if (!row) {
        return finish_result(inv.json, protocol::error_result_json(row.error()), "");
      }
      std::string text = row->content;
      if (!text.empty() && text.back() != '\n') {
        text += '\n';
      }
      return finish_result(inv.json, protocol::db_skill_result_json(*row, backend, ""), text);
    }
    case DbAction::create: {
      core::DbSkillCreate request;
      request.name = m_name;
      request.content = content.value_or("");
      request.category = given(m_category_opts) ? m_category : "";
      if (given(m_description_opts)) {
        request.description = m_description;
      }
      return written(inv, core::db_create_skill(inv.ctx, db, request), backend, "created");
    }
    case DbAction::update: {
      core::DbSkillChange change;
      change.content = content;
      if (given(m_category_opts)) {
        change.category = m_category;
      }
      if (given(m_description_opts)) {
        change.description = m_description;
      }
      return written(inv, core::db_update_skill(inv.ctx, db, m_name, change), backend, "updated");
    }
    case DbAction::remove:
      return written(inv, core::db_delete_skill(inv.ctx, db, m_name), backend, "deleted");
    }
    return finish_usage(inv.json, "unknown db action", "db");
  }

private:
  DbAction chosen_action() const {
    if (m_get->parsed())
      return DbAction::get;
    if (m_create->parsed())
      return DbAction::create;
    if (m_update->parsed())
      return DbAction::update;
    if (m_delete->parsed())
      return DbAction::remove;
    return DbAction::list;
  }

  static bool given(const std::vector<CLI::Option*>& options) {
    for (const CLI::Option* option : options) {
      if (option->count() > 0) {
        return true;
      }
    }
    return false;
  }

  static Outcome written(const Invocation& inv, const Result<core::DbSkill>& row, const std::string& backend,
                         const std::string& verb) {
    if (!row) {
      return finish_result(inv.json, protocol::error_result_json(row.error()), "");
    }
    const Json result = protocol::db_skill_result_json(*row, backend, verb);
    return finish_result(inv.json, result,
                  "Database skill '" + row->name + "' " + verb + " (version " + std::to_string(row->version) + ").\n");
  }

  CLI::App* m_list = nullptr;
  CLI::App* m_get = nullptr;
  CLI::App* m_create = nullptr;
  CLI::App* m_update = nullptr;
  CLI::App* m_delete = nullptr;
  std::vector<CLI::Option*> m_content_opts;
  std::vector<CLI::Option*> m_file_opts;
  std::vector<CLI::Option*> m_category_opts;
  std::vector<CLI::Option*> m_description_opts;
  std::string m_name;
  std::string m_content;
  std::string m_file;
  std::string m_category;
  std::string m_description;
};

} // namespace

std::unique_ptr<Command> make_db_command() {
  return std::make_unique<DbCommand>();
}

} // namespace skillrt::app
