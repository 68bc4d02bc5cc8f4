#include "core/view/name_check.hpp"

namespace skillrt::core {
namespace {

bool is_namespace_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

} // namespace

ViewFailure lookup_name_failure(Error error) {
  return view_failure(error.code, std::move(error.message), std::string(k_lookup_hint));
}

ViewResult<std::string> checked_lookup_name(std::string_view raw) {
  auto checked = check_skill_name(raw, SkillNameRule::lookup);
  if (!checked) {
    return tl::unexpected(lookup_name_failure(std::move(checked.error())));
  }
  return std::string(*checked);
}

ViewResult<std::optional<std::string>> namespace_alias(std::string_view name) {
  const std::size_t colon = name.find(':');
  if (colon == std::string_view::npos) {
    return std::optional<std::string>{};
  }
  const std::string_view ns = name.substr(0, colon);
  const std::string_view bare = name.substr(colon + 1);
  bool valid = !ns.empty();
  for (const char c : ns) {
    valid = valid && is_namespace_char(c);
  }
  if (!valid) {
    return tl::unexpected(view_failure(ErrorCode::invalid_argument, "Invalid namespace '" + std::string(ns) + "' in '" +
                                                                        std::string(name) +
                                                                        "'. Namespaces must match [a-zA-Z0-9_-]+."));
  }
  if (bare.empty()) {
    return std::optional<std::string>{};
  }
  const std::string alias = std::string(ns) + "/" + std::string(bare);
  auto checked = checked_lookup_name(alias);
  if (!checked) {
    return tl::unexpected(std::move(checked.error()));
  }
  return std::optional<std::string>(std::move(*checked));
}

} // namespace skillrt::core
