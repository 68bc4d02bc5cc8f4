// The one owning file descriptor: move-only, closed when it goes out of scope.
// Everything that opens a descriptor (openat walks, locks, inotify, pipes)
// holds it in a UniqueFd, so no error path can leak one.
#pragma once

#include <unistd.h>

#include <utility>

namespace skillrt::core::files {

class UniqueFd {
public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : m_fd(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset(std::exchange(other.m_fd, -1));
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return m_fd; }
  bool valid() const { return m_fd >= 0; }
  explicit operator bool() const { return valid(); }
  // Gives up ownership without closing.
  int release() { return std::exchange(m_fd, -1); }
  void reset(int fd = -1) {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
    m_fd = fd;
  }
  // Closes now and reports close(2)'s result (0, or -1 with errno), for
  // writers that must know their data reached the file.
  int close() { return m_fd >= 0 ? ::close(std::exchange(m_fd, -1)) : 0; }

private:
  int m_fd = -1;
};

} // namespace skillrt::core::files
