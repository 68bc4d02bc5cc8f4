#include "core/commands/arguments.hpp"

#include <charconv>

namespace skillrt::core {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_space(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

// Digits at `pos` as an index; npos-like max when too large. `length` gets their count.
std::size_t read_index(std::string_view text, std::size_t pos, std::size_t& length) {
  length = 0;
  while (pos + length < text.size() && is_digit(text[pos + length])) {
    ++length;
  }
  std::size_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data() + pos, text.data() + pos + length, value);
  (void)ptr;
  return ec == std::errc() ? value : static_cast<std::size_t>(-1);
}

} // namespace

std::vector<std::string> split_arguments(std::string_view instruction) {
  std::vector<std::string> out;
  std::string current;
  bool in_word = false;
  char quote = '\0';
  for (std::size_t i = 0; i < instruction.size(); ++i) {
    const char c = instruction[i];
    if (quote != '\0') {
      if (c == quote) {
        quote = '\0';
      } else if (c == '\\' && quote == '"' && i + 1 < instruction.size() &&
                 (instruction[i + 1] == '"' || instruction[i + 1] == '\\')) {
        current += instruction[++i];
      } else {
        current += c;
      }
      continue;
    }
    if (is_space(c)) {
      if (in_word) {
        out.push_back(std::move(current));
        current.clear();
        in_word = false;
      }
      continue;
    }
    in_word = true;
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '\\' && i + 1 < instruction.size()) {
      current += instruction[++i];
    } else {
      current += c;
    }
  }
  if (in_word) {
    out.push_back(std::move(current));
  }
  return out;
}

ArgumentSubstitution substitute_arguments(std::string_view body, std::string_view instruction) {
  static constexpr std::string_view k_arguments = "ARGUMENTS";
  ArgumentSubstitution out;
  if (body.find('$') == std::string_view::npos) {
    out.text = std::string(body);
    return out;
  }
  const std::string_view whole = trim(instruction);
  const std::vector<std::string> args = split_arguments(whole);
  out.text.reserve(body.size() + whole.size());
  for (std::size_t i = 0; i < body.size();) {
    if (body[i] != '$' || i + 1 >= body.size()) {
      out.text += body[i++];
      continue;
    }
    if (body[i + 1] == '$') {
      out.text.append("$$");
      i += 2;
      continue;
    }
    if (body.substr(i + 1, k_arguments.size()) == k_arguments) {
      const std::size_t after = i + 1 + k_arguments.size();
      // $ARGUMENTS[N]
      if (after < body.size() && body[after] == '[') {
        std::size_t digits = 0;
        const std::size_t index = read_index(body, after + 1, digits);
        const std::size_t close = after + 1 + digits;
        if (digits > 0 && close < body.size() && body[close] == ']') {
          if (index < args.size()) {
            out.text += args[index];
          } else {
            out.text.append(body.substr(i, close + 1 - i));
          }
          i = close + 1;
          continue;
        }
      }
      out.text.append(whole);
      out.used_arguments = true;
      i = after;
      continue;
    }
    if (is_digit(body[i + 1])) {
      std::size_t digits = 0;
      const std::size_t index = read_index(body, i + 1, digits);
      if (index < args.size()) {
        out.text += args[index];
      } else {
        out.text.append(body.substr(i, 1 + digits));
      }
      i += 1 + digits;
      continue;
    }
    out.text += body[i++];
  }
  return out;
}

} // namespace skillrt::core
