// HOME/.env, the secrets file Hermes consults before the process environment.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

namespace skillrt::core {

// Parses dotenv text: `KEY=VALUE` lines, optional `export ` prefix, `#` comment
// lines, single or double quotes around the value, ` #` comments after an
// unquoted value. Lines without `=` or with an empty key are ignored; a later
// duplicate key wins.
std::map<std::string, std::string> parse_dotenv(std::string_view text);

// Reads and parses `path`; a missing, unreadable or oversized file is empty.
std::map<std::string, std::string> load_dotenv(const std::filesystem::path& path);

} // namespace skillrt::core
