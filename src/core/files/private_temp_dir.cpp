#include "core/files/private_temp_dir.hpp"

#include <stdlib.h>

#include <cerrno>
#include <string>
#include <system_error>

namespace skillrt::core {

namespace fs = std::filesystem;

Result<PrivateTempDir> PrivateTempDir::create(std::string_view prefix) {
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  if (ec) {
    return fail(ErrorCode::io_error, "no temporary folder: " + ec.message());
  }
  std::string pattern = (base / (std::string(prefix) + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {  // mkdtemp makes it 0700
    return fail(ErrorCode::io_error,
                "cannot create a temporary folder in " + base.string() + ": " + std::generic_category().message(errno));
  }
  return PrivateTempDir(fs::path(pattern));
}

PrivateTempDir::PrivateTempDir(PrivateTempDir&& other) noexcept : m_path(std::move(other.m_path)) {
  other.m_path.clear();
}

PrivateTempDir::~PrivateTempDir() {
  if (!m_path.empty()) {
    std::error_code ec;
    fs::remove_all(m_path, ec);
  }
}

}  // namespace skillrt::core
