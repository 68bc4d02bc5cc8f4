// skill_manage's ledger entries (ledger_hook.hpp).
#include "core/manage/ledger_hook.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

std::string note_of(const ManageRequest& request) {
  switch (request.action) {
  case ManageAction::patch:
  case ManageAction::write_file:
  case ManageAction::remove_file:
    return request.file_path ? *request.file_path : std::string("SKILL.md");
  case ManageAction::remove_skill:
    if (request.absorbed_into && request.absorbed_into->find_first_not_of(" \t\r\n\f\v") != std::string::npos) {
      return "absorbed into " + *request.absorbed_into;
    }
    return {};
  case ManageAction::create:
  case ManageAction::edit:
    return {};
  }
  return {};
}

} // namespace

LedgerAction ledger_action_of(ManageAction action) {
  switch (action) {
  case ManageAction::create:
    return LedgerAction::create;
  case ManageAction::edit:
    return LedgerAction::edit;
  case ManageAction::patch:
    return LedgerAction::patch;
  case ManageAction::remove_skill:
    return LedgerAction::remove;
  case ManageAction::write_file:
    return LedgerAction::write_file;
  case ManageAction::remove_file:
    return LedgerAction::remove_file;
  }
  return LedgerAction::edit;
}

ManageLedgerRecord::ManageLedgerRecord(const Context& ctx, const ManageRequest& request, Layer layer,
                                       const fs::path& root, const fs::path& skill_dir, bool exists)
    : m_record(ctx,
               LedgerWho{request.actor, request.actor_id,
                         request.ledger_action.value_or(ledger_action_of(request.action)), layer,
                         request.ledger_note.empty() ? note_of(request) : request.ledger_note},
               root, skill_dir, exists) {}

void ManageLedgerRecord::commit(std::vector<std::string>& warnings, bool removed) {
  if (auto warning = m_record.commit(removed)) {
    warnings.push_back(std::move(*warning));
  }
}

} // namespace skillrt::core
