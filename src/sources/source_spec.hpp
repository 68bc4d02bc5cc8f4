// SOURCE, the string `skillrt install` is given: `SOURCE[//subdir][#ref]`
// (dist_shared decision 2; grammar in docs/sources.md). Parsing is pure: no
// file is looked at, so the same string always means the same kind.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::sources {

enum class SpecKind : unsigned char {
  folder,         // a local directory, copied
  archive,        // a local .tar.gz / .tgz / .zip
  git,            // a git repository: local path, file://, https:// (or loopback http://)
  url_archive,    // https://…(.tar.gz|.tgz|.zip), downloaded then extracted
  url_skill_file, // https://…/SKILL.md, downloaded as one skill
};
// "folder" | "archive" | "git" | "url-archive" | "url-skill-file"
const char* spec_kind_name(SpecKind kind);

struct SourceSpec {
  SpecKind kind = SpecKind::folder;
  // What to fetch: an absolute, lexically normal local path, or a URL with its
  // credentials (they are needed to fetch) but without `git+`, //subdir or #ref.
  std::string location;
  // What to show and record: `location` without credentials.
  std::string identifier;
  std::string subdir; // normalized ("a/b"), "" when none
  std::string ref;    // "" when none
};

// Parses `source`; relative local paths are made absolute against `cwd`.
// Fails (invalid_argument / refused) with a message saying what is wrong:
// empty, NUL or control bytes, a bad #ref or //subdir (absolute, `..`),
// http:// to a non-loopback host, ssh and other unsupported schemes, a #ref on
// an archive or a SKILL.md.
Result<SourceSpec> parse_source_spec(std::string_view source, const std::filesystem::path& cwd);

// The SOURCE that names the same thing from any working directory and holds
// no credentials: `identifier[//subdir][#ref]`, with `git+` in front of a git
// URL whose path would otherwise read as an archive or a SKILL.md. Parsing it
// gives back the same kind, identifier, subdir and ref (what check/update
// should re-fetch; a relative path in lock.json would depend on the cwd).
std::string canonical_source(const SourceSpec& spec);

} // namespace skillrt::sources
