#include "core/tenancy/user_id.hpp"

#include <cstddef>
#include <string>

namespace skillrt::core {
namespace {

constexpr std::size_t k_max_id_bytes = 64;

bool is_user_id_byte(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '@' || c == '-';
}

}  // namespace

Result<void> check_user_id(std::string_view user_id) {
  if (user_id.empty()) return fail(ErrorCode::invalid_argument, "user id is empty");
  if (user_id.size() > k_max_id_bytes) {
    return fail(ErrorCode::invalid_argument,
                "user id is longer than " + std::to_string(k_max_id_bytes) + " bytes");
  }
  // "." and ".." start with '.', so the leading-character rule covers them too.
  if (user_id.front() == '.' || user_id.front() == '-') {
    return fail(ErrorCode::invalid_argument, "user id must not start with '.' or '-'");
  }
  for (const char c : user_id) {
    if (!is_user_id_byte(c)) {
      return fail(ErrorCode::invalid_argument,
                  "user id may only contain ASCII letters, digits and . _ @ - (no slashes, spaces or control bytes)");
    }
  }
  return {};
}

Result<void> check_org_id(std::string_view org_id) {
  if (org_id.empty()) return fail(ErrorCode::invalid_argument, "org id is empty");
  if (org_id.size() > k_max_id_bytes) {
    return fail(ErrorCode::invalid_argument, "org id is longer than " + std::to_string(k_max_id_bytes) + " bytes");
  }
  for (const char c : org_id) {
    // Printable ASCII without the space: 0x21..0x7e.
    if (c < '!' || c > '~') {
      return fail(ErrorCode::invalid_argument, "org id may only contain printable ASCII without spaces");
    }
  }
  return {};
}

}  // namespace skillrt::core
