// Resources: every SKILL.md and linked file of the caller's offered skills
// as skill://<skill-path>/<file>; list (paginated by skill), templates,
// read (text, or a base64 blob for binary files) and subscriptions.
#include <algorithm>
#include <string>

#include "core/limits.hpp"
#include "mcp/resource_files.hpp"
#include "mcp/server_state.hpp"
#include "protocol/json_text.hpp"

namespace skillrt::mcp {
namespace {

namespace fs = std::filesystem;

// Skills per page of resources/list (each contributes all of its files).
constexpr std::size_t k_resource_skills_page = 100;

RpcError not_found(const std::string& uri) {
  return RpcError{rpc_code::resource_not_found, "Resource not found: " + uri, Json{{"uri", uri}}};
}

struct FoundFile {
  std::shared_ptr<const Snapshot> snapshot;
  std::size_t skill = 0;
  std::string file;
  fs::path path;
};

// The caller's published file at `uri`, or resource-not-found.
tl::expected<FoundFile, RpcError> find_file(Session::Impl& session, const std::string& uri) {
  FoundFile found;
  found.snapshot = session.server->snapshot(session.ctx);
  const auto target = resolve_skill_uri(*found.snapshot, uri);
  if (!target) {
    return tl::unexpected(not_found(uri));
  }
  const core::SkillRecord& record = found.snapshot->catalog.records[found.snapshot->skills[target->skill]];
  const fs::path dir = record.dir.path();
  // Only what the skill publishes is readable, so a read can never reach a
  // file the listing (and the skills/list manifest) does not show.
  const std::vector<std::string> files = skill_files(dir);
  if (std::find(files.begin(), files.end(), target->file) == files.end()) {
    return tl::unexpected(not_found(uri));
  }
  found.skill = target->skill;
  found.file = target->file;
  found.path = dir / target->file;
  return found;
}

tl::expected<std::string, RpcError> uri_param(const Json& params) {
  auto uri = string_param(params, "uri", true);
  if (!uri) {
    return tl::unexpected(uri.error());
  }
  return std::move(**uri);
}

}  // namespace

MethodResult list_resources(Session::Impl& session, const Json& params) {
  auto offset = cursor_offset(params);
  if (!offset) {
    return tl::unexpected(offset.error());
  }
  const auto snapshot = session.server->snapshot(session.ctx);
  const core::Catalog& catalog = snapshot->catalog;
  Json resources = Json::array();
  const std::size_t end = std::min(snapshot->skills.size(), *offset + k_resource_skills_page);
  for (std::size_t i = *offset; i < end; ++i) {
    const core::SkillRecord& record = catalog.records[snapshot->skills[i]];
    const std::string& path = snapshot->skill_paths[i];
    const std::string name = protocol::json_text(record.name);
    for (const std::string& file : skill_files(record.dir.path())) {
      Json resource = Json::object();
      resource["uri"] = protocol::json_text(skill_uri(path, file));
      if (file == "SKILL.md") {
        resource["name"] = name;
        resource["description"] = protocol::json_text(catalog.description(record));
      } else {
        resource["name"] = name + "/" + protocol::json_text(file);
      }
      resource["mimeType"] = mime_type_for(file);
      resources.push_back(std::move(resource));
    }
  }
  Json result = Json::object();
  result["resources"] = std::move(resources);
  if (end < snapshot->skills.size()) {
    result["nextCursor"] = make_cursor(end);
  }
  return result;
}

MethodResult list_resource_templates(Session::Impl& /*session*/, const Json& params) {
  if (auto offset = cursor_offset(params); !offset) {
    return tl::unexpected(offset.error());
  }
  Json skill = Json::object();
  skill["uriTemplate"] = "skill://{+skill_path}/SKILL.md";
  skill["name"] = "skill";
  skill["title"] = "A skill's instructions";
  skill["description"] = "The SKILL.md of the skill at skill_path (its folder path; the last segment is its name)";
  skill["mimeType"] = "text/markdown";
  Json file = Json::object();
  file["uriTemplate"] = "skill://{+skill_path}/{+file_path}";
  file["name"] = "skill-file";
  file["title"] = "A file of a skill";
  file["description"] = "A linked file of the skill at skill_path, e.g. references/api.md";
  Json result = Json::object();
  result["resourceTemplates"] = Json::array({std::move(skill), std::move(file)});
  return result;
}

MethodResult read_resource(Session::Impl& session, const Json& params) {
  auto uri = uri_param(params);
  if (!uri) {
    return tl::unexpected(uri.error());
  }
  auto found = find_file(session, *uri);
  if (!found) {
    return tl::unexpected(found.error());
  }
  const core::SkillRecord& record = found->snapshot->catalog.records[found->snapshot->skills[found->skill]];
  auto bytes = read_skill_file(record.dir.path(), found->file);
  if (!bytes) {
    if (bytes.error().code == ErrorCode::not_found) {
      return tl::unexpected(not_found(*uri));
    }
    // A file the containment rule refuses is not a resource of this skill:
    // the client asked for something it may not have, not a server fault.
    if (bytes.error().code == ErrorCode::refused || bytes.error().code == ErrorCode::invalid_argument) {
      return tl::unexpected(RpcError{rpc_code::resource_not_found,
                                     "Resource not readable: " + *uri + ": " + bytes.error().message,
                                     Json{{"uri", *uri}}});
    }
    return tl::unexpected(RpcError{rpc_code::internal_error, "Cannot read " + *uri + ": " + bytes.error().message,
                                   Json{{"uri", *uri}}});
  }
  Json content = Json::object();
  content["uri"] = *uri;
  content["mimeType"] = mime_type_for(found->file);
  if (is_text(*bytes)) {
    content["text"] = std::move(*bytes);
  } else {
    content["blob"] = base64_encode(*bytes);
  }
  Json result = Json::object();
  result["contents"] = Json::array({std::move(content)});
  return result;
}

MethodResult subscribe_resource(Session::Impl& session, const Json& params) {
  auto uri = uri_param(params);
  if (!uri) {
    return tl::unexpected(uri.error());
  }
  auto found = find_file(session, *uri);
  if (!found) {
    return tl::unexpected(found.error());
  }
  std::lock_guard lock(session.mutex);
  // One subscription per file, whatever spelling of its URI (percent-encoded
  // variants resolve to the same file): the latest spelling wins, so one
  // change is one notification and a session's table stays bounded.
  std::erase_if(session.subscriptions, [&](const auto& entry) { return entry.second == found->path; });
  if (session.subscriptions.size() >= limits::k_max_subscriptions_per_session) {
    return tl::unexpected(RpcError{rpc_code::invalid_params,
                                   "Too many subscriptions: a session may subscribe to at most " +
                                       std::to_string(limits::k_max_subscriptions_per_session) + " resources",
                                   Json{{"uri", *uri}}});
  }
  session.subscriptions[*uri] = found->path;
  ++session.state_version;
  return Json::object();
}

MethodResult unsubscribe_resource(Session::Impl& session, const Json& params) {
  auto uri = uri_param(params);
  if (!uri) {
    return tl::unexpected(uri.error());
  }
  std::lock_guard lock(session.mutex);
  if (session.subscriptions.erase(*uri) != 0) {
    ++session.state_version;
  }
  return Json::object();
}

}  // namespace skillrt::mcp
