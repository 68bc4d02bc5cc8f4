// HOME/.env, the secrets file Hermes consults before the process environment.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace skillrt::core {

// Parses dotenv text: `KEY=VALUE` lines, optional `export ` prefix, `#` comment
// lines, single or double quotes around the value, ` #` comments after an
// unquoted value. Lines without `=` or with an empty key are ignored; a later
// duplicate key wins.
std::map<std::string, std::string> parse_dotenv(std::string_view text);

// What one dotenv line assigns, as parse_dotenv reads it: the key, and the
// value's text after '=' (trimmed, quotes not yet removed); nullopt for a
// blank, comment or malformed line. Views into `line`.
struct DotenvAssignment {
  std::string_view key;
  std::string_view raw_value;
};
std::optional<DotenvAssignment> dotenv_assignment(std::string_view line);

// Reads and parses `path`; a missing, unreadable or oversized file is empty.
std::map<std::string, std::string> load_dotenv(const std::filesystem::path& path);

} // namespace skillrt::core
