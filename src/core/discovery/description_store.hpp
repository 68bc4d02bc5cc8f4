// The listing descriptions of a catalog, mostly kept out of resident memory.
//
// Descriptions are most of a catalog's text (about 14 MB of 17 MB at 50k
// skills) and only `list`, `prompt` and `commands` read them, once each, in
// an order close to the order they were stored in. So the store keeps the
// first `memory_budget` bytes in memory (a small catalog never touches a
// file) and writes the rest, in batches, to an unlinked temporary file, from
// which reads come through a small cache of page-sized windows. The file's
// pages sit in the page cache, which is not part of the process's RSS.
//
// Nothing is ever lost to the file: when no directory takes a temporary file,
// or a write fails (disk full, a file size limit), the bytes not yet written
// stay in memory and every later description does too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace skillrt::core {

// Where one description lives in its store: a byte range of the store's
// logical stream. Meaningless for any other store.
struct DescriptionRef {
  std::uint64_t offset = 0;
  std::uint32_t size = 0;
};

class DescriptionStore {
public:
  struct Options {
    // Bytes held in memory before anything goes to a file.
    std::size_t memory_budget = 1024 * 1024;
    // Unit of storage, of file I/O and of the read cache. Small pages keep a
    // read that jumps around cheap (one pread of 4 KiB per miss).
    std::size_t page_size = 4096;
    // Pages read back from the file that stay cached (page_size each).
    std::size_t cached_pages = 256;
    // Full pages written with one writev.
    std::size_t pages_per_write = 16;
    // Directories tried in order for the temporary file; none means memory only.
    std::vector<std::filesystem::path> spill_dirs;
  };

  // Memory only.
  DescriptionStore();
  explicit DescriptionStore(Options options);
  DescriptionStore(DescriptionStore&&) noexcept;
  DescriptionStore& operator=(DescriptionStore&&) noexcept;
  DescriptionStore(const DescriptionStore&) = delete;
  DescriptionStore& operator=(const DescriptionStore&) = delete;
  ~DescriptionStore();

  // Stores a copy of `text` (at most 4 GiB - 1 bytes; the catalog's are a few KB).
  DescriptionRef append(std::string_view text);

  // The text of `ref`. Empty when the temporary file cannot be read back
  // (an I/O error on the device under it).
  std::string get(DescriptionRef ref) const;

  // Calls `visit(std::string_view)` with the text of `ref` without copying
  // it when it lies in one page. The view is valid only during the call, and
  // `visit` must not call back into this store (it holds the store's lock).
  template <typename Visit> void visit(DescriptionRef ref, Visit&& visit) const {
    using Fn = std::remove_reference_t<Visit>;
    visit_impl(ref, const_cast<void*>(static_cast<const void*>(&visit)),
               [](void* fn, std::string_view text) { (*static_cast<Fn*>(fn))(text); });
  }

  // For tests and measurements.
  std::size_t size() const;           // bytes appended
  std::size_t resident_bytes() const; // bytes of pages held in memory (stored and cached)
  bool spilled() const;               // a temporary file holds some pages
  bool spill_failed() const;          // a file could not be made or written: memory only from then on

private:
  struct State;
  void visit_impl(DescriptionRef ref, void* fn, void (*call)(void*, std::string_view)) const;

  std::unique_ptr<State> m_state;
};

} // namespace skillrt::core
