#include "core/config/folder_policy.hpp"

#include <algorithm>

#include "core/util/text.hpp"

namespace skillrt::core {

namespace {

std::string scalar_text(const YamlNode* node) {
  if (node == nullptr || node->is_null() || !node->is_scalar()) {
    return {};
  }
  return std::string(trim_ascii_space(node->text()));
}

// A folder name a policy may name: one path segment, no dots-only names.
bool plain_folder_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos &&
         name.find('\\') == std::string_view::npos && name.front() != '.';
}

FolderPolicy& entry_for(FolderPolicies& policies, const std::string& folder) {
  for (FolderPolicy& policy : policies.folders) {
    if (policy.folder == folder) {
      return policy;
    }
  }
  FolderPolicy added;
  added.folder = folder;
  policies.folders.push_back(std::move(added));
  return policies.folders.back();
}

}  // namespace

const FolderPolicy* FolderPolicies::for_folder(std::string_view folder) const {
  for (const FolderPolicy& policy : folders) {
    if (policy.folder == folder) {
      return &policy;
    }
  }
  return nullptr;
}

const FolderPolicy* FolderPolicies::for_skill(std::string_view rel_dir) const {
  const std::size_t slash = rel_dir.find('/');
  if (slash == std::string_view::npos) {
    return nullptr;  // a skill at the top level of its root
  }
  return for_folder(rel_dir.substr(0, slash));
}

FolderPolicies default_folder_policies() {
  FolderPolicies out;
  FolderPolicy third;
  third.folder = std::string(k_third_party_folder);
  third.trust = "community";
  FolderPolicy generated;
  generated.folder = std::string(k_generated_folder);
  generated.trust = "agent-created";
  FolderPolicy archive;
  archive.folder = std::string(k_archive_folder);
  archive.index = false;
  out.folders = {third, generated, archive};
  return out;
}

FolderPolicies read_folder_policies(const YamlNode& document, std::vector<Error>& problems) {
  FolderPolicies out = default_folder_policies();
  const YamlNode* skills = document.get("skills");
  const YamlNode* folders = skills != nullptr ? skills->get("folders") : nullptr;
  if (folders == nullptr || folders->is_null()) {
    return out;
  }
  if (!folders->is_mapping()) {
    problems.push_back(Error{ErrorCode::parse_error, "config.yaml: `skills.folders` is not a mapping; ignored",
                             folders->pos()});
    return out;
  }
  for (const auto& [name, value] : folders->entries()) {
    if (!plain_folder_name(name)) {
      problems.push_back(Error{ErrorCode::parse_error,
                               "config.yaml: `skills.folders." + name + "` is not a single folder name; ignored",
                               value.pos()});
      continue;
    }
    if (!value.is_mapping()) {
      problems.push_back(Error{ErrorCode::parse_error,
                               "config.yaml: `skills.folders." + name + "` is not a mapping; ignored", value.pos()});
      continue;
    }
    FolderPolicy& policy = entry_for(out, name);
    if (const YamlNode* trust = value.get("trust")) {
      const std::string text = scalar_text(trust);
      policy.trust = text.empty() ? std::nullopt : std::optional<std::string>(text);
    }
    if (const YamlNode* approval = value.get("approval")) {
      const std::string text = scalar_text(approval);
      if (text == "all") {
        policy.approval_all = true;
      } else if (text == "inherit" || text.empty()) {
        policy.approval_all = false;
      } else {
        problems.push_back(Error{ErrorCode::parse_error,
                                 "config.yaml: `skills.folders." + name + ".approval` must be all or inherit",
                                 approval->pos()});
      }
    }
    if (const YamlNode* owners = value.get("owners")) {
      policy.owners.clear();
      if (owners->is_sequence()) {
        for (const YamlNode& owner : owners->items()) {
          if (std::string text = scalar_text(&owner); !text.empty()) {
            policy.owners.push_back(std::move(text));
          }
        }
      } else if (std::string text = scalar_text(owners); !text.empty()) {
        policy.owners.push_back(std::move(text));
      }
    }
    if (const YamlNode* index = value.get("index")) {
      policy.index = index->as_bool() != std::optional<bool>(false);
    }
  }
  return out;
}

bool is_folder_owner(const FolderPolicy& policy, const std::optional<std::string>& user_id, const std::string& org_id) {
  if (policy.owners.empty()) {
    return true;
  }
  return std::any_of(policy.owners.begin(), policy.owners.end(), [&](const std::string& owner) {
    if (owner.starts_with("org:")) {
      return !org_id.empty() && owner.substr(4) == org_id;
    }
    return user_id && *user_id == owner;
  });
}

}  // namespace skillrt::core
