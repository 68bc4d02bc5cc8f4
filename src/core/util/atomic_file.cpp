#include "core/util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

std::string errno_text(int err) { return std::generic_category().message(err); }

// Closes a descriptor on scope exit unless released.
class Fd {
 public:
  explicit Fd(int fd) : m_fd(fd) {}
  ~Fd() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return m_fd; }
  int release() {
    int fd = m_fd;
    m_fd = -1;
    return fd;
  }

 private:
  int m_fd;
};

// Removes the temporary file on scope exit unless the rename happened.
class TempGuard {
 public:
  explicit TempGuard(std::string path) : m_path(std::move(path)) {}
  ~TempGuard() {
    if (!m_path.empty()) {
      ::unlink(m_path.c_str());
    }
  }
  TempGuard(const TempGuard&) = delete;
  TempGuard& operator=(const TempGuard&) = delete;
  void dismiss() { m_path.clear(); }

 private:
  std::string m_path;
};

Result<void> write_all(int fd, std::string_view content, const std::string& what) {
  while (!content.empty()) {
    ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return fail(ErrorCode::io_error, "cannot write " + what + ": " + errno_text(errno));
    }
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

}  // namespace

Result<void> write_file_atomic(const fs::path& path, std::string_view content) {
  fs::path target = path;
  std::error_code ec;
  if (fs::is_symlink(target, ec)) {
    fs::path resolved = fs::weakly_canonical(target, ec);
    if (ec) {
      return fail(ErrorCode::io_error, "cannot resolve symlink " + target.string() + ": " + ec.message());
    }
    target = resolved;
  }
  fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();

  mode_t mode = 0600;
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      return fail(ErrorCode::invalid_argument, target.string() + " exists and is not a regular file");
    }
    mode = st.st_mode & 07777;
  }

  std::string temp = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  Fd fd(::mkostemp(temp.data(), O_CLOEXEC));
  if (fd.get() < 0) {
    return fail(ErrorCode::io_error, "cannot create a temporary file in " + dir.string() + ": " + errno_text(errno));
  }
  TempGuard guard(temp);
  if (::fchmod(fd.get(), mode) != 0) {
    return fail(ErrorCode::io_error, "cannot set permissions on " + temp + ": " + errno_text(errno));
  }
  if (auto written = write_all(fd.get(), content, temp); !written) {
    return written;
  }
  if (::fsync(fd.get()) != 0) {
    return fail(ErrorCode::io_error, "cannot fsync " + temp + ": " + errno_text(errno));
  }
  if (::close(fd.release()) != 0) {
    return fail(ErrorCode::io_error, "cannot close " + temp + ": " + errno_text(errno));
  }
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    return fail(ErrorCode::io_error, "cannot rename " + temp + " to " + target.string() + ": " + errno_text(errno));
  }
  guard.dismiss();
  // Make the rename itself durable.
  Fd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir_fd.get() >= 0) {
    ::fsync(dir_fd.get());
  }
  return {};
}

}  // namespace skillrt::core
