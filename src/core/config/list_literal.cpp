#include "core/config/list_literal.hpp"

#include <charconv>
#include <cstdint>
#include <system_error>

#include "core/util/text.hpp"
#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {

namespace {

// Nested lists deeper than this are refused rather than recursed into.
constexpr std::size_t k_max_literal_depth = 32;

bool is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

class LiteralParser {
 public:
  explicit LiteralParser(std::string_view text) : m_text(text) {}

  std::optional<std::vector<std::string>> parse_top() {
    skip_space();
    std::optional<YamlNode> list = parse_list(0);
    if (!list) {
      return std::nullopt;
    }
    skip_space();
    if (m_i != m_text.size()) {
      return std::nullopt;
    }
    std::vector<std::string> out;
    for (const YamlNode& item : list->items()) {
      out.push_back(item.to_string());
    }
    return out;
  }

 private:
  bool at_end() const { return m_i >= m_text.size(); }
  char peek(std::size_t ahead = 0) const { return m_i + ahead < m_text.size() ? m_text[m_i + ahead] : '\0'; }

  void skip_space() {
    while (!at_end()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        ++m_i;
      } else if (c == '\\' && (peek(1) == '\n')) {
        m_i += 2;  // explicit line joining
      } else {
        return;
      }
    }
  }

  std::optional<YamlNode> parse_list(std::size_t depth) {
    if (depth >= k_max_literal_depth || peek() != '[') {
      return std::nullopt;
    }
    ++m_i;
    YamlNode list = YamlNode::make_sequence({});
    skip_space();
    while (peek() != ']') {
      std::optional<YamlNode> item = parse_value(depth + 1);
      if (!item) {
        return std::nullopt;
      }
      list.push(std::move(*item));
      skip_space();
      if (peek() == ',') {
        ++m_i;
        skip_space();
      } else if (peek() != ']') {
        return std::nullopt;
      }
    }
    ++m_i;
    return list;
  }

