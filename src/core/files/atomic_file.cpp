#include "core/files/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "core/files/fsync_dir.hpp"
#include "core/util/text.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

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

Result<AtomicFileWriter> AtomicFileWriter::open(const fs::path& path) {
  fs::path target = path;
  std::error_code ec;
  if (fs::is_symlink(target, ec)) {
    fs::path resolved = fs::weakly_canonical(target, ec);
    if (ec) {
      return fail(ErrorCode::io_error, "cannot resolve symlink " + target.string() + ": " + ec.message());
    }
    target = resolved;
  }
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();

  mode_t mode = 0600;
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      return fail(ErrorCode::invalid_argument, target.string() + " exists and is not a regular file");
    }
    mode = st.st_mode & 07777;
  }

  std::string temp = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  files::UniqueFd fd(::mkostemp(temp.data(), O_CLOEXEC));
  if (!fd) {
    return fail(ErrorCode::io_error, "cannot create a temporary file in " + dir.string() + ": " + errno_text(errno));
  }
  const int raw_fd = fd.get();
  AtomicFileWriter writer(std::move(target), std::move(temp), std::move(fd));
  if (::fchmod(raw_fd, mode) != 0) {
    return fail(ErrorCode::io_error, "cannot set permissions on " + writer.m_temp + ": " + errno_text(errno));
  }
  return writer;
}

AtomicFileWriter::AtomicFileWriter(fs::path target, std::string temp, files::UniqueFd fd)
    : m_target(std::move(target)), m_temp(std::move(temp)), m_fd(std::move(fd)) {}

AtomicFileWriter::AtomicFileWriter(AtomicFileWriter&& other) noexcept
    : m_target(std::move(other.m_target)), m_temp(std::move(other.m_temp)), m_fd(std::move(other.m_fd)) {
  other.m_temp.clear();
}

AtomicFileWriter::~AtomicFileWriter() { discard(); }

void AtomicFileWriter::discard() {
  m_fd.reset();
  if (!m_temp.empty()) {
    ::unlink(m_temp.c_str());
    m_temp.clear();
  }
}

Result<void> AtomicFileWriter::append(std::string_view bytes) {
  if (!m_fd) {
    return fail(ErrorCode::internal, "write to a closed atomic file");
  }
  return write_all(m_fd.get(), bytes, m_temp);
}

Result<void> AtomicFileWriter::commit() {
  if (!m_fd) {
    return fail(ErrorCode::internal, "commit of a closed atomic file");
  }
  if (::fsync(m_fd.get()) != 0) {
    return fail(ErrorCode::io_error, "cannot fsync " + m_temp + ": " + errno_text(errno));
  }
  if (m_fd.close() != 0) {
    return fail(ErrorCode::io_error, "cannot close " + m_temp + ": " + errno_text(errno));
  }
  if (::rename(m_temp.c_str(), m_target.c_str()) != 0) {
    return fail(ErrorCode::io_error,
                "cannot rename " + m_temp + " to " + m_target.string() + ": " + errno_text(errno));
  }
  m_temp.clear();
  // Make the rename itself durable (best effort: the new content is in place).
  (void)files::fsync_dir(m_target.parent_path());
  return {};
}

Result<void> write_file_atomic(const fs::path& path, std::string_view content) {
  auto writer = AtomicFileWriter::open(path);
  if (!writer) {
    return tl::unexpected(writer.error());
  }
  if (auto appended = writer->append(content); !appended) {
    return appended;
  }
  return writer->commit();
}

}  // namespace skillrt::core
