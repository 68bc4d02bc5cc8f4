#include "core/util/random_hex.hpp"

#include <sys/random.h>

#include <cerrno>
#include <vector>

namespace skillrt::core {

std::optional<std::string> random_hex(std::size_t bytes) {
  std::vector<unsigned char> drawn(bytes);
  std::size_t filled = 0;
  while (filled < drawn.size()) {
    const ssize_t got = getrandom(drawn.data() + filled, drawn.size() - filled, 0);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      return std::nullopt;
    }
    filled += static_cast<std::size_t>(got);
  }
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes * 2);
  for (const unsigned char byte : drawn) {
    out.push_back(k_hex[byte >> 4]);
    out.push_back(k_hex[byte & 0x0f]);
  }
  return out;
}

}  // namespace skillrt::core
