// The pristine rule (see pristine.hpp).
#include "core/files/pristine.hpp"

namespace skillrt::core::files {

bool is_pristine(std::string_view current_identity, std::string_view recorded_identity) {
  return !recorded_identity.empty() && current_identity == recorded_identity;
}

bool is_pristine(const Result<std::string>& current_identity, std::string_view recorded_identity) {
  return current_identity.has_value() && is_pristine(std::string_view(*current_identity), recorded_identity);
}

} // namespace skillrt::core::files
