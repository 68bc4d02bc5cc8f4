// The opt-out marker (see bundled_opt_out.hpp).
#include "core/sync/bundled_opt_out.hpp"

#include <system_error>

#include "core/sync/bundled_sync.hpp"
#include "core/tenancy/permissions.hpp"
#include "core/files/atomic_file.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_marker_text =
    "skillrt: bundled skills opt-out marker. While this file exists, `skillrt sync` installs only "
    "using-skillrt. Remove it (skillrt sync --opt-out off) to opt back in.\n";

OptOutResult outcome(const fs::path& marker, OptOutAction action, std::string message, bool opted_out, bool changed) {
  OptOutResult out;
  out.action = action;
  out.message = std::move(message);
  out.opted_out = opted_out;
  out.changed = changed;
  out.marker = marker;
  return out;
}

} // namespace

const char* opt_out_action_name(OptOutAction action) {
  switch (action) {
  case OptOutAction::opted_out:
    return "opted_out";
  case OptOutAction::already_opted_out:
    return "already_opted_out";
  case OptOutAction::opted_in:
    return "opted_in";
  case OptOutAction::not_opted_out:
    return "not_opted_out";
  }
  return "not_opted_out";
}

Result<OptOutResult> set_bundled_opt_out(const Context& ctx, bool opt_out) {
  if (auto allowed = check_permission(ctx, Operation::create, Layer::shared); !allowed) {
    return tl::unexpected(allowed.error());
  }
  const fs::path marker = opt_out_marker_path(ctx);
  std::error_code ec;
  const bool present = fs::exists(fs::symlink_status(marker, ec));
  if (opt_out) {
    if (present) {
      return outcome(marker, OptOutAction::already_opted_out, "bundled skills are already opted out", true, false);
    }
    fs::create_directories(ctx.home, ec);
    if (ec) {
      return fail(ErrorCode::io_error, "cannot create " + ctx.home.string() + ": " + ec.message());
    }
    if (auto written = write_file_atomic(marker, k_marker_text); !written) {
      return tl::unexpected(written.error());
    }
    return outcome(marker, OptOutAction::opted_out,
                   "opted out of bundled skills: sync now installs only " + std::string(k_essential_skill), true, true);
  }
  if (!present) {
    return outcome(marker, OptOutAction::not_opted_out, "bundled skills were not opted out", false, false);
  }
  if (!fs::remove(marker, ec) || ec) {
    return fail(ErrorCode::io_error, "cannot remove " + marker.string() + (ec ? ": " + ec.message() : std::string()));
  }
  return outcome(marker, OptOutAction::opted_in, "opted back in to bundled skills: the next sync brings them in", false, true);
}

} // namespace skillrt::core::sync
