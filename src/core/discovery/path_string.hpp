// A filesystem path kept as one compact, NUL-terminated string.
//
// libstdc++'s std::filesystem::path splits itself into components on
// construction (~430 heap bytes for a typical skill path) and std::string is
// 32 bytes before its heap buffer; a catalog of 50k skills holding two paths
// per record must fit in a 32 MiB process. PathString is one pointer wide,
// converts to std::filesystem::path on demand and offers the path members
// callers use most, so most code reads as if it held a path.
#pragma once

#include <compare>
#include <cstring>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace skillrt::core {

class PathString {
 public:
  PathString() = default;
  PathString(std::string_view text) { assign(text); }                               // NOLINT: implicit by design
  PathString(const std::string& text) { assign(text); }                             // NOLINT: implicit by design
  PathString(const char* text) { assign(text == nullptr ? std::string_view() : text); }  // NOLINT: implicit by design
  PathString(const std::filesystem::path& path) { assign(path.native()); }         // NOLINT: implicit by design
  PathString(const PathString& other) { assign(other.view()); }
  PathString(PathString&& other) noexcept = default;
  PathString& operator=(const PathString& other) {
    if (this != &other) {
      assign(other.view());
    }
    return *this;
  }
  PathString& operator=(PathString&& other) noexcept = default;
  ~PathString() = default;

  // The path as std::filesystem::path (builds one; keep it out of hot loops).
  std::filesystem::path path() const { return std::filesystem::path(std::string(view())); }
  operator std::filesystem::path() const { return path(); }  // NOLINT: implicit by design

  std::string_view view() const { return m_text ? std::string_view(m_text.get()) : std::string_view(); }
  std::string string() const { return std::string(view()); }
  std::string native() const { return string(); }
  const char* c_str() const { return m_text ? m_text.get() : ""; }
  bool empty() const { return !m_text || m_text[0] == '\0'; }

  std::filesystem::path filename() const { return path().filename(); }
  std::filesystem::path parent_path() const { return path().parent_path(); }
  std::filesystem::path lexically_relative(const std::filesystem::path& base) const {
    return path().lexically_relative(base);
  }
  std::filesystem::path operator/(const std::filesystem::path& tail) const { return path() / tail; }

  bool operator==(const PathString& other) const { return view() == other.view(); }
  std::strong_ordering operator<=>(const PathString& other) const { return view() <=> other.view(); }
  bool operator==(const std::filesystem::path& other) const { return path() == other; }

 private:
  void assign(std::string_view text) {
    if (text.empty()) {
      m_text.reset();
      return;
    }
    m_text = std::make_unique_for_overwrite<char[]>(text.size() + 1);
    std::memcpy(m_text.get(), text.data(), text.size());
    m_text[text.size()] = '\0';
  }

  std::unique_ptr<char[]> m_text;
};

inline std::ostream& operator<<(std::ostream& out, const PathString& path) { return out << path.view(); }

}  // namespace skillrt::core
