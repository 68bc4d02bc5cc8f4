#include "core/view/dotenv.hpp"

#include "core/limits.hpp"
#include "core/files/read_file.hpp"

namespace skillrt::core {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

std::string unquote(std::string_view value) {
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')) {
    const char quote = value.front();
    const std::size_t close = value.find(quote, 1);
    if (close != std::string_view::npos) {
      return std::string(value.substr(1, close - 1));
    }
  }
  // An unquoted value ends at a comment introduced by whitespace.
  for (std::size_t i = 1; i < value.size(); ++i) {
    if (value[i] == '#' && (value[i - 1] == ' ' || value[i - 1] == '\t')) {
      return std::string(trim(value.substr(0, i)));
    }
  }
  return std::string(value);
}

} // namespace

std::optional<DotenvAssignment> dotenv_assignment(std::string_view line) {
  line = trim(line);
  if (line.empty() || line.front() == '#') {
    return std::nullopt;
  }
  if (line.substr(0, 7) == "export ") {
    line = trim(line.substr(7));
  }
  const std::size_t eq = line.find('=');
  if (eq == std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view key = trim(line.substr(0, eq));
  if (key.empty()) {
    return std::nullopt;
  }
  return DotenvAssignment{key, trim(line.substr(eq + 1))};
}

std::map<std::string, std::string> parse_dotenv(std::string_view text) {
  std::map<std::string, std::string> values;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    const std::optional<DotenvAssignment> assignment = dotenv_assignment(text.substr(begin, end - begin));
    begin = end + 1;
    if (assignment) {
      values[std::string(assignment->key)] = unquote(assignment->raw_value);
    }
  }
  return values;
}

std::map<std::string, std::string> load_dotenv(const std::filesystem::path& path) {
  auto text = read_regular_file(path, limits::k_max_config_bytes);
  if (!text) {
    return {};
  }
  return parse_dotenv(*text);
}

} // namespace skillrt::core
