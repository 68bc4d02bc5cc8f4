// The SkillStore port: database skills (the `hermes_skills` table) and the
// relevant-skill search index. Core code talks to this interface only; the
// adapters are src/store/sqlite (embedded default) and src/store/postgres, and
// src/store/open_store.hpp picks one from a location. Every call is scoped by
// a user id: no call can read or write another user's rows (the permission
// decision itself is tenancy/permissions.hpp's; this is the mechanism).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tenancy/layer.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// One row of hermes_skills.
struct DbSkill {
  std::int64_t id = 0;
  std::string user_id;
  std::string name;
  std::string description;
  std::string content;      // the whole SKILL.md text
  std::string category;     // "" when none
  std::int64_t version = 1; // 1 on create, +1 on every update
  bool is_active = true;
  std::string created_at;   // UTC, ISO 8601 with milliseconds: 2026-11-30T23:59:59.123Z
  std::string updated_at;
};

struct NewDbSkill {
  std::string name;         // checked with the skill-name rules of manage (create)
  std::string description;
  std::string content;
  std::string category;
};

// Only the fields that are set change.
struct DbSkillUpdate {
  std::optional<std::string> description;
  std::optional<std::string> content;
  std::optional<std::string> category;
};

// A searchable document. For database rows the store derives it itself in the
// same transaction as the write; file skills are pushed by the search service.
struct SearchDoc {
  std::string key;          // unique: "db:<id>" or the SKILL.md path
  std::string owner;        // user id; "" = shared (visible to every user)
  Layer source = Layer::shared; // stored as layer_name
  std::string name;
  std::string description;
  std::string tags;         // space-joined
  std::string triggers;     // space-joined
  std::string body;         // SKILL.md body (after the frontmatter)
  std::string stamp;        // opaque freshness token of a file doc (size/mtime/ctime/inode); "" for db
};

struct DocStamp {
  std::string key;
  std::string stamp;
};

struct SearchHit {
  std::string key;
  std::string owner;
  Layer source = Layer::shared;
  std::string name;
  std::string description;
  double score = 0;  // higher is better (the store normalises its engine's sign)
};

class SkillStore {
 public:
  virtual ~SkillStore() = default;

  // "sqlite" | "postgres"
  virtual const char* backend() const = 0;

  // --- hermes_skills, always scoped to one user -------------------------
  // Active rows of `user_id`, ordered by name.
  virtual Result<std::vector<DbSkill>> list_skills(std::string_view user_id) = 0;
  // The active row; not_found otherwise.
  virtual Result<DbSkill> get_skill(std::string_view user_id, std::string_view name) = 0;
  // invalid_argument on a bad name; refused ("already exists") when an active
  // row of that name exists for the user. A deleted name can be created again.
  virtual Result<DbSkill> create_skill(std::string_view user_id, const NewDbSkill& skill) = 0;
  // version + 1, updated_at = now; not_found when no active row.
  virtual Result<DbSkill> update_skill(std::string_view user_id, std::string_view name, const DbSkillUpdate& update) = 0;
  // Deactivates (is_active = false); not_found when no active row. Returns the row as it was.
  virtual Result<DbSkill> delete_skill(std::string_view user_id, std::string_view name) = 0;

  // --- the search index -------------------------------------------------
  // Key and stamp of every file doc of `owner` ("" = shared docs).
  virtual Result<std::vector<DocStamp>> file_doc_stamps(std::string_view owner) = 0;
  // In one transaction: upserts `docs` and removes `removed_keys` (file docs only).
  virtual Result<void> sync_file_docs(const std::vector<SearchDoc>& docs, const std::vector<std::string>& removed_keys) = 0;
  // Best first, at most `limit`, over shared docs, `user_id`'s file docs and
  // `user_id`'s active database rows (no user: shared docs only). The query is
  // free text; the store turns it into its engine's syntax safely (quotes,
  // operators and punctuation in the query are never syntax).
  virtual Result<std::vector<SearchHit>> search(std::optional<std::string_view> user_id, std::string_view query,
                                                std::size_t limit) = 0;

  // --- change feed (issue 4/5) -------------------------------------------
  // One opaque stamp per user with database rows (active or not), which
  // changes whenever one of that user's rows is created, updated or deleted,
  // also by another process. The MCP servers poll it to tell exactly the
  // affected users' sessions that their skills changed.
  virtual Result<std::vector<DocStamp>> user_change_stamps() = 0;
};

// Builds the search document of a SKILL.md text: name and description as
// given, tags and triggers from the frontmatter (`tags`, `metadata.hermes.tags`,
// `triggers`), body after the frontmatter. Used by both adapters and the
// search service so a skill is indexed the same way whatever its layer.
SearchDoc make_search_doc(std::string key, std::string owner, Layer source, std::string_view name,
                          std::string_view description, std::string_view skill_md_text);

}  // namespace skillrt::core
