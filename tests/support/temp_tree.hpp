// A real temporary directory tree for tests, removed when the test ends
// (shared by the unit tests of several modules: tests/support/).
#pragma once

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace skillrt::test {

class TempTree {
public:
  TempTree() {
    std::string pattern = (std::filesystem::temp_directory_path() / "skillrt-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("mkdtemp failed");
    }
    m_root = std::filesystem::canonical(pattern);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;
  ~TempTree() {
    std::error_code ec;
    std::filesystem::remove_all(m_root, ec);
  }

  const std::filesystem::path& path() const { return m_root; }

  // Writes `content` to root/rel (parents created) and returns the absolute path.
  std::filesystem::path write(const std::filesystem::path& rel, std::string_view content) const {
    const std::filesystem::path target = m_root / rel;
    std::filesystem::create_directories(target.parent_path());
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    return target;
  }

  std::filesystem::path mkdir(const std::filesystem::path& rel) const {
    const std::filesystem::path target = m_root / rel;
    std::filesystem::create_directories(target);
    return target;
  }

  void symlink(const std::filesystem::path& target, const std::filesystem::path& rel) const {
    std::filesystem::create_directories((m_root / rel).parent_path());
    std::filesystem::create_symlink(target, m_root / rel);
  }

  void chmod(const std::filesystem::path& rel, mode_t mode) const { ::chmod((m_root / rel).c_str(), mode); }

private:
  std::filesystem::path m_root;
};

} // namespace skillrt::test
