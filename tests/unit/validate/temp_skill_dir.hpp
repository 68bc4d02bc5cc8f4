// A temporary directory for validate tests, removed with everything in it.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace skillrt::test {

class TempSkillDir {
public:
  TempSkillDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "skillrt-validate-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("mkdtemp failed");
    }
    m_root = pattern;
  }
  ~TempSkillDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_root, ec);
  }
  TempSkillDir(const TempSkillDir&) = delete;
  TempSkillDir& operator=(const TempSkillDir&) = delete;

  const std::filesystem::path& root() const { return m_root; }

  // Writes `content` to root/relative (parents created) and returns the file's path.
  std::filesystem::path write(const std::string& relative, std::string_view content) const {
    std::filesystem::path file = m_root / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) {
      throw std::runtime_error("cannot write " + file.string());
    }
    return file;
  }

  // Writes root/dir/SKILL.md and returns the skill directory.
  std::filesystem::path skill(const std::string& dir, std::string_view content) const {
    write(dir + "/SKILL.md", content);
    return m_root / dir;
  }

private:
  std::filesystem::path m_root;
};

} // namespace skillrt::test