  std::optional<YamlNode> parse_value(std::size_t depth) {
    char c = peek();
    if (c == '[') {
      return parse_list(depth);
    }
    if (c == '"' || c == '\'' || ((c == 'u' || c == 'U' || c == 'r' || c == 'R') &&
                                  (peek(1) == '"' || peek(1) == '\''))) {
      std::string joined;
      // Adjacent literals concatenate: 'a' "b" == 'ab'.
      do {
        std::optional<std::string> part = parse_string();
        if (!part) {
          return std::nullopt;
        }
        joined += *part;
        skip_space();
        c = peek();
      } while (c == '"' || c == '\'' ||
               ((c == 'u' || c == 'U' || c == 'r' || c == 'R') && (peek(1) == '"' || peek(1) == '\'')));
      return YamlNode::make_scalar(std::move(joined), false, {});
    }
    if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
      return parse_number();
    }
    std::size_t start = m_i;
    while (!at_end() && is_ident(peek())) {
      ++m_i;
    }
    std::string_view word = m_text.substr(start, m_i - start);
    if (word == "True" || word == "False") {
      return YamlNode::make_scalar(std::string(word), true, {});
    }
    if (word == "None") {
      return YamlNode::make_scalar("null", true, {});
    }
    return std::nullopt;
  }

  std::optional<YamlNode> parse_number() {
    std::string sign;
    if (peek() == '-' || peek() == '+') {
      sign = peek() == '-' ? "-" : "";
      ++m_i;
      skip_space();
    }
    std::size_t start = m_i;
    while (!at_end() && (is_ident(peek()) || peek() == '.' ||
                         ((peek() == '+' || peek() == '-') && (m_text[m_i - 1] == 'e' || m_text[m_i - 1] == 'E')))) {
      ++m_i;
    }
    std::string token;
    for (char ch : m_text.substr(start, m_i - start)) {
      if (ch != '_') {
        token.push_back(ch);  // Python allows 1_000
      }
    }
    if (token.empty() || token.back() == '_') {
      return std::nullopt;
    }
    int base = 0;
    if (token.size() > 2 && token[0] == '0') {
      char p = static_cast<char>(token[1] | 0x20);
      base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    }
    if (base != 0) {
      std::uint64_t value = 0;
      auto [ptr, ec] = std::from_chars(token.data() + 2, token.data() + token.size(), value, base);
      if (ec != std::errc() || ptr != token.data() + token.size()) {
        return std::nullopt;
      }
      return YamlNode::make_scalar(sign + std::to_string(value), true, {});
    }
    YamlNode node = YamlNode::make_scalar(sign + token, true, {});
    YamlNode::ScalarType type = node.scalar_type();
    if (type == YamlNode::ScalarType::integer) {
      // Python 3 forbids leading zeros on non-zero decimals ("007").
      if (token.size() > 1 && token[0] == '0' && token.find_first_not_of('0') != std::string::npos) {
        return std::nullopt;
      }
      return node;
    }
    if (type == YamlNode::ScalarType::floating && token.find("inf") == std::string::npos &&
        token.find("nan") == std::string::npos) {
      return node;
    }
    return std::nullopt;
  }

  std::optional<std::string> parse_string() {
    bool raw = false;
    while (peek() == 'u' || peek() == 'U' || peek() == 'r' || peek() == 'R') {
      raw = raw || peek() == 'r' || peek() == 'R';
      ++m_i;
    }
    char quote = peek();
    bool triple = peek(1) == quote && peek(2) == quote;
    m_i += triple ? 3 : 1;
    std::string out;
    for (;;) {
      if (at_end()) {
        return std::nullopt;
      }
      char c = peek();
      if (c == quote && (!triple || (peek(1) == quote && peek(2) == quote))) {
        m_i += triple ? 3 : 1;
        return out;
      }
      if (c == '\n' && !triple) {
        return std::nullopt;
      }
      if (c != '\\') {
        out.push_back(c);
        ++m_i;
        continue;
      }
      char e = peek(1);
      if (raw) {
        // Raw strings keep the backslash; it still protects a quote.
        out.push_back('\\');
        if (e != '\0') {
          out.push_back(e);
        }
        m_i += 2;
        continue;
      }
      m_i += 2;
      switch (e) {
        case '\n':
          break;
        case '\\':
        case '\'':
        case '"':
          out.push_back(e);
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 'a':
          out.push_back('\a');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'v':
          out.push_back('\v');
          break;
        case 'x':
        case 'u':
        case 'U': {
          std::size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          if (m_i + digits > m_text.size()) {
            return std::nullopt;
          }
          std::uint32_t cp = 0;
          auto [ptr, ec] = std::from_chars(m_text.data() + m_i, m_text.data() + m_i + digits, cp, 16);
          if (ec != std::errc() || ptr != m_text.data() + m_i + digits || cp > 0x10FFFF ||
              (cp >= 0xD800 && cp <= 0xDFFF)) {
            return std::nullopt;
          }
          m_i += digits;
          append_utf8(out, cp);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            std::uint32_t cp = static_cast<std::uint32_t>(e - '0');
            for (int k = 0; k < 2 && peek() >= '0' && peek() <= '7'; ++k) {
              cp = cp * 8 + static_cast<std::uint32_t>(peek() - '0');
              ++m_i;
            }
            append_utf8(out, cp);
          } else if (e == '\0' || e == 'N') {
            return std::nullopt;  // truncated, or \N{name} which we do not model
          } else {
            out.push_back('\\');  // unknown escapes stay as written
            out.push_back(e);
          }
      }
    }
  }

  std::string_view m_text;
  std::size_t m_i = 0;
};

}  // namespace

std::optional<std::vector<std::string>> parse_list_literal(std::string_view text) {
  return LiteralParser(text).parse_top();
}

}  // namespace skillrt::core
