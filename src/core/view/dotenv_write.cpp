#include "core/view/dotenv_write.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <set>
#include <string_view>

#include "core/files/atomic_file.hpp"
#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/tenancy/user_home.hpp"
#include "core/view/dotenv.hpp"

namespace skillrt::core {
namespace fs = std::filesystem;
namespace {

// The key a dotenv line assigns ("" for none).
std::string_view assigned_key(std::string_view line) {
  const std::optional<DotenvAssignment> assignment = dotenv_assignment(line);
  return assignment ? assignment->key : std::string_view();
}

std::string quoted(const std::string& value) {
  const char quote = value.find('\'') == std::string::npos ? '\'' : '"';
  return quote + value + quote;
}

}  // namespace

std::vector<fs::path> dotenv_files(const Context& ctx) {
  std::vector<fs::path> files;
  if (auto home = user_home_paths(ctx)) {
    files.push_back(home->root / ".env");
  }
  files.push_back(ctx.home / ".env");
  return files;
}

Result<fs::path> dotenv_file_for_writes(const Context& ctx) {
  if (!ctx.user_id) {
    return ctx.home / ".env";
  }
  auto home = ensure_user_home(ctx);
  if (!home) {
    return tl::unexpected(home.error());
  }
  return home->root / ".env";
}

Result<void> check_storable_secret(const std::string& name, const std::string& value) {
  if (value.find('\n') != std::string::npos || value.find('\r') != std::string::npos) {
    return fail(ErrorCode::invalid_argument, "the value of " + name + " holds a line break; a .env line cannot store it");
  }
  if (value.find('\0') != std::string::npos) {
    return fail(ErrorCode::invalid_argument, "the value of " + name + " holds a NUL byte; a .env line cannot store it");
  }
  if (value.find('\'') != std::string::npos && value.find('"') != std::string::npos) {
    return fail(ErrorCode::invalid_argument,
                "the value of " + name + " holds both kinds of quote; a .env line cannot store it");
  }
  return {};
}

Result<void> store_dotenv_values(const fs::path& file, const std::vector<std::pair<std::string, std::string>>& values,
                                 bool follow_symlink) {
  for (const auto& [name, value] : values) {
    if (auto ok = check_storable_secret(name, value); !ok) {
      return ok;
    }
  }
  struct stat link {};
  const bool exists = ::lstat(file.c_str(), &link) == 0;
  if (exists && S_ISLNK(link.st_mode) && !follow_symlink) {
    return fail(ErrorCode::refused, file.string() + " is a symlink; refusing to write secrets through it");
  }
  std::string text;
  if (exists) {
    auto read = read_regular_file(file, limits::k_max_config_bytes);
    if (!read) {
      return tl::unexpected(read.error());
    }
    text = std::move(*read);
    // Narrowed before the new secrets go in: the rename keeps these bits.
    if (::chmod(file.c_str(), 0600) != 0) {
      return fail(ErrorCode::io_error, "chmod 0600 " + file.string() + ": " + std::strerror(errno));
    }
  }
  std::set<std::string, std::less<>> pending;
  for (const auto& [name, value] : values) {
    pending.insert(name);
  }
  // Which line of each key is its last: that one is replaced in place.
  std::vector<std::string_view> lines;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    end = end == std::string::npos ? text.size() : end + 1;
    lines.push_back(std::string_view(text).substr(begin, end - begin));
    begin = end;
  }
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view key = assigned_key(lines[i]);
    if (key.empty() || pending.count(key) == 0) {
      out += lines[i];
      continue;
    }
    bool last = true;
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      if (assigned_key(lines[j]) == key) {
        last = false;
        break;
      }
    }
    if (!last) {
      continue;  // an earlier assignment parse_dotenv would have overridden anyway
    }
    for (const auto& [name, value] : values) {
      if (name == key) {
        out += name + "=" + quoted(value) + "\n";
      }
    }
  }
  for (const auto& [name, value] : values) {
    bool written = false;
    for (const std::string_view line : lines) {
      if (assigned_key(line) == name) {
        written = true;
        break;
      }
    }
    if (!written) {
      if (!out.empty() && out.back() != '\n') {
        out += '\n';
      }
      out += name + "=" + quoted(value) + "\n";
    }
  }
  if (auto written = write_file_atomic(file, out); !written) {
    return written;
  }
  // A new file is created 0600 already; this covers a symlink's target too.
  if (::chmod(file.c_str(), 0600) != 0) {
    return fail(ErrorCode::io_error, "chmod 0600 " + file.string() + ": " + std::strerror(errno));
  }
  return {};
}

}  // namespace skillrt::core
