// `uninstall NAME` (spec §2.14.9): only skills lock.json records (never a
// bundled or hand-made skill); the recorded path is re-validated (never the
// root, never outside it, no symlink on the way), the folder leaves by one
// rename into .hub/trash, then the lock entry goes and UNINSTALL is audited.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/hub/pending_commit.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

struct UninstallOutcome {
  bool success = false;
  std::optional<Error> error;
  std::string name;
  std::filesystem::path path;
  std::string message;
  std::vector<RecoveryNote> recovered;
};

UninstallOutcome uninstall_skill(const Context& ctx, const std::string& name, bool shared);

} // namespace skillrt::core::hub
