// audit.log lines (see audit_log.hpp).
#include "core/hub/audit_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "core/files/unique_fd.hpp"
#include "core/hub/lock_file.hpp"
#include "core/util/utc_time.hpp"

namespace skillrt::core::hub {
namespace {

std::string field(std::string_view text, bool allow_spaces) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out.push_back(u < 0x20 || u == 0x7f || (c == ' ' && !allow_spaces) ? '_' : c);
  }
  return out.empty() ? "-" : out;
}

} // namespace

const char* audit_action_name(AuditAction action) {
  switch (action) {
  case AuditAction::install:
    return "INSTALL";
  case AuditAction::uninstall:
    return "UNINSTALL";
  case AuditAction::blocked:
    return "BLOCKED";
  case AuditAction::update:
    return "UPDATE";
  case AuditAction::audit:
    return "AUDIT";
  }
  return "AUDIT";
}

std::string without_credentials(std::string_view source) {
  const std::size_t scheme = source.find("://");
  if (scheme == std::string_view::npos) {
    return std::string(source);
  }
  const std::size_t host = scheme + 3;
  const std::size_t path = source.find_first_of("/?#", host);
  const std::size_t at = source.substr(0, path).rfind('@');
  if (at == std::string_view::npos || at < host) {
    return std::string(source);
  }
  return std::string(source.substr(0, host)) + std::string(source.substr(at + 1));
}

std::string format_audit_line(const AuditRecord& r, std::string_view timestamp) {
  const std::string_view trust = r.trust ? trust_level_name(*r.trust) : "";
  // An uninstall never scans and an audit may fail to: their missing verdict
  // reads "n/a"; on the other lines it is the empty field "-".
  const bool not_applicable = r.action == AuditAction::uninstall || (r.action == AuditAction::audit && !r.verdict);
  const std::string_view verdict = not_applicable ? "n/a" : r.verdict ? verdict_name(*r.verdict) : "";
  std::string line = std::string(timestamp) + " " + audit_action_name(r.action) + " " + field(r.skill, false) + " " +
                     field(without_credentials(r.source), false) + ":" + field(trust, false) + " " +
                     field(verdict, false);
  if (!r.extra.empty()) {
    line += " " + field(r.extra, true); // the free-text tail may keep its spaces
  }
  return line;
}

Result<void> append_audit_line(const std::filesystem::path& log, const AuditRecord& record) {
  const std::string line = format_audit_line(record, utc_now_iso8601()) + "\n";
  files::UniqueFd fd(::open(log.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!fd) {
    return fail(ErrorCode::io_error, "Cannot open " + log.string() + ": " + std::generic_category().message(errno));
  }
  // One write(2) per line: with O_APPEND the kernel places it whole at the end.
  const ssize_t written = ::write(fd.get(), line.data(), line.size());
  const int err = errno;
  fd.reset();
  if (written != static_cast<ssize_t>(line.size())) {
    return fail(ErrorCode::io_error, "Cannot append to " + log.string() + ": " + std::generic_category().message(err));
  }
  return {};
}

} // namespace skillrt::core::hub
