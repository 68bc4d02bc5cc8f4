// fsync of a folder (see fsync_dir.hpp).
#include "core/files/fsync_dir.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "core/files/unique_fd.hpp"
#include "core/util/text.hpp"

namespace skillrt::core::files {

Result<void> fsync_dir(const std::filesystem::path& dir) {
  const UniqueFd fd(::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd) {
    return fail(ErrorCode::io_error, "cannot open the folder " + dir.string() + " to sync it: " + errno_text(errno));
  }
  if (::fsync(fd.get()) != 0) {
    return fail(ErrorCode::io_error, "cannot sync the folder " + dir.string() + ": " + errno_text(errno));
  }
  return {};
}

} // namespace skillrt::core::files
