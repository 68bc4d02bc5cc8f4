// Provenance folders as governance (issue 2/6 item 4): the top-level folders
// of a skills root carry a policy — the trust level of what lives there, who
// may change it, whether every agent change there waits for a person, and
// whether the prompt index shows it.
//
//   skills:
//     folders:
//       3rd:       {trust: community}            # where installs go
//       generated: {trust: agent-created}        # where approved agent skills land
//       archive:   {index: false}                # the curator's archive: viewable, not indexed
//       team-ops:  {owners: [alice, "org:ops"], approval: all}
//
// The three defaults hold unless the config gives the folder its own entry.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/yaml/yaml_node.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

inline constexpr std::string_view k_third_party_folder = "3rd";
inline constexpr std::string_view k_generated_folder = "generated";
inline constexpr std::string_view k_archive_folder = "archive";

struct FolderPolicy {
  std::string folder;                 // a top-level folder of a skills root
  std::optional<std::string> trust;   // a trust level name ("community", "agent-created", ...)
  bool approval_all = false;          // every agent or review change here is a proposal
  std::vector<std::string> owners;    // user ids, or "org:<id>"; empty = the layer's usual rules
  bool index = true;                  // false: left out of the prompt index (still listed and viewable)
};

struct FolderPolicies {
  std::vector<FolderPolicy> folders;
  // The policy of the top-level folder of `rel_dir` (a skill folder relative
  // to its root, '/' separated); nullptr for a skill at the top level or in
  // a folder without a policy.
  const FolderPolicy* for_skill(std::string_view rel_dir) const;
  const FolderPolicy* for_folder(std::string_view folder) const;
};

// The built-in policies (3rd, generated, archive).
FolderPolicies default_folder_policies();

// `skills.folders` over the defaults; a malformed entry is skipped and named
// in `problems`.
FolderPolicies read_folder_policies(const YamlNode& document, std::vector<Error>& problems);

// True when ctx's user (or organisation) is one of `owners`, or owners is empty.
bool is_folder_owner(const FolderPolicy& policy, const std::optional<std::string>& user_id, const std::string& org_id);

}  // namespace skillrt::core
