// An append-only store for the text of a catalog, and a list view into it.
//
// A catalog of 50k skills must fit in a 32 MiB process. One heap block per
// string costs a 32-byte std::string plus the allocator's header and rounding
// per field; the arena packs every name, description and path of a catalog
// into a few 64 KiB blocks and hands out std::string_view. Blocks are never
// reallocated or freed before the arena, and they are held by unique_ptr, so
// views stay valid when the arena (or the Catalog owning it) is moved.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace skillrt::core {

// A read-only list of string_view stored in a StringArena: one pointer wide
// (the item count sits in the arena just before the items). Iterates like a
// const std::vector<std::string_view>.
class ViewList {
public:
  using value_type = std::string_view;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = const std::string_view&;
  using const_reference = const std::string_view&;
  using const_iterator = const std::string_view*;
  using iterator = const_iterator;

  ViewList() = default;

  std::size_t size() const {
    if (m_items == nullptr) {
      return 0;
    }
    std::size_t count = 0;
    std::memcpy(&count, reinterpret_cast<const char*>(m_items) - sizeof(std::string_view), sizeof count);
    return count;
  }
  bool empty() const { return size() == 0; }
  const_iterator begin() const { return m_items; }
  const_iterator end() const { return m_items + size(); }
  const std::string_view& operator[](std::size_t index) const { return m_items[index]; }
  std::vector<std::string> to_strings() const { return std::vector<std::string>(begin(), end()); }

private:
  friend class StringArena;
  explicit ViewList(const std::string_view* items) : m_items(items) {}
  const std::string_view* m_items = nullptr;
};

class StringArena {
public:
  StringArena() = default;
  StringArena(StringArena&&) noexcept = default;
  StringArena& operator=(StringArena&&) noexcept = default;
  StringArena(const StringArena&) = delete;
  StringArena& operator=(const StringArena&) = delete;
  ~StringArena() = default;

  // A copy of `text` that lives as long as the arena. Empty text takes no space.
  std::string_view add(std::string_view text);
  // A copy of `items` (and of their bytes); empty lists take no space.
  ViewList add_list(const std::vector<std::string>& items);

  // Bytes held in blocks (for tests and measurements).
  std::size_t capacity() const { return m_capacity; }

private:
  static constexpr std::size_t k_block_size = 64 * 1024; // under glibc's mmap threshold: reuses freed heap

  char* allocate(std::size_t size, std::size_t align);

  std::vector<std::unique_ptr<char[]>> m_blocks;
  char* m_next = nullptr;
  std::size_t m_left = 0;
  std::size_t m_capacity = 0;
};

} // namespace skillrt::core
