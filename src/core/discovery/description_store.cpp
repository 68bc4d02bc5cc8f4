#include "core/discovery/description_store.hpp"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

#include "core/files/read_at.hpp"
#include "core/files/unique_fd.hpp"

namespace skillrt::core {

namespace {

constexpr std::size_t k_no_page = static_cast<std::size_t>(-1);

// An unlinked file in `dir` for this process alone: O_TMPFILE where the file
// system has it, else a named file removed at once. Invalid when neither works.
files::UniqueFd open_unlinked_file(const std::filesystem::path& dir) {
  files::UniqueFd fd(::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
  if (fd) {
    return fd;
  }
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
    return fd; // no directory, or not writable: the named route would fail too
  }
  std::string name = (dir / ".skillrt-descriptions-XXXXXX").native();
  fd.reset(::mkostemp(name.data(), O_CLOEXEC));
  if (fd && ::unlink(name.c_str()) != 0) {
    fd.reset(); // it would outlive the process: do without
  }
  return fd;
}

} // namespace

struct DescriptionStore::State {
  // A page of the logical stream: in memory, or (memory == nullptr) in the file.
  struct Page {
    std::unique_ptr<char[]> memory;
    std::uint64_t file_offset = 0;
  };
  // A file page read back.
  struct Slot {
    std::size_t page = k_no_page;
    std::unique_ptr<char[]> data;
  };

  explicit State(Options opts) : options(std::move(opts)) {
    options.page_size = std::max<std::size_t>(options.page_size, 1);
    options.cached_pages = std::max<std::size_t>(options.cached_pages, 1);
    options.pages_per_write = std::max<std::size_t>(options.pages_per_write, 1);
    kept_pages = (options.memory_budget + options.page_size - 1) / options.page_size;
    next_to_write = kept_pages;
  }
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  void append(std::string_view text);
  void page_filled();
  void write_pending();
  const char* page_bytes(std::size_t index);
  void visit(DescriptionRef ref, void* fn, void (*call)(void*, std::string_view));

