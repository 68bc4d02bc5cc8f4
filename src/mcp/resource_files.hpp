// skill:// resources: how a skill's files become URIs and back, which files a
// skill publishes, their MIME types, and reading one safely.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/discovery/catalog.hpp"
#include "skillrt/result.hpp"

namespace skillrt::mcp {

struct Snapshot;

// Most files one skill publishes (the Skills extension's per-skill limit).
inline constexpr std::size_t k_max_resources_per_skill = 512;

// The `<skill-path>` of a skill: its directory relative to its root, with the
// last segment replaced by the skill's name (the extension requires the last
// segment to equal the name), e.g. "devops/deploy".
std::string skill_path_of(const core::Catalog& catalog, const core::SkillRecord& record);

// skill://<skill-path>/<file>, every segment percent-encoded.
std::string skill_uri(std::string_view skill_path, std::string_view file);

// A skill:// URI resolved against a snapshot: the skill (position in
// Snapshot::skills) and the file relative to its directory.
struct UriTarget {
  std::size_t skill = 0;
  std::string file;
};
std::optional<UriTarget> resolve_skill_uri(const Snapshot& snapshot, std::string_view uri);

// The files a skill publishes, relative to its directory: SKILL.md first, then
// its linked files (references, templates, assets, scripts), at most
// k_max_resources_per_skill.
std::vector<std::string> skill_files(const std::filesystem::path& skill_dir);

// The MIME type of a file, from its extension (text/markdown for .md, ...).
std::string mime_type_for(std::string_view file);

// The raw bytes of skill_dir/file: the path is checked (no "..", not
// absolute), must stay inside the skill after resolving symlinks and must be
// a regular file within the served-file limit.
Result<std::string> read_skill_file(const std::filesystem::path& skill_dir, std::string_view file);

// Standard base64 with padding (resources/read blobs).
std::string base64_encode(std::string_view bytes);

// True when `bytes` can be sent as `text`: valid UTF-8 without NUL.
bool is_text(std::string_view bytes);

}  // namespace skillrt::mcp
