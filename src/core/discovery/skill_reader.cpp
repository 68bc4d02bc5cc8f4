#include "core/discovery/skill_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "core/discovery/activation_fields.hpp"
#include "core/discovery/gates.hpp"
#include "core/files/unique_fd.hpp"
#include "core/limits.hpp"
#include "core/util/text.hpp"
#include "core/yaml/frontmatter.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {

namespace {

constexpr std::size_t k_read_chunk = 16 * 1024;

// Appends up to `want` bytes from fd to buffer. Returns 0 or an errno value.
int read_more(int fd, std::string& buffer, std::size_t want, bool& eof) {
  std::size_t old_size = buffer.size();
  buffer.resize(old_size + want);
  std::size_t filled = old_size;
  while (filled < buffer.size()) {
    ssize_t got = ::read(fd, buffer.data() + filled, buffer.size() - filled);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      int err = errno;
      buffer.resize(filled);
      return err;
    }
    if (got == 0) {
      eof = true;
      break;
    }
    filled += static_cast<std::size_t>(got);
  }
  buffer.resize(filled);
  return 0;
}

// True when `tail` is the start of a multi-byte sequence cut off by the read window.
bool is_cut_sequence(std::string_view tail) {
  if (tail.empty()) {
    return false;
  }
  auto lead = static_cast<unsigned char>(tail[0]);
  std::size_t expected = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    expected = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    expected = 3;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    expected = 4;
  } else {
    return false;
  }
  if (tail.size() >= expected) {
    return false;
  }
  return std::all_of(tail.begin() + 1, tail.end(),
                     [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; });
}

// Finds the first body line that is not blank and not a heading, scanning
// `text` from `*pos`. Only complete lines are considered unless `eof`; `*pos`
// is left at the first line not yet examined.
std::optional<std::string_view> first_text_line(std::string_view text, std::size_t* pos, bool eof) {
  while (*pos < text.size()) {
    std::size_t end = text.find('\n', *pos);
    if (end == std::string_view::npos) {
      if (!eof) {
        return std::nullopt;
      }
      end = text.size();
    }
    std::string_view line = trim_ascii_space(text.substr(*pos, end - *pos));
    *pos = end + 1;
    if (!line.empty() && line.front() != '#') {
      return line;
    }
  }
  return std::nullopt;
}

std::string body_description(int fd, std::string& buffer, std::size_t bom, std::size_t body_start, std::size_t valid_end,
                             bool eof) {
  std::size_t pos = body_start;
  // Lines inside the validated part come out as they are; anything read later
  // is sanitised rather than rejected (it is only a fallback description).
  while (true) {
    std::string_view text(buffer.data() + bom, buffer.size() - bom);
    if (std::optional<std::string_view> line = first_text_line(text, &pos, eof)) {
      std::size_t line_end = static_cast<std::size_t>(line->data() - text.data()) + line->size();
      if (line_end <= valid_end) {
        return std::string(*line);
      }
      return sanitize_utf8(*line);
    }
    if (eof || buffer.size() >= limits::k_listing_body_scan_bytes) {
      return {};
    }
    if (read_more(fd, buffer, k_read_chunk, eof) != 0) {
      return {};
    }
  }
}

}  // namespace

bool read_listing_fields(const std::string& path, std::string& buffer, ListingFields& fields, ListingFailure& failure) {
  const files::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) {
    failure = {SkipReason::unreadable, "cannot open: " + errno_text(errno)};
    return false;
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    failure = {SkipReason::unreadable, "cannot stat: " + errno_text(errno)};
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    failure = {SkipReason::special_file, "not a regular file"};
    return false;
  }

  buffer.clear();
  bool eof = false;
  if (int err = read_more(fd.get(), buffer, limits::k_listing_read_window, eof); err != 0) {
    failure = {SkipReason::unreadable, "read failed: " + errno_text(err)};
    return false;
  }
  std::size_t bom = buffer.size() - strip_bom(buffer).size();

  // Extend the window to the closing fence (Hermes would cut the frontmatter
  // at 4000 characters and lose it; we read on, bounded).
  while (!eof) {
    std::string_view text(buffer.data() + bom, buffer.size() - bom);
    if (!text.starts_with("---")) {
      break;
    }
    std::optional<FenceSpan> span = find_fences(text);
    if (span && span->body_begin < text.size()) {
      break;
    }
    if (buffer.size() >= limits::k_max_frontmatter_bytes) {
      failure = {SkipReason::too_large,
                 "frontmatter not closed within " + std::to_string(limits::k_max_frontmatter_bytes) + " bytes"};
      return false;
    }
    std::size_t want = std::min(k_read_chunk, limits::k_max_frontmatter_bytes - buffer.size());
    if (int err = read_more(fd.get(), buffer, want, eof); err != 0) {
      failure = {SkipReason::unreadable, "read failed: " + errno_text(err)};
      return false;
    }
  }

  std::string_view text(buffer.data() + bom, buffer.size() - bom);
  if (std::optional<std::size_t> bad = find_invalid_utf8(text)) {
    if (!eof && is_cut_sequence(text.substr(*bad))) {
      text = text.substr(0, *bad);
    } else {
      failure = {SkipReason::not_utf8, "invalid UTF-8 at byte " + std::to_string(*bad + bom)};
      return false;
    }
  }

  Frontmatter fm = parse_frontmatter(text);
  if (fm.yaml_error) {
    fields.yaml_problem = fm.yaml_error->message;
  }
  const YamlNode* name = fm.fields.get("name");
  fields.frontmatter_name = (name != nullptr && name->truthy()) ? name->to_string() : std::string();
  fields.platforms = gate_tags(fm.fields.get("platforms"));
  fields.environments = gate_tags(fm.fields.get("environments"));
  fields.triggers = trigger_items(fm.fields.get("triggers"));
  fields.paths = path_glob_items(fm.fields.get("paths"));
  const YamlNode* description = fm.fields.get("description");
  if (description != nullptr && description->truthy()) {
    fields.description = description->to_string();
  } else {
    // `fm` and `text` point into buffer, which may grow below: keep offsets only.
    std::size_t body_start = fm.fenced ? fm.body_offset : 0;
    fields.description = body_description(fd.get(), buffer, bom, body_start, text.size(), eof);
  }
  return true;
}

}  // namespace skillrt::core
