#include "core/prompt/frontmatter_prefix.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/files/unique_fd.hpp"
#include "core/limits.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {

std::optional<Frontmatter> read_frontmatter_prefix(const std::string& path) {
  // O_NONBLOCK: opening a FIFO planted as SKILL.md must not hang us.
  const files::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd) {
    return std::nullopt;
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return std::nullopt;
  }
  // The fence search needs the text past the closing fence's newline.
  std::string buffer(limits::k_max_frontmatter_bytes + 8, '\0');
  std::size_t used = 0;
  while (used < buffer.size()) {
    const ssize_t n = ::read(fd.get(), buffer.data() + used, buffer.size() - used);
    if (n <= 0) {
      break;
    }
    used += static_cast<std::size_t>(n);
  }
  buffer.resize(used);
  const std::string text = sanitize_utf8(strip_bom(buffer));
  return parse_frontmatter(text);
}

} // namespace skillrt::core
