#include "core/manage/folder_owners.hpp"

#include <algorithm>
#include <string>

namespace skillrt::core {

bool any_folder_owners(const Config& cfg) {
  return std::any_of(cfg.folders.folders.begin(), cfg.folders.folders.end(),
                     [](const FolderPolicy& policy) { return !policy.owners.empty(); });
}

Result<void> check_folder_owner(const Context& ctx, const Config& cfg, std::string_view rel_dir) {
  const std::string_view folder = rel_dir.substr(0, rel_dir.find('/'));
  if (folder.empty()) {
    return {};
  }
  const FolderPolicy* policy = cfg.folders.for_folder(folder);
  if (policy == nullptr || is_folder_owner(*policy, ctx.user_id, ctx.org_id)) {
    return {};
  }
  return fail(ErrorCode::refused, "Skills under '" + std::string(folder) +
                                      "/' can only be changed by their owners (skills.folders." + std::string(folder) +
                                      ".owners).");
}

}  // namespace skillrt::core
