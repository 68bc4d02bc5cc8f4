// The bundled manifest: reading, formatting and the atomic write (see bundled_manifest.hpp).
#include "core/sync/bundled_manifest.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <system_error>

#include "core/limits.hpp"
#include "core/files/atomic_file.hpp"
#include "core/files/read_file.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

std::string_view strip(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_blank(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

bool has_control(std::string_view text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      return true;
    }
  }
  return false;
}

} // namespace

fs::path bundled_manifest_path(const Context& ctx) {
  return ctx.skills_dir() / ".bundled_manifest";
}

BundledManifest parse_bundled_manifest(std::string_view text) {
  BundledManifest manifest;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = strip(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line.empty()) {
      continue;
    }
    const std::size_t colon = line.find(':');
    const std::string_view name = strip(line.substr(0, colon));
    const std::string_view hash = colon == std::string_view::npos ? std::string_view() : strip(line.substr(colon + 1));
    if (name.empty()) {
      continue;
    }
    manifest[std::string(name)] = std::string(hash);
  }
  return manifest;
}

std::string format_bundled_manifest(const BundledManifest& manifest) {
  std::string text;
  for (const auto& [name, hash] : manifest) {
    text += name;
    text += ':';
    text += hash;
    text += '\n';
  }
  return text;
}

bool is_manifest_safe_name(std::string_view name) {
  return !name.empty() && name == strip(name) && name.find(':') == std::string_view::npos && !has_control(name);
}

Result<BundledManifest> read_bundled_manifest(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      return BundledManifest{};
    }
    return fail(ErrorCode::io_error,
                "cannot read the bundled manifest " + path.string() + ": " + std::generic_category().message(errno));
  }
  if (S_ISLNK(st.st_mode)) {
    // A planted link could make our next atomic write land anywhere.
    return fail(ErrorCode::invalid_argument,
                "the bundled manifest " + path.string() + " is a symlink; remove it and run skillrt sync again");
  }
  auto text = read_regular_file(path, limits::k_max_hub_state_bytes);
  if (!text) {
    if (text.error().code == ErrorCode::limit_exceeded) {
      return fail(ErrorCode::limit_exceeded, "the bundled manifest " + path.string() + " is larger than " +
                                                 std::to_string(limits::k_max_hub_state_bytes) +
                                                 " bytes (limits::k_max_hub_state_bytes): refusing it as corrupt");
    }
    return fail(text.error().code, "cannot read the bundled manifest " + path.string() + ": " + text.error().message);
  }
  if (text->find('\0') != std::string::npos || find_invalid_utf8(*text)) {
    return fail(ErrorCode::invalid_argument,
                "the bundled manifest " + path.string() +
                    " is not UTF-8 text: refusing it as corrupt (move it aside to start over; every existing copy "
                    "then counts as your own)");
  }
  return parse_bundled_manifest(*text);
}

Result<void> write_bundled_manifest(const fs::path& path, const BundledManifest& manifest) {
  for (const auto& [name, hash] : manifest) {
    if (!is_manifest_safe_name(name)) {
      return fail(ErrorCode::invalid_argument, "cannot record the skill name \"" + name +
                                                   "\" in the bundled manifest: it is empty, has a ':' or a "
                                                   "control character, or surrounding blanks");
    }
    if (has_control(hash) || hash != strip(hash)) {
      return fail(ErrorCode::invalid_argument, "cannot record the hash of \"" + name + "\" in the bundled manifest");
    }
  }
  const std::string text = format_bundled_manifest(manifest);
  if (text.size() > limits::k_max_hub_state_bytes) {
    return fail(ErrorCode::limit_exceeded, "the bundled manifest would be larger than " +
                                               std::to_string(limits::k_max_hub_state_bytes) +
                                               " bytes (limits::k_max_hub_state_bytes)");
  }
  if (auto written = write_file_atomic(path, text); !written) {
    return fail(written.error().code,
                "cannot write the bundled manifest " + path.string() + ": " + written.error().message);
  }
  return {};
}

} // namespace skillrt::core::sync
