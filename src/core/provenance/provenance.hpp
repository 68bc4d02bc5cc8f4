// Where a skill came from, and the folder policy that governs it (issue 2/6
// item 4): `list`, `view` and `doctor` show it so a person can tell a skill
// the hub installed from one the agent wrote or one they wrote themselves.
//
// Nothing new is recorded for this: the answer is read from what the runtime
// already keeps — the bundled manifest (sync), each root's .hub/lock.json
// (hub), the usage books' `created_by` (the review and approved proposals),
// and the tier of the root the skill was found in.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/discovery/catalog.hpp"
#include "core/hub/lock_file.hpp"
#include "core/usage/usage_book.hpp"

namespace skillrt::core {

enum class ProvenanceKind : unsigned char {
  bundled,   // seeded from skillrt's bundled skills (the bundled manifest)
  hub,       // installed by `skillrt install` (lock.json), `source` says from where
  agent,     // written by an agent or the background review (usage record created_by: agent)
  user,      // written by a person (everything else in a writable root)
  external,  // found in a configured external dir (read-only to skillrt)
  project,   // found in a trusted project's skill dirs
  plugin,    // part of a plugin (core/plugins); `source` says where the plugin came from
};

const char* provenance_kind_name(ProvenanceKind kind);  // "bundled" | "hub" | ...

struct Provenance {
  ProvenanceKind kind = ProvenanceKind::user;
  std::string source;                  // hub: the identifier installed from ("" otherwise)
  std::string trust;                   // hub: the trust level recorded at install ("" otherwise)
  std::optional<FolderPolicy> policy;  // the top-level folder's policy, when one applies
};

// What provenance depends on for the roots of one catalog, read once. A file
// that cannot be read (missing, corrupt) only leaves its kind undetected:
// provenance is shown beside a listing and must never fail it.
class ProvenanceIndex {
 public:
  static ProvenanceIndex load(const Context& ctx, const Config& cfg, const RootSet& roots);

  Provenance of(const Catalog& catalog, const SkillRecord& record) const;
  // The same for a skill folder found in `root` (of tier `tier`).
  Provenance of(Tier tier, const std::filesystem::path& root, const std::filesystem::path& skill_dir) const;
  // The same when only the folder is known (a view): its root is the deepest
  // root of the set that holds it.
  Provenance of(Tier tier, const std::filesystem::path& skill_dir) const;

 private:
  struct RootFacts {
    std::map<std::string, hub::LockEntry> installed;  // lock.json, by skill name
    std::set<std::string> agent_made;                 // usage records with created_by: agent
  };
  const RootFacts* facts_for(const std::filesystem::path& root) const;

  FolderPolicies m_policies;
  std::map<std::string, std::string> m_bundled;     // bundled manifest: name → origin hash
  std::filesystem::path m_shared_root;              // canonical HOME/skills ("" when missing)
  std::map<std::filesystem::path, RootFacts> m_roots;  // by canonical root path (local and user roots)
  std::vector<std::filesystem::path> m_all_roots;      // every root of the set
  // The provenance of every skill under a plugin root, by that root: the
  // plugin's install identifier and trust from its plugins folder's
  // lock.json, else the plugin folder itself.
  std::map<std::filesystem::path, Provenance> m_plugin_roots;
};

}  // namespace skillrt::core
