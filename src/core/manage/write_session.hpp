// The common start of every action that changes an existing skill: find it
// through the shared resolver, take its lock, clear what dead writers left,
// and resolve the target file inside it.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/manage/skill_locator.hpp"
#include "core/manage/skill_lock.hpp"
#include "core/manage/transaction.hpp"

namespace skillrt::core {

struct SkillWriteSession {
  ManagedSkill skill;
  SkillLock lock;                 // held until the session ends
  std::filesystem::path target;   // `rel` inside the skill (symlink escapes refused)
};

// Locates `name` (see locate_managed_skill; `for_write_file` picks its
// not-found wording), waits for the skill's lock, removes stray temp files and
// resolves `rel` inside the skill folder. The name is looked up among the
// roots of `layer` only. The catalog is only needed for the lookup, so it is
// not kept.
ManageExpected<SkillWriteSession> open_skill_for_write(const Context& ctx, const Config& cfg, std::string_view name,
                                                       const std::string& rel, bool for_write_file, Layer layer);

// The step every write to an existing skill ends with: writes `content` to the
// session's target inside `transaction` (which may already hold earlier steps,
// e.g. created folders), lets the guard judge the skill (settle_write) and
// commits. Returns the failure to report, with everything rolled back, or the
// scanner warnings of a write that stands.
ManageExpected<std::vector<std::string>> write_and_settle(const Context& ctx, const Config& cfg,
                                                          const SkillWriteSession& session, bool confirmed,
                                                          FileTransaction& transaction, std::string_view content);

}  // namespace skillrt::core
