// `check [NAME]` (spec §2.14.10, beyond it: local modification): per lock
// entry, is the install still valid and present, was it changed on disk
// since install (manifest hash ≠ lock content_hash), and did upstream change
// (the recorded SOURCE fetched again into quarantine, its content hash
// compared)? Both "locally modified" and "update available" can hold at once.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/hub/fetcher.hpp"
#include "core/hub/pending_commit.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

enum class UpstreamStatus : unsigned char { up_to_date, update_available, unavailable, not_checked };
const char*
upstream_status_name(UpstreamStatus status); // "up_to_date" | "update_available" | "unavailable" | "not_checked"

// The most important of what holds for one entry (the row's flags say everything).
enum class CheckStatus : unsigned char { invalid_install, missing, locally_modified, update_available, up_to_date, unavailable };
// "invalid_install" | "missing" | "locally_modified" | "update_available" | "up_to_date" | "unavailable"
const char* check_status_name(CheckStatus status);

struct CheckRow {
  std::string name;
  std::string install_path;
  std::string source_spec;
  CheckStatus status = CheckStatus::up_to_date;
  bool invalid_install = false;
  bool missing = false;
  bool locally_modified = false;
  UpstreamStatus upstream = UpstreamStatus::not_checked;
  std::string recorded_hash; // lock content_hash
  std::string current_hash;  // the folder on disk now ("" when missing)
  std::string latest_hash;   // upstream now ("" when not fetched)
  std::string message;
};

struct CheckOutcome {
  bool success = false;
  std::optional<Error> error;
  std::vector<CheckRow> rows;
  std::vector<RecoveryNote> recovered;
};

// `name` nullopt: every entry. `fetch_upstream` false: local checks only.
CheckOutcome check_installed(const Context& ctx, Fetcher& fetcher, const std::optional<std::string>& name, bool shared,
                             bool fetch_upstream, Progress* progress);

} // namespace skillrt::core::hub
