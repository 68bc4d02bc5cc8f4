// A filesystem path held as two views: a head shared by many paths (a skill
// root) and a tail of its own ("/category/skill/SKILL.md").
//
// libstdc++'s std::filesystem::path splits itself into components on
// construction (~430 heap bytes for a typical skill path), and even one
// string per path repeats the root's bytes in every record; a catalog of 50k
// skills must fit in a 32 MiB process. PathString owns nothing: its bytes
// live in the catalog's StringArena (or any storage that outlives it). It
// converts to std::filesystem::path on demand and offers the path members
// callers use most, so most code reads as if it held a path.
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>

namespace skillrt::core {

class PathString {
public:
  PathString() = default;
  // `whole` (and `head` + `tail`) must outlive the PathString.
  explicit PathString(std::string_view whole) : PathString(whole, std::string_view()) {}
  PathString(std::string_view head, std::string_view tail)
      : m_head(head.data()), m_tail(tail.data()), m_head_size(static_cast<std::uint32_t>(head.size())),
        m_tail_size(static_cast<std::uint32_t>(tail.size())) {}

  std::string_view head() const { return {m_head, m_head_size}; }
  std::string_view tail() const { return {m_tail, m_tail_size}; }
  std::size_t size() const { return std::size_t{m_head_size} + m_tail_size; }
  bool empty() const { return size() == 0; }

  void append_to(std::string& out) const {
    out.append(head());
    out.append(tail());
  }
  std::string string() const {
    std::string out;
    out.reserve(size());
    append_to(out);
    return out;
  }
  std::string native() const { return string(); }

  // The path as std::filesystem::path (builds one; keep it out of hot loops).
  std::filesystem::path path() const { return std::filesystem::path(string()); }
  operator std::filesystem::path() const { return path(); } // NOLINT: implicit by design

  std::filesystem::path filename() const { return path().filename(); }
  std::filesystem::path parent_path() const { return path().parent_path(); }
  std::filesystem::path lexically_relative(const std::filesystem::path& base) const {
    return path().lexically_relative(base);
  }
  std::filesystem::path operator/(const std::filesystem::path& tail) const { return path() / tail; }

  // Byte order of the whole path, without joining the pieces.
  int compare(const PathString& other) const {
    const std::string_view a[2] = {head(), tail()};
    const std::string_view b[2] = {other.head(), other.tail()};
    std::size_t ai = 0;
    std::size_t bi = 0;
    std::size_t ao = 0;
    std::size_t bo = 0;
    while (true) {
      while (ai < 2 && ao == a[ai].size()) {
        ++ai;
        ao = 0;
      }
      while (bi < 2 && bo == b[bi].size()) {
        ++bi;
        bo = 0;
      }
      if (ai == 2 || bi == 2) {
        return ai == 2 ? (bi == 2 ? 0 : -1) : 1;
      }
      const std::size_t n = std::min(a[ai].size() - ao, b[bi].size() - bo);
      if (const int by_bytes = std::memcmp(a[ai].data() + ao, b[bi].data() + bo, n); by_bytes != 0) {
        return by_bytes;
      }
      ao += n;
      bo += n;
    }
  }
  bool operator==(const PathString& other) const { return size() == other.size() && compare(other) == 0; }
  std::strong_ordering operator<=>(const PathString& other) const { return compare(other) <=> 0; }
  bool operator==(const std::filesystem::path& other) const { return path() == other; }

private:
  const char* m_head = nullptr;
  const char* m_tail = nullptr;
  std::uint32_t m_head_size = 0; // paths are bounded by PATH_MAX
  std::uint32_t m_tail_size = 0;
};

inline std::ostream& operator<<(std::ostream& out, const PathString& path) {
  return out << path.head() << path.tail();
}

} // namespace skillrt::core
