#include "core/manage/transaction.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "core/limits.hpp"
#include "core/files/atomic_file.hpp"
#include "core/files/read_file.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

constexpr unsigned k_new_file_mode = 0644;

} // namespace

Result<void> FileTransaction::make_parents(const fs::path& path, const fs::path& stop) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path dir = path.parent_path(); !dir.empty() && dir != stop && dir != dir.parent_path();
       dir = dir.parent_path()) {
    if (fs::exists(dir, ec)) {
      break;
    }
    missing.push_back(dir);
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (!fs::create_directory(*it, ec) && ec) {
      return fail(ErrorCode::io_error, "Cannot create folder " + it->string() + ": " + ec.message());
    }
    m_steps.push_back(Step{*it, true, std::nullopt, 0});
  }
  return {};
}

Result<void> FileTransaction::remember(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      m_steps.push_back(Step{path, false, std::nullopt, k_new_file_mode});
      return {};
    }
    return fail(ErrorCode::io_error, "Cannot stat " + path.string() + ": " + std::generic_category().message(errno));
  }
  auto bytes = read_regular_file(path, limits::k_max_skill_file_bytes);
  if (!bytes) {
    return tl::unexpected(bytes.error());
  }
  m_steps.push_back(Step{path, false, std::move(*bytes), static_cast<unsigned>(st.st_mode & 07777)});
  return {};
}

Result<void> FileTransaction::write(const fs::path& path, std::string_view content) {
  if (auto saved = remember(path); !saved) {
    return saved;
  }
  const bool is_new = !m_steps.back().original.has_value();
  if (auto written = write_file_atomic(path, content); !written) {
    m_steps.pop_back(); // nothing changed: the temp file was removed
    return written;
  }
  if (is_new) {
    ::chmod(path.c_str(), k_new_file_mode);
  }
  return {};
}

Result<void> FileTransaction::remove(const fs::path& path) {
  if (auto saved = remember(path); !saved) {
    return saved;
  }
  if (::unlink(path.c_str()) != 0) {
    const int err = errno;
    m_steps.pop_back();
    return fail(ErrorCode::io_error, "Cannot remove " + path.string() + ": " + std::generic_category().message(err));
  }
  return {};
}

std::vector<std::string> FileTransaction::rollback() {
  std::vector<std::string> problems;
  for (auto it = m_steps.rbegin(); it != m_steps.rend(); ++it) {
    std::error_code ec;
    if (it->created_dir) {
      fs::remove(it->path, ec); // only when empty again, as it was created
      if (ec) {
        problems.push_back("cannot remove " + it->path.string() + ": " + ec.message());
      }
    } else if (!it->original) {
      if (::unlink(it->path.c_str()) != 0 && errno != ENOENT) {
        problems.push_back("cannot remove " + it->path.string() + ": " + std::generic_category().message(errno));
      }
    } else if (auto restored = write_file_atomic(it->path, *it->original); !restored) {
      problems.push_back(restored.error().message);
    } else {
      ::chmod(it->path.c_str(), static_cast<mode_t>(it->mode));
    }
  }
  m_steps.clear();
  return problems;
}

} // namespace skillrt::core
