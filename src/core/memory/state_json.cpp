#include "core/memory/state_json.hpp"

#include <cstdint>

#include "core/limits.hpp"
#include "core/util/text.hpp"
#include "core/yaml/utf8.hpp"

namespace skillrt::core {
namespace {

class Parser {
public:
  explicit Parser(std::string_view text) : m_text(text) {}

  Result<StateJson> document() {
    StateJson value;
    if (auto ok = parse_value(value, 0); !ok) {
      return tl::unexpected(ok.error());
    }
    skip_space();
    if (m_pos != m_text.size()) {
      return error("unexpected text after the document");
    }
    return value;
  }

private:
  tl::unexpected<Error> error(std::string_view what) const {
    return fail(ErrorCode::parse_error, std::string(what) + " at byte " + std::to_string(m_pos));
  }

  void skip_space() {
    while (m_pos < m_text.size() &&
           (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r')) {
      ++m_pos;
    }
  }

  bool consume(std::string_view word) {
    if (m_text.substr(m_pos, word.size()) == word) {
      m_pos += word.size();
      return true;
    }
    return false;
  }

  Result<void> parse_value(StateJson& out, std::size_t depth) {
    skip_space();
    if (m_pos >= m_text.size()) {
      return error("unexpected end of the document");
    }
    const char c = m_text[m_pos];
    if (c == '{' || c == '[') {
      if (depth >= limits::k_max_state_json_depth) {
        return error("nesting deeper than " + std::to_string(limits::k_max_state_json_depth));
      }
      return c == '{' ? parse_object(out, depth + 1) : parse_array(out, depth + 1);
    }
    if (c == '"') {
      out.kind = StateJson::Kind::string;
      return parse_string(out.text);
    }
    if (consume("true")) {
      out.kind = StateJson::Kind::boolean;
      out.boolean = true;
      return {};
    }
    if (consume("false")) {
      out.kind = StateJson::Kind::boolean;
      return {};
    }
    if (consume("null")) {
      out.kind = StateJson::Kind::null;
      return {};
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      out.kind = StateJson::Kind::number;
      return parse_number(out.text);
    }
    return error("unexpected character");
  }

  Result<void> parse_object(StateJson& out, std::size_t depth) {
    out.kind = StateJson::Kind::object;
    ++m_pos; // '{'
    skip_space();
    if (consume("}")) {
      return {};
    }
    while (true) {
      skip_space();
      if (m_pos >= m_text.size() || m_text[m_pos] != '"') {
        return error("expected a member name");
      }
      std::string key;
      if (auto ok = parse_string(key); !ok) {
        return ok;
      }
      if (out.find(key) != nullptr) {
        return error("duplicate member \"" + key + "\"");
      }
      skip_space();
      if (!consume(":")) {
        return error("expected ':'");
      }
      StateJson value;
      if (auto ok = parse_value(value, depth); !ok) {
        return ok;
      }
      out.members.push_back(StateJsonMember{std::move(key), std::move(value)});
      skip_space();
      if (consume("}")) {
        return {};
      }
      if (!consume(",")) {
        return error("expected ',' or '}'");
      }
    }
  }

  Result<void> parse_array(StateJson& out, std::size_t depth) {
    out.kind = StateJson::Kind::array;
    ++m_pos; // '['
    skip_space();
    if (consume("]")) {
      return {};
    }
    while (true) {
      StateJson value;
      if (auto ok = parse_value(value, depth); !ok) {
        return ok;
      }
      out.items.push_back(std::move(value));
      skip_space();
      if (consume("]")) {
        return {};
      }
      if (!consume(",")) {
        return error("expected ',' or ']'");
      }
    }
  }

  Result<void> parse_number(std::string& out) {
    const std::size_t start = m_pos;
    auto digits = [&] {
      const std::size_t from = m_pos;
      while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
        ++m_pos;
      }
      return m_pos - from;
    };
    consume("-");
    if (consume("0")) {
      // a leading zero stands alone
    } else if (digits() == 0) {
      return error("malformed number");
    }
    if (consume(".") && digits() == 0) {
      return error("malformed number");
    }
    if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
      ++m_pos;
      if (!consume("+")) {
        consume("-");
      }
      if (digits() == 0) {
        return error("malformed number");
      }
    }
    out.assign(m_text.substr(start, m_pos - start));
    return {};
  }

  Result<std::uint32_t> hex4() {
    if (m_pos + 4 > m_text.size()) {
      return error("truncated \\u escape");
    }
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = m_text[m_pos++];
      value <<= 4;
      if (h >= '0' && h <= '9') {
        value |= static_cast<std::uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        value |= static_cast<std::uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        value |= static_cast<std::uint32_t>(h - 'A' + 10);
      } else {
        return error("bad \\u escape");
      }
    }
    return value;
  }

  Result<void> parse_string(std::string& out) {
    ++m_pos; // opening quote
    while (true) {
      if (m_pos >= m_text.size()) {
        return error("unterminated string");
      }
      const char c = m_text[m_pos];
      if (c == '"') {
        ++m_pos;
        return {};
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return error("control character in a string");
      }
      if (c != '\\') {
        out.push_back(c); // UTF-8 validity is checked once for the whole document
        ++m_pos;
        continue;
      }
      ++m_pos;
      if (m_pos >= m_text.size()) {
        return error("unterminated string");
      }
      const char escaped = m_text[m_pos++];
      switch (escaped) {
      case '"':
        out.push_back('"');
        break;
      case '\\':
        out.push_back('\\');
        break;
      case '/':
        out.push_back('/');
        break;
      case 'b':
        out.push_back('\b');
        break;
      case 'f':
        out.push_back('\f');
        break;
      case 'n':
        out.push_back('\n');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'u': {
        auto unit = hex4();
        if (!unit) {
          return tl::unexpected(unit.error());
        }
        std::uint32_t code = *unit;
        if (code >= 0xDC00 && code <= 0xDFFF) {
          return error("lone low surrogate");
        }
        if (code >= 0xD800 && code <= 0xDBFF) {
          if (!consume("\\u")) {
            return error("lone high surrogate");
          }
          auto low = hex4();
          if (!low) {
            return tl::unexpected(low.error());
          }
          if (*low < 0xDC00 || *low > 0xDFFF) {
            return error("bad surrogate pair");
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (*low - 0xDC00);
        }
        append_utf8(out, static_cast<char32_t>(code));
        break;
      }
      default:
        return error("unknown escape");
      }
    }
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

} // namespace

const StateJson* StateJson::find(std::string_view key) const {
  for (const auto& [name, value] : members) {
    if (name == key) {
      return &value;
    }
  }
  return nullptr;
}

Result<StateJson> parse_state_json(std::string_view text) {
  if (auto bad = find_invalid_utf8(text)) {
    return fail(ErrorCode::parse_error, "not valid UTF-8 at byte " + std::to_string(*bad));
  }
  return Parser(text).document();
}

std::string quote_json_string(std::string_view text) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (byte < 0x20 || byte == 0x7f) {
        out += "\\u00";
        out.push_back(k_hex[byte >> 4]);
        out.push_back(k_hex[byte & 0xf]);
      } else {
        out.push_back(c);
      }
    }
  }
  out.push_back('"');
  return out;
}

} // namespace skillrt::core
