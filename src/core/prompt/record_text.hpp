// Reading catalog record fields as text whatever their storage: the catalog
// may keep a field as std::string, std::string_view or PathString, and the
// prompt and commands code only ever reads them.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

namespace skillrt::core {

// A view of a text record field (std::string or std::string_view).
template <typename T> std::string_view field_text(const T& value) {
  return std::string_view(value);
}

// An owned copy of a record field: text, or a path type with string() (PathString).
template <typename T> std::string field_string(const T& value) {
  if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    return std::string(std::string_view(value));
  } else {
    return value.string();
  }
}

} // namespace skillrt::core