  Options options;
  std::mutex mutex; // reads fill the page cache below: a const catalog stays safe to share
  std::vector<Page> pages;
  std::uint64_t size = 0;
  std::size_t kept_pages = 0;    // pages [0, kept_pages) never leave memory
  std::size_t next_to_write = 0; // first full page not yet in the file
  files::UniqueFd fd;
  bool failed = false; // no file could be made or written: memory only
  std::uint64_t file_size = 0;
  std::vector<Slot> slots; // file pages read back, by page index modulo their count
  std::string scratch;     // a description that spans pages
};

void DescriptionStore::State::append(std::string_view text) {
  const std::size_t page_size = options.page_size;
  while (!text.empty()) {
    const auto pos = static_cast<std::size_t>(size % page_size);
    if (pos == 0) {
      pages.push_back(Page{std::make_unique_for_overwrite<char[]>(page_size), 0});
    }
    const std::size_t n = std::min(page_size - pos, text.size());
    std::memcpy(pages.back().memory.get() + pos, text.data(), n);
    size += n;
    text.remove_prefix(n);
    if (size % page_size == 0) {
      page_filled();
    }
  }
}

void DescriptionStore::State::page_filled() {
  if (failed || pages.size() < next_to_write + options.pages_per_write) {
    return;
  }
  write_pending();
}

// Writes every full page from next_to_write on with one writev (a short write
// continues where it stopped) and frees their memory. Pages a failed write
// did not complete stay in memory, and so does everything after them.
void DescriptionStore::State::write_pending() {
  if (!fd) {
    for (const std::filesystem::path& dir : options.spill_dirs) {
      fd = open_unlinked_file(dir);
      if (fd) {
        break;
      }
    }
    if (!fd) {
      failed = true;
      return;
    }
  }
  const std::size_t page_size = options.page_size;
  const std::size_t first = next_to_write;
  const std::size_t count = pages.size() - first;
  const std::size_t total = count * page_size;
  std::vector<iovec> iov(count);
  std::size_t done = 0;
  while (done < total) {
    const std::size_t skip_pages = done / page_size;
    const std::size_t skip_bytes = done % page_size;
    const std::size_t left = count - skip_pages;
    for (std::size_t i = 0; i < left; ++i) {
      iov[i].iov_base = pages[first + skip_pages + i].memory.get() + (i == 0 ? skip_bytes : 0);
      iov[i].iov_len = page_size - (i == 0 ? skip_bytes : 0);
    }
    const ssize_t n = ::writev(fd.get(), iov.data(), static_cast<int>(std::min<std::size_t>(left, IOV_MAX)));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      failed = true;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  const std::size_t written = done / page_size;
  for (std::size_t i = 0; i < written; ++i) {
    Page& page = pages[first + i];
    page.file_offset = file_size;
    page.memory.reset();
    file_size += page_size;
  }
  // After a partial page the file holds bytes no page points to: harmless,
  // nothing is written there again.
  next_to_write = first + written;
}

const char* DescriptionStore::State::page_bytes(std::size_t index) {
  const Page& page = pages[index];
  if (page.memory) {
    return page.memory.get();
  }
  if (slots.empty()) {
    slots.resize(options.cached_pages);
  }
  Slot& slot = slots[index % slots.size()];
  if (slot.page == index) {
    return slot.data.get();
  }
  if (!slot.data) {
    slot.data = std::make_unique_for_overwrite<char[]>(options.page_size);
  }
  if (!files::read_exactly_at(fd.get(), page.file_offset, slot.data.get(), options.page_size)) {
    slot.page = k_no_page;
    return nullptr;
  }
  slot.page = index;
  return slot.data.get();
}

void DescriptionStore::State::visit(DescriptionRef ref, void* fn, void (*call)(void*, std::string_view)) {
  if (ref.size == 0 || ref.offset > size || ref.size > size - ref.offset) {
    call(fn, std::string_view());
    return;
  }
  const std::size_t page_size = options.page_size;
  const auto first = static_cast<std::size_t>(ref.offset / page_size);
  const auto last = static_cast<std::size_t>((ref.offset + ref.size - 1) / page_size);
  const auto start = static_cast<std::size_t>(ref.offset % page_size);
  if (first == last) {
    const char* bytes = page_bytes(first);
    call(fn, bytes != nullptr ? std::string_view(bytes + start, ref.size) : std::string_view());
    return;
  }
  // Across pages: each page's part is copied before the next page is read,
  // as both may need the same cache slot.
  scratch.clear();
  std::size_t from = start;
  for (std::size_t index = first; index <= last; ++index) {
    const char* bytes = page_bytes(index);
    if (bytes == nullptr) {
      scratch.clear();
      break;
    }
    const std::size_t n = std::min(page_size - from, ref.size - scratch.size());
    scratch.append(bytes + from, n);
    from = 0;
  }
  call(fn, scratch);
}

DescriptionStore::DescriptionStore() : DescriptionStore(Options{}) {}

DescriptionStore::DescriptionStore(Options options) : m_state(std::make_unique<State>(std::move(options))) {}

DescriptionStore::DescriptionStore(DescriptionStore&&) noexcept = default;
DescriptionStore& DescriptionStore::operator=(DescriptionStore&&) noexcept = default;
DescriptionStore::~DescriptionStore() = default;

DescriptionRef DescriptionStore::append(std::string_view text) {
  if (!m_state) {
    m_state = std::make_unique<State>(Options{}); // a moved-from store starts over
  }
  const std::lock_guard lock(m_state->mutex);
  const DescriptionRef ref{m_state->size, static_cast<std::uint32_t>(text.size())};
  m_state->append(text.substr(0, ref.size));
  return ref;
}

std::string DescriptionStore::get(DescriptionRef ref) const {
  std::string out;
  visit(ref, [&out](std::string_view text) { out.assign(text); });
  return out;
}

void DescriptionStore::visit_impl(DescriptionRef ref, void* fn, void (*call)(void*, std::string_view)) const {
  if (!m_state) {
    call(fn, std::string_view());
    return;
  }
  const std::lock_guard lock(m_state->mutex);
  m_state->visit(ref, fn, call);
}

std::size_t DescriptionStore::size() const {
  if (!m_state) {
    return 0;
  }
  const std::lock_guard lock(m_state->mutex);
  return static_cast<std::size_t>(m_state->size);
}

std::size_t DescriptionStore::resident_bytes() const {
  if (!m_state) {
    return 0;
  }
  const std::lock_guard lock(m_state->mutex);
  std::size_t pages = 0;
  for (const State::Page& page : m_state->pages) {
    pages += page.memory ? 1 : 0;
  }
  for (const State::Slot& slot : m_state->slots) {
    pages += slot.data ? 1 : 0;
  }
  return pages * m_state->options.page_size;
}

bool DescriptionStore::spilled() const {
  if (!m_state) {
    return false;
  }
  const std::lock_guard lock(m_state->mutex);
  return m_state->file_size > 0;
}

bool DescriptionStore::spill_failed() const {
  if (!m_state) {
    return false;
  }
  const std::lock_guard lock(m_state->mutex);
  return m_state->failed;
}

} // namespace skillrt::core
