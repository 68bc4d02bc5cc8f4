// A private (0700) temporary folder under $TMPDIR, removed with everything in
// it when the object goes away.
#pragma once

#include <filesystem>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core {

class PrivateTempDir {
 public:
  // Creates `<temp dir>/<prefix>-XXXXXX`.
  static Result<PrivateTempDir> create(std::string_view prefix);

  PrivateTempDir(PrivateTempDir&& other) noexcept;
  PrivateTempDir& operator=(PrivateTempDir&&) = delete;
  PrivateTempDir(const PrivateTempDir&) = delete;
  PrivateTempDir& operator=(const PrivateTempDir&) = delete;
  ~PrivateTempDir();

  const std::filesystem::path& path() const { return m_path; }

 private:
  explicit PrivateTempDir(std::filesystem::path path) : m_path(std::move(path)) {}
  std::filesystem::path m_path;  // empty once moved from
};

}  // namespace skillrt::core
