#include "core/discovery/string_arena.hpp"

#include <cstdint>
#include <new>

namespace skillrt::core {

char* StringArena::allocate(std::size_t size, std::size_t align) {
  const auto misalignment = [&] {
    const std::size_t rest = reinterpret_cast<std::uintptr_t>(m_next) % align;
    return rest == 0 ? 0 : align - rest;
  };
  std::size_t pad = m_next == nullptr ? 0 : misalignment();
  if (m_next == nullptr || pad + size > m_left) {
    if (size + align > k_block_size / 4) {
      // Large items get a block of their own; the current block keeps filling.
      m_blocks.push_back(std::make_unique_for_overwrite<char[]>(size + align));
      m_capacity += size + align;
      char* start = m_blocks.back().get();
      const std::size_t rest = reinterpret_cast<std::uintptr_t>(start) % align;
      return start + (rest == 0 ? 0 : align - rest);
    }
    m_blocks.push_back(std::make_unique_for_overwrite<char[]>(k_block_size));
    m_capacity += k_block_size;
    m_next = m_blocks.back().get();
    m_left = k_block_size;
    pad = misalignment();
  }
  char* out = m_next + pad;
  m_next = out + size;
  m_left -= pad + size;
  return out;
}

std::string_view StringArena::add(std::string_view text) {
  if (text.empty()) {
    return {};
  }
  char* out = allocate(text.size(), 1);
  std::memcpy(out, text.data(), text.size());
  return {out, text.size()};
}

ViewList StringArena::add_list(const std::vector<std::string>& items) {
  if (items.empty()) {
    return {};
  }
  // [count, padded to a string_view][item views...]
  char* raw = allocate(sizeof(std::string_view) * (items.size() + 1), alignof(std::string_view));
  const std::size_t count = items.size();
  std::memcpy(raw, &count, sizeof count);
  auto* views = reinterpret_cast<std::string_view*>(raw + sizeof(std::string_view));
  for (std::size_t i = 0; i < count; ++i) {
    new (views + i) std::string_view(add(items[i]));
  }
  return ViewList(views);
}

} // namespace skillrt::core
