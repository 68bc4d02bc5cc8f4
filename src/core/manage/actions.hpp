// The six skill_manage actions (spec §2.10 rules 11-16), one file each, and the
// step they all end with.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/manage/manage_request.hpp"

namespace skillrt::core {

ManageResult manage_create(const Context& ctx, const Config& cfg, const ManageRequest& request);
ManageResult manage_edit(const Context& ctx, const Config& cfg, const ManageRequest& request);
ManageResult manage_patch(const Context& ctx, const Config& cfg, const ManageRequest& request);
ManageResult manage_delete(const Context& ctx, const Config& cfg, const ManageRequest& request);
ManageResult manage_write_file(const Context& ctx, const Config& cfg, const ManageRequest& request);
ManageResult manage_remove_file(const Context& ctx, const Config& cfg, const ManageRequest& request);

// After the bytes are on disk: runs the guard hook on `skill_dir` and, on
// "block" or an unconfirmed "ask", calls `undo` and returns the failure to
// report. Otherwise the write stands: scanner warnings are added to
// `warnings`, the skill caches are invalidated, and nullopt is returned.
std::optional<ManageResult> settle_write(const Context& ctx, const Config& cfg, const std::filesystem::path& skill_dir,
                                         bool confirmed, const std::function<std::vector<std::string>()>& undo,
                                         std::vector<std::string>& warnings);

// "Skill 'x' ..." messages quote the name the caller used.
std::string quoted_name(const std::string& name);

} // namespace skillrt::core
