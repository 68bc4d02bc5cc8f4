// /api/v1/skills/{name}/file?path=P: one support file of a skill, read as
// skill_view's file_path reads it (the one containment rule decides), written
// (PUT {content}) and removed (DELETE) through skill_manage's write_file and
// remove_file, as a person's writes. A path goes in the query, not the URL
// path, so "references/api.md" needs no encoding of its slash.
#include "api/routes.hpp"
#include "api/skill_layer.hpp"
#include "core/discovery/catalog.hpp"
#include "core/manage/manage_request.hpp"
#include "core/view/skill_view.hpp"
#include "protocol/view_json.hpp"

namespace skillrt::api {
namespace {

std::optional<ApiResponse> require_path(const ApiCall& call) {
  const auto path = call.query.get("path");
  if (!path || path->empty()) {
    return error_answer(400, "name the file with ?path=, e.g. ?path=references/api.md");
  }
  return std::nullopt;
}

ApiResponse read_file(const RestApiServices& services, ApiCall& call) {
  if (auto missing = require_path(call)) {
    return *missing;
  }
  const std::shared_ptr<const core::Catalog> catalog = services.skills->catalog(call.ctx);
  std::vector<std::string> warnings;
  const auto answer =
      core::view_skill_in(call.ctx, services.skills->config(), *catalog, call.param("name"), call.query.get("path"), warnings);
  if (!answer) {
    return json_answer(http_status_of(answer.error().code), protocol::view_failure_json(answer.error()));
  }
  if (const auto* file = std::get_if<core::SkillFile>(&*answer)) {
    return json_answer(200, protocol::skill_file_json(*file));
  }
  return json_answer(200, protocol::skill_document_json(std::get<core::SkillDocument>(*answer)));
}

ApiResponse write_file(const RestApiServices& services, ApiCall& call) {
  if (auto missing = require_path(call)) {
    return *missing;
  }
  auto body = body_object(call.request);
  if (!body) {
    return error_answer(body.error());
  }
  auto layer = requested_layer(call, &*body);
  auto content = layer ? body_string(*body, "content") : Result<std::optional<std::string>>(tl::unexpected(layer.error()));
  auto confirm = content ? body_flag(*body, "confirm") : Result<bool>(tl::unexpected(content.error()));
  if (!confirm) {
    return error_answer(confirm.error());
  }
  if (!*content) {
    return error_answer(400, "writing a file needs 'content'");
  }
  if (*layer == core::Layer::database) {
    return error_answer(400, "database skills have no support files");
  }
  core::ManageRequest request;
  request.action = core::ManageAction::write_file;
  request.name = call.param("name");
  request.file_path = call.query.get("path");
  request.file_content = **content;
  request.layer = *layer;
  request.confirm = *confirm;
  request.actor = core::LedgerActor::user;
  return manage_answer(core::manage_skill(call.ctx, services.skills->config(), request), 200);
}

ApiResponse remove_file(const RestApiServices& services, ApiCall& call) {
  if (auto missing = require_path(call)) {
    return *missing;
  }
  auto layer = requested_layer(call);
  if (!layer) {
    return error_answer(layer.error());
  }
  if (*layer == core::Layer::database) {
    return error_answer(400, "database skills have no support files");
  }
  core::ManageRequest request;
  request.action = core::ManageAction::remove_file;
  request.name = call.param("name");
  request.file_path = call.query.get("path");
  request.layer = *layer;
  request.actor = core::LedgerActor::user;
  return manage_answer(core::manage_skill(call.ctx, services.skills->config(), request), 200);
}

}  // namespace

void add_skill_file_routes(Router& router, const RestApiServices& services) {
  router.add("GET", "/api/v1/skills/{name}/file", [&services](ApiCall& call) { return read_file(services, call); });
  router.add("PUT", "/api/v1/skills/{name}/file", [&services](ApiCall& call) { return write_file(services, call); });
  router.add("DELETE", "/api/v1/skills/{name}/file", [&services](ApiCall& call) { return remove_file(services, call); });
}

}  // namespace skillrt::api
