// Fuzzes secure archive extraction: the input is an archive's bytes, handed
// to the in-memory extractor with a fresh staging folder each run. Whatever
// the input, nothing may appear outside the bundle folder, and the bundle may
// hold only real folders and regular files (no symlink, device, fifo); a
// successful run's counts must match the tree. A crash, a sanitizer report or
// a broken invariant (abort) is a finding. Seeds are small archives made at
// configure time (tests/fuzz/CMakeLists.txt), never committed binaries.
#include <stdlib.h>
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "sources/archive_extract.hpp"

namespace {

namespace fs = std::filesystem;

void check(bool condition) {
  if (!condition) {
    std::abort();
  }
}

class Fixture {
public:
  Fixture() {
    std::string pattern = (fs::temp_directory_path() / "skillrt-archive-fuzz-XXXXXX").string();
    check(::mkdtemp(pattern.data()) != nullptr);
    m_root = fs::canonical(pattern);
  }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;
  ~Fixture() {
    std::error_code ec;
    fs::remove_all(m_root, ec);
  }
  const fs::path& root() const { return m_root; }
  fs::path bundle() const { return m_root / "bundle"; }

private:
  fs::path m_root;
};

Fixture& fixture() {
  static Fixture instance;
  return instance;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Fixture& home = fixture();
  std::error_code ec;
  fs::remove_all(home.bundle(), ec);
  check(fs::create_directory(home.bundle(), ec));

  // Small caps keep each run fast; the rules are the same as the defaults'.
  skillrt::sources::BundleLimits limits;
  limits.max_entries = 256;
  limits.max_bytes = 8 * 1024 * 1024;
  limits.max_file_bytes = 4 * 1024 * 1024;
  auto writer = skillrt::sources::BundleWriter::open(home.bundle(), limits, nullptr, "extract");
  check(writer.has_value());
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto result = skillrt::sources::extract_archive_bytes(bytes, "the fuzz input", *writer);

  // Only the bundle folder exists at the top, and below it only folders and
  // regular files.
  std::size_t top_level = 0;
  for (const auto& entry : fs::directory_iterator(home.root())) {
    check(entry.path() == home.bundle());
    ++top_level;
  }
  check(top_level == 1);
  std::size_t entries = 0;
  std::uint64_t file_bytes = 0;
  for (auto it = fs::recursive_directory_iterator(home.bundle()); it != fs::recursive_directory_iterator(); ++it) {
    const fs::file_status status = it->symlink_status();
    check(fs::is_directory(status) || fs::is_regular_file(status));
    if (fs::is_regular_file(status)) {
      file_bytes += it->file_size();
    }
    ++entries;
  }
  check(entries <= limits.max_entries);
  check(file_bytes <= limits.max_bytes);
  if (result) {
    check(result->entries == entries);
    check(result->bytes == file_bytes);
  }
  return 0;
}
