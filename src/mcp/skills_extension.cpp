// The MCP Skills extension (io.modelcontextprotocol/skills): skills/list,
// skills/get and the optional resources/directory/read. An entry is {uri,
// frontmatter, resources}: the SKILL.md URI, its frontmatter as JSON, and the
// complete manifest of the skill's published files with the sha256 digest and
// size of each file's raw bytes. A directory read lists the direct children
// of a skill's directory or of one of its subdirectories, as that manifest
// has them: what is not published is not shown, not even by name.
#include <algorithm>
#include <map>
#include <string>
#include <string_view>

#include "core/util/sha256.hpp"
#include "core/yaml/frontmatter.hpp"
#include "core/util/utf8.hpp"
#include "mcp/resource_files.hpp"
#include "mcp/server_state.hpp"
#include "protocol/json_text.hpp"

namespace skillrt::mcp {
namespace {

// Skills per page of skills/list: every entry hashes all of its files.
constexpr std::size_t k_skills_page = 50;

// Entries carry digests of what is on disk now: hosts re-fetch on our
// list_changed notifications, so no freshness period is promised, and
// entries depend on who asks.
void add_cache_hints(Json& result) {
  result["ttlMs"] = 0;
  result["cacheScope"] = "private";
}

// The entry of the skill at `position`; nullopt when its SKILL.md is gone.
std::optional<Json> build_entry(const Snapshot& snapshot, std::size_t position) {
  const core::SkillRecord& record = snapshot.catalog.records[snapshot.skills[position]];
  const std::string& path = snapshot.skill_paths[position];
  const std::filesystem::path dir = record.dir.path();
  Json resources = Json::array();
  Json frontmatter = Json::object();
  bool have_skill_md = false;
  for (const std::string& file : skill_files(dir)) {
    auto bytes = read_skill_file(dir, file);
    if (!bytes) {
      continue;  // vanished or unreadable since the walk: not published
    }
    if (file == "SKILL.md") {
      have_skill_md = true;
      const std::string text = core::sanitize_utf8(*bytes);
      const core::Frontmatter parsed = core::parse_frontmatter(core::strip_bom(text));
      Json fields = protocol::yaml_to_json(parsed.fields);
      if (fields.is_object()) {
        frontmatter = std::move(fields);
      }
    }
    Json resource = Json::object();
    resource["uri"] = protocol::json_text(skill_uri(path, file));
    resource["digest"] = "sha256:" + core::sha256_hex(*bytes);
    resource["size"] = bytes->size();
    resources.push_back(std::move(resource));
  }
  if (!have_skill_md) {
    return std::nullopt;
  }
  // The extension promises name and description in every entry; a SKILL.md
  // without them gets what skills_list shows (directory name, first body line).
  if (!frontmatter.contains("name")) {
    frontmatter["name"] = protocol::json_text(record.name);
  }
  if (!frontmatter.contains("description")) {
    frontmatter["description"] = protocol::json_text(snapshot.catalog.description(record));
  }
  Json entry = Json::object();
  entry["uri"] = protocol::json_text(skill_uri(path, "SKILL.md"));
  entry["frontmatter"] = std::move(frontmatter);
  entry["resources"] = std::move(resources);
  return entry;
}

// Entries are cached in the snapshot: while it lives nothing changed on disk
// (the watcher would have dropped it), so the digests still hold.
std::optional<Json> entry(const Snapshot& snapshot, std::size_t position) {
  {
    std::lock_guard lock(snapshot.entries_mutex);
    if (const auto found = snapshot.entries.find(position); found != snapshot.entries.end()) {
      return found->second;
    }
  }
  auto built = build_entry(snapshot, position);
  if (built) {
    std::lock_guard lock(snapshot.entries_mutex);
    snapshot.entries.emplace(position, *built);
  }
  return built;
}

}  // namespace

MethodResult list_skills_extension(Session::Impl& session, const Json& params) {
  auto offset = cursor_offset(params);
  if (!offset) {
    return tl::unexpected(offset.error());
  }
  const auto snapshot = session.server->snapshot(session.ctx);
  Json skills = Json::array();
  const std::size_t end = std::min(snapshot->skills.size(), *offset + k_skills_page);
  for (std::size_t i = *offset; i < end; ++i) {
    if (auto found = entry(*snapshot, i)) {
      skills.push_back(std::move(*found));
    }
  }
  Json result = Json::object();
  result["resultType"] = "complete";
  result["skills"] = std::move(skills);
  if (end < snapshot->skills.size()) {
    result["nextCursor"] = make_cursor(end);
  }
  add_cache_hints(result);
  return result;
}

MethodResult get_skill_extension(Session::Impl& session, const Json& params) {
  auto uri = string_param(params, "uri", true);
  if (!uri) {
    return tl::unexpected(uri.error());
  }
  const auto snapshot = session.server->snapshot(session.ctx);
  const auto target = resolve_skill_uri(*snapshot, **uri);
  // The extension answers an unknown skill with invalid params, as resources/read
  // does in its base revision.
  if (!target || target->file != "SKILL.md") {
    return tl::unexpected(RpcError{rpc_code::invalid_params, "Invalid params: no skill at \"" + **uri + "\"",
                                   Json{{"uri", **uri}}});
  }
  auto found = entry(*snapshot, target->skill);
  if (!found) {
    return tl::unexpected(RpcError{rpc_code::invalid_params, "Invalid params: no skill at \"" + **uri + "\"",
                                   Json{{"uri", **uri}}});
  }
  Json result = Json::object();
  result["resultType"] = "complete";
  result["skill"] = std::move(*found);
  add_cache_hints(result);
  return result;
}

namespace {

// Children per page of resources/directory/read (a skill publishes at most 512 files).
constexpr std::size_t k_directory_page = 200;
constexpr std::string_view k_directory_mime_type = "inode/directory";

RpcError not_a_directory(const std::string& uri) {
  return RpcError{rpc_code::invalid_params, "Invalid params: no skill directory at \"" + uri + "\"",
                  Json{{"uri", uri}}};
}

}  // namespace

MethodResult read_skill_directory(Session::Impl& session, const Json& params) {
  auto uri = string_param(params, "uri", true);
  if (!uri) {
    return tl::unexpected(uri.error());
  }
  auto offset = cursor_offset(params);
  if (!offset) {
    return tl::unexpected(offset.error());
  }
  const auto snapshot = session.server->snapshot(session.ctx);
  // skill://<skill-path> (a trailing '/' allowed) is the skill's own
  // directory; skill://<skill-path>/<dir> one of its subdirectories.
  std::string_view target = **uri;
  if (target.size() > 1 && target.back() == '/') {
    target.remove_suffix(1);
  }
  std::optional<UriTarget> found = resolve_skill_uri(*snapshot, std::string(target) + "/SKILL.md");
  std::string dir;  // relative to the skill directory; "" for the directory itself
  if (found && found->file == "SKILL.md") {
    found->file.clear();
  } else {
    found = resolve_skill_uri(*snapshot, target);
    if (!found) {
      return tl::unexpected(not_a_directory(**uri));
    }
    dir = found->file;
  }
  const auto manifest = entry(*snapshot, found->skill);
  if (!manifest) {
    return tl::unexpected(not_a_directory(**uri));
  }
  const std::string& path = snapshot->skill_paths[found->skill];
  std::map<std::string, std::size_t> size_of_uri;  // the manifest: what is published, and its size
  for (const Json& resource : manifest->at("resources")) {
    size_of_uri.emplace(resource.at("uri").get<std::string>(), resource.at("size").get<std::size_t>());
  }
  const core::SkillRecord& record = snapshot->catalog.records[snapshot->skills[found->skill]];
  const std::string prefix = dir.empty() ? std::string() : dir + "/";
  // Sorted by name, each child once: a file, or a directory holding published files.
  std::map<std::string, Json> children;
  for (const std::string& file : skill_files(record.dir.path())) {
    const auto size = size_of_uri.find(protocol::json_text(skill_uri(path, file)));
    if (size == size_of_uri.end() || file.compare(0, prefix.size(), prefix) != 0 || file.size() == prefix.size()) {
      continue;
    }
    const std::string_view rest = std::string_view(file).substr(prefix.size());
    const std::size_t slash = rest.find('/');
    const std::string name(rest.substr(0, slash));
    if (children.count(name) != 0) {
      continue;
    }
    Json child = Json::object();
    child["uri"] = protocol::json_text(skill_uri(path, prefix + name));
    child["name"] = protocol::json_text(name);
    if (slash == std::string_view::npos) {
      child["mimeType"] = mime_type_for(file);
      child["size"] = size->second;
    } else {
      child["mimeType"] = std::string(k_directory_mime_type);
    }
    children.emplace(name, std::move(child));
  }
  // A path that is a published file, or holds none, is not a directory.
  if (!dir.empty() && children.empty()) {
    return tl::unexpected(not_a_directory(**uri));
  }
  Json resources = Json::array();
  std::size_t index = 0;
  for (auto& [name, child] : children) {
    if (index >= *offset && index < *offset + k_directory_page) {
      resources.push_back(std::move(child));
    }
    ++index;
  }
  Json result = Json::object();
  result["resultType"] = "complete";
  result["resources"] = std::move(resources);
  if (*offset + k_directory_page < children.size()) {
    result["nextCursor"] = make_cursor(*offset + k_directory_page);
  }
  add_cache_hints(result);
  return result;
}

}  // namespace skillrt::mcp
