// Asking git which worktrees a project belongs to (project trust identity).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillrt::core {

// Runs `git -C root worktree list --porcelain -z` with every GIT_* variable
// removed from the environment; returns its stdout when git exits 0 within
// `timeout`, nullopt on any failure (no git, not a repo, timeout: killed).
std::optional<std::string> git_worktree_list(const std::filesystem::path& root, std::chrono::milliseconds timeout);

// The `worktree <path>` entries of porcelain -z output, in order.
std::vector<std::string> parse_worktree_paths(std::string_view porcelain);

}  // namespace skillrt::core
