#include "core/files/read_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "core/files/unique_fd.hpp"

namespace skillrt::core {

Result<std::string> read_regular_file(const std::filesystem::path& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  files::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (!fd) {
    int err = errno;
    if (err == ENOENT || err == ENOTDIR) {
      return fail(ErrorCode::not_found, path.string() + " does not exist");
    }
    return fail(ErrorCode::io_error, "cannot open " + path.string() + ": " + std::generic_category().message(err));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return fail(ErrorCode::io_error, "cannot stat " + path.string() + ": " + std::generic_category().message(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return fail(ErrorCode::invalid_argument, path.string() + " is not a regular file");
  }
  if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
    return fail(ErrorCode::limit_exceeded, path.string() + " is " + std::to_string(st.st_size) +
                                               " bytes; the limit is " + std::to_string(max_bytes));
  }
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return fail(ErrorCode::io_error, "cannot read " + path.string() + ": " + std::generic_category().message(errno));
    }
    if (n == 0) {
      break;
    }
    // The file may grow between fstat and read: the limit holds regardless.
    if (out.size() + static_cast<std::size_t>(n) > max_bytes) {
      return fail(ErrorCode::limit_exceeded,
                  path.string() + " grew beyond the limit of " + std::to_string(max_bytes) + " bytes");
    }
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace skillrt::core
