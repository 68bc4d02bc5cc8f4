// Recording one change to a skill folder (ledger_record.hpp).
#include "core/ledger/ledger_record.hpp"

#include <system_error>

#include "core/ledger/ledger_blobs.hpp"

namespace skillrt::core {

namespace fs = std::filesystem;

LedgerFolderRecord::LedgerFolderRecord(const Context& ctx, LedgerWho who, const fs::path& root,
                                       const fs::path& skill_dir, bool exists) {
  m_change.actor = who.actor;
  m_change.actor_id = !who.actor_id.empty() ? std::move(who.actor_id) : ctx.user_id.value_or(std::string());
  m_change.action = who.action;
  m_change.layer = who.layer;
  m_change.note = std::move(who.note);
  auto ledger = ledger_for(ctx, who.layer);
  if (!ledger) {
    m_problem = ledger.error().message;
    return;
  }
  m_ledger = std::move(*ledger);
  // Where the folder really is below its root: what a rollback restores.
  std::error_code ec;
  const fs::path real_root = fs::canonical(root, ec);
  const fs::path real_dir = ec ? fs::path() : fs::weakly_canonical(skill_dir, ec);
  const fs::path relative = ec ? fs::path() : real_dir.lexically_relative(real_root);
  if (relative.empty() || relative == "." || *relative.begin() == "..") {
    m_problem = skill_dir.string() + " is not below its skills root " + root.string();
    return;
  }
  m_dir = real_dir;
  m_change.root = real_root.string();
  m_change.path = relative.generic_string();
  m_change.skill = real_dir.filename().string();
  if (exists) {
    auto before = capture_folder(*m_ledger, m_dir);
    if (!before) {
      m_problem = before.error().message;
      return;
    }
    m_change.before = std::move(*before);
  }
}

std::optional<std::string> LedgerFolderRecord::commit(bool removed) {
  if (m_problem.empty() && !removed) {
    auto after = capture_folder(*m_ledger, m_dir);
    if (after) {
      m_change.after = std::move(*after);
    } else {
      m_problem = after.error().message;
    }
  }
  if (m_problem.empty()) {
    if (auto appended = append_ledger_entry(*m_ledger, m_change); !appended) {
      m_problem = appended.error().message;
    }
  }
  if (m_problem.empty()) {
    return std::nullopt;
  }
  return "The change is made but the ledger did not record it: " + m_problem;
}

} // namespace skillrt::core
