// /api/v1/skills: the skills a caller sees in every layer (the catalog of
// the file layers, as skills_list reads it, and the caller's database rows),
// one page at a time; one skill as skill_view shows it; and the writes:
// create (POST), edit (PUT), patch (PATCH), delete (DELETE). A REST write is
// a person's (WriteOrigin::person): it goes live at once, never staged, and
// its ledger entry names the user. A guard "ask" answers 409 with the report;
// sending the write again with "confirm": true keeps it.
#include <algorithm>
#include <set>

#include "api/routes.hpp"
#include "api/skill_layer.hpp"
#include "api/skill_lookup.hpp"
#include "core/dbskills/db_skills.hpp"
#include "core/discovery/catalog.hpp"
#include "core/discovery/roots.hpp"
#include "core/limits.hpp"
#include "core/manage/manage_request.hpp"
#include "core/provenance/provenance.hpp"
#include "core/view/skill_view.hpp"
#include "core/view/view_usage.hpp"
#include "protocol/db_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/provenance_json.hpp"
#include "protocol/view_json.hpp"
#include "core/yaml/frontmatter.hpp"
#include "web/markdown_html.hpp"

namespace skillrt::api {
namespace {

constexpr std::size_t k_max_offset = 1'000'000'000;

Json file_skill_entry(const core::Catalog& catalog, const core::SkillRecord& record,
                      const core::ProvenanceIndex& provenance) {
  Json entry = Json::object();
  entry["name"] = protocol::json_text(record.name);
  entry["description"] = protocol::json_text(catalog.description(record));
  entry["category"] = record.category ? Json(protocol::json_text(*record.category)) : Json(nullptr);
  entry["path"] = protocol::json_text(record.skill_md.string());
  entry["source"] = core::source_name(catalog.roots, record.tier);
  entry["layer"] = core::layer_name(core::tier_layer(record.tier));
  entry["provenance"] = protocol::provenance_json(provenance.of(catalog, record));
  return entry;
}

Json db_skill_entry(const core::DbSkill& row) {
  Json entry = Json::object();
  entry["name"] = protocol::json_text(row.name);
  entry["description"] = protocol::json_text(row.description);
  entry["category"] = row.category.empty() ? Json(nullptr) : Json(protocol::json_text(row.category));
  entry["path"] = "db:" + protocol::json_text(row.name);
  entry["source"] = "database";
  entry["layer"] = "database";
  entry["provenance"] = nullptr;
  return entry;
}

// The caller's database rows; an error only when the database layer was asked for.
Result<std::vector<core::DbSkill>> database_rows(const RestApiServices& services, const ApiCall& call) {
  std::vector<core::DbSkill> rows;
  auto listed = services.skills->with_store([&](core::SkillStore& store) -> Result<void> {
    SKILLRT_TRY_ASSIGN(rows, core::db_list_skills(call.ctx, store));
    return {};
  });
  if (!listed) {
    return tl::unexpected(listed.error());
  }
  return rows;
}

ApiResponse list_skills(const RestApiServices& services, ApiCall& call) {
  auto layer = requested_layer(call);
  if (!layer) {
    return error_answer(layer.error());
  }
  auto offset = call.query.number("offset", 0, k_max_offset);
  if (!offset) {
    return error_answer(offset.error());
  }
  auto limit = call.query.number("limit", limits::k_api_page_default, limits::k_api_page_max);
  if (!limit) {
    return error_answer(limit.error());
  }
  const std::optional<std::string> category = call.query.get("category");
  const bool has_user = call.ctx.user_id && !call.ctx.anonymous;
  if (*layer == core::Layer::database && !has_user) {
    return error_answer(403, std::string(core::k_db_needs_user));
  }

  const std::shared_ptr<const core::Catalog> catalog = services.skills->catalog(call.ctx);
  std::vector<const core::SkillRecord*> files;
  if (*layer != core::Layer::database) {
    for (const core::SkillRecord* record : catalog->sorted_listing(category)) {
      if (!*layer || core::tier_layer(record->tier) == **layer) {
        files.push_back(record);
      }
    }
  }
  std::vector<core::DbSkill> rows;
  Json problems = Json::array();
  if (has_user && (!*layer || *layer == core::Layer::database)) {
    auto listed = database_rows(services, call);
    if (listed) {
      rows = std::move(*listed);
    } else if (*layer) {
      return error_answer(listed.error());
    } else {
      // The file layers still list; say why the database's rows are missing.
      problems.push_back("database skills are not listed: " + listed.error().message);
    }
    std::erase_if(rows, [&](const core::DbSkill& row) { return category && row.category != *category; });
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  }

  std::set<std::string> categories;
  for (const core::SkillRecord* record : files) {
    if (record->category) {
      categories.insert(protocol::json_text(*record->category));
    }
  }
  for (const core::DbSkill& row : rows) {
    if (!row.category.empty()) {
      categories.insert(protocol::json_text(row.category));
    }
  }

  const std::size_t total = files.size() + rows.size();
  const std::size_t first = std::min(*offset, total);
  const std::size_t last = std::min(first + *limit, total);
  Json skills = Json::array();
  std::optional<core::ProvenanceIndex> provenance;
  for (std::size_t i = first; i < last; ++i) {
    if (i < files.size()) {
      if (!provenance) {
        provenance = core::ProvenanceIndex::load(call.ctx, services.skills->config(), catalog->roots);
      }
      skills.push_back(file_skill_entry(*catalog, *files[i], *provenance));
    } else {
      skills.push_back(db_skill_entry(rows[i - files.size()]));
    }
  }
  Json out = Json::object();
  out["success"] = true;
  out["skills"] = std::move(skills);
  out["categories"] = Json(std::vector<std::string>(categories.begin(), categories.end()));
  out["count"] = last - first;
  out["total"] = total;
  out["offset"] = first;
  out["limit"] = *limit;
  out["next_offset"] = last < total ? Json(last) : Json(nullptr);
  if (!problems.empty()) {
    out["problems"] = std::move(problems);
  }
  return json_answer(200, out);
}

// SKILL.md's Markdown body (the frontmatter left out) as HTML that is safe
// in the web UI's page (web/markdown_html.hpp).
std::string rendered_body(std::string_view content) {
  const std::string_view text = core::strip_bom(content);
  const std::optional<core::FenceSpan> fences = core::find_fences(text);
  return web::render_markdown_html(fences ? text.substr(fences->body_begin) : text);
}

ApiResponse view_database_skill(const RestApiServices& services, ApiCall& call) {
  if (auto refused = require_user(call, "database skills")) {
    return *refused;
  }
  core::DbSkill row;
  std::string backend;
  auto read = services.skills->with_store([&](core::SkillStore& store) -> Result<void> {
    backend = store.backend();
    SKILLRT_TRY_ASSIGN(row, core::db_get_skill(call.ctx, store, call.param("name")));
    return {};
  });
  if (!read) {
    return error_answer(read.error());
  }
  Json out = protocol::db_skill_result_json(row, backend, "");
  if (auto render = call.query.get("render"); render && *render == "html") {
    out["html"] = rendered_body(row.content);
  }
  return json_answer(200, out);
}

ApiResponse view_skill(const RestApiServices& services, ApiCall& call) {
  auto layer = requested_layer(call);
  if (!layer) {
    return error_answer(layer.error());
  }
  if (*layer == core::Layer::database) {
    return view_database_skill(services, call);
  }
  auto found = find_skill(services, call);
  if (!found) {
    return found.error();
  }
  const core::SkillDocument& doc = found->doc;
  if (*layer && core::tier_layer(doc.tier) != **layer) {
    return error_answer(404, "Skill '" + call.param("name") + "' is not in the " + core::layer_name(**layer) +
                                 " layer.");
  }
  Json out = protocol::skill_document_json(doc);
  auto render = call.query.get("render");
  if (render && *render != "html") {
    return error_answer(400, "?render= takes \"html\" (the body as sanitised HTML, for the web UI)");
  }
  if (render) {
    // doc.content holds no bundle banner: the page shows the plugin beside the skill.
    out["html"] = rendered_body(doc.content);
  }
  if (doc.skill_dir) {
    out["provenance"] = protocol::provenance_json(
        core::ProvenanceIndex::load(call.ctx, services.skills->config(), found->catalog->roots).of(doc.tier, *doc.skill_dir));
  }
  if (!found->warnings.empty()) {
    out["warnings"] = protocol::json_text_list(found->warnings);
  }
  if (const auto subject = core::usage_subject(doc)) {
    services.skills->note_view(call.ctx, subject->layer, subject->name);
  }
  return json_answer(200, out);
}

// --- writes -------------------------------------------------------------------

// A person's write through skill_manage (file layers).
ApiResponse run_manage(const RestApiServices& services, const ApiCall& call, core::ManageRequest request,
                       unsigned success_status) {
  request.actor = core::LedgerActor::user;
  return manage_answer(core::manage_skill(call.ctx, services.skills->config(), request), success_status);
}

// A database write: `write` runs with the store; the answer is db_skill_result_json.
template <typename Write>
ApiResponse run_database_write(const RestApiServices& services, const ApiCall& call, const char* verb,
                               unsigned success_status, Write&& write) {
  if (auto refused = require_user(call, "database skills")) {
    return *refused;
  }
  core::DbSkill row;
  std::string backend;
  std::vector<std::string> warnings;
  core::DbWriter by;
  by.warnings = &warnings;
  auto done = services.skills->with_store([&](core::SkillStore& store) -> Result<void> {
    backend = store.backend();
    SKILLRT_TRY_ASSIGN(row, write(store, by));
    return {};
  });
  if (!done) {
    return error_answer(done.error());
  }
  Json out = protocol::db_skill_result_json(row, backend, verb);
  if (!warnings.empty()) {
    out["warnings"] = protocol::json_text_list(warnings);
  }
  return json_answer(success_status, out);
}

// Reads the body, the layer and the fields every write shares.
struct WriteInput {
  Json body;
  std::optional<core::Layer> layer;
  bool confirm = false;
};

Result<WriteInput> write_input(const ApiCall& call) {
  WriteInput input;
  SKILLRT_TRY_ASSIGN(input.body, body_object(call.request));
  SKILLRT_TRY_ASSIGN(input.layer, requested_layer(call, &input.body));
  SKILLRT_TRY_ASSIGN(input.confirm, body_flag(input.body, "confirm"));
  return input;
}

ApiResponse create_skill(const RestApiServices& services, ApiCall& call) {
  auto input = write_input(call);
  if (!input) {
    return error_answer(input.error());
  }
  auto name = body_string(input->body, "name");
  auto content = name ? body_string(input->body, "content") : name;
  auto category = content ? body_string(input->body, "category") : content;
  if (!category) {
    return error_answer(category.error());
  }
  if (!*name || !*content) {
    return error_answer(400, "creating a skill needs 'name' and 'content' (the whole SKILL.md)");
  }
  if (input->layer == core::Layer::database) {
    return run_database_write(services, call, "created", 201, [&](core::SkillStore& store, const core::DbWriter& by) {
      core::DbSkillCreate request;
      request.name = **name;
      request.content = **content;
      request.category = category->value_or("");
      return core::db_create_skill(call.ctx, store, request, by);
    });
  }
  core::ManageRequest request;
  request.action = core::ManageAction::create;
  request.name = **name;
  request.content = **content;
  request.category = *category;
  request.layer = input->layer;
  request.confirm = input->confirm;
  return run_manage(services, call, std::move(request), 201);
}

ApiResponse edit_skill(const RestApiServices& services, ApiCall& call) {
  auto input = write_input(call);
  if (!input) {
    return error_answer(input.error());
  }
  auto content = body_string(input->body, "content");
  if (!content) {
    return error_answer(content.error());
  }
  if (!*content) {
    return error_answer(400, "editing a skill needs 'content' (the whole new SKILL.md)");
  }
  if (input->layer == core::Layer::database) {
    return run_database_write(services, call, "updated", 200, [&](core::SkillStore& store, const core::DbWriter& by) {
      core::DbSkillChange change;
      change.content = **content;
      return core::db_update_skill(call.ctx, store, call.param("name"), change, by);
    });
  }
  core::ManageRequest request;
  request.action = core::ManageAction::edit;
  request.name = call.param("name");
  request.content = **content;
  request.layer = input->layer;
  request.confirm = input->confirm;
  return run_manage(services, call, std::move(request), 200);
}

ApiResponse patch_skill(const RestApiServices& services, ApiCall& call) {
  auto input = write_input(call);
  if (!input) {
    return error_answer(input.error());
  }
  if (input->layer == core::Layer::database) {
    return error_answer(400, "database skills are edited whole: PUT the new content");
  }
  auto old_string = body_string(input->body, "old_string");
  auto new_string = old_string ? body_string(input->body, "new_string") : old_string;
  auto file_path = new_string ? body_string(input->body, "file_path") : new_string;
  auto replace_all = file_path ? body_flag(input->body, "replace_all") : Result<bool>(tl::unexpected(file_path.error()));
  if (!replace_all) {
    return error_answer(replace_all.error());
  }
  if (!*old_string || !*new_string) {
    return error_answer(400, "patching a skill needs 'old_string' and 'new_string' (\"\" deletes the match)");
  }
  core::ManageRequest request;
  request.action = core::ManageAction::patch;
  request.name = call.param("name");
  request.old_string = **old_string;
  request.new_string = **new_string;
  request.file_path = *file_path;
  request.replace_all = *replace_all;
  request.layer = input->layer;
  request.confirm = input->confirm;
  return run_manage(services, call, std::move(request), 200);
}

ApiResponse delete_skill(const RestApiServices& services, ApiCall& call) {
  auto layer = requested_layer(call);
  if (!layer) {
    return error_answer(layer.error());
  }
  if (*layer == core::Layer::database) {
    return run_database_write(services, call, "deleted", 200, [&](core::SkillStore& store, const core::DbWriter& by) {
      return core::db_delete_skill(call.ctx, store, call.param("name"), by);
    });
  }
  core::ManageRequest request;
  request.action = core::ManageAction::remove_skill;
  request.name = call.param("name");
  request.absorbed_into = call.query.get("absorbed_into");
  request.layer = *layer;
  return run_manage(services, call, std::move(request), 200);
}

}  // namespace

void add_skill_routes(Router& router, const RestApiServices& services) {
  router.add("GET", "/api/v1/skills", [&services](ApiCall& call) { return list_skills(services, call); });
  router.add("POST", "/api/v1/skills", [&services](ApiCall& call) { return create_skill(services, call); });
  router.add("GET", "/api/v1/skills/{name}", [&services](ApiCall& call) { return view_skill(services, call); });
  router.add("PUT", "/api/v1/skills/{name}", [&services](ApiCall& call) { return edit_skill(services, call); });
  router.add("PATCH", "/api/v1/skills/{name}", [&services](ApiCall& call) { return patch_skill(services, call); });
  router.add("DELETE", "/api/v1/skills/{name}", [&services](ApiCall& call) { return delete_skill(services, call); });
}

}  // namespace skillrt::api
