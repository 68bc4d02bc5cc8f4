#include "core/yaml/yaml_node.hpp"

#include "core/yaml/float_syntax.hpp"

#include <charconv>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <system_error>

namespace skillrt::core {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_octal(char c) { return c >= '0' && c <= '7'; }
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

template <typename Pred>
bool all_of(std::string_view s, Pred pred) {
  if (s.empty()) {
    return false;
  }
  for (char c : s) {
    if (!pred(c)) {
      return false;
    }
  }
  return true;
}

bool is_core_null(std::string_view s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

bool is_core_int(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && s[1] == 'o') {
    return all_of(s.substr(2), is_octal);
  }
  if (s.size() > 2 && s[0] == '0' && s[1] == 'x') {
    return all_of(s.substr(2), is_hex);
  }
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    s.remove_prefix(1);
  }
  return all_of(s, is_digit);
}

bool is_core_inf(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    s.remove_prefix(1);
  }
  return s == ".inf" || s == ".Inf" || s == ".INF";
}

bool is_core_nan(std::string_view s) { return s == ".nan" || s == ".NaN" || s == ".NAN"; }

bool is_core_float(std::string_view s) {
  return is_core_inf(s) || is_core_nan(s) || is_decimal_float(s, /*signed_leading_dot=*/true);
}

// The value of a core-schema float (inf/nan forms included).
double float_value(const std::string& s) {
  if (is_core_nan(s)) {
    return std::nan("");
  }
  if (is_core_inf(s)) {
    return s[0] == '-' ? -HUGE_VAL : HUGE_VAL;
  }
  return std::strtod(s.c_str(), nullptr);
}

// Python's repr(float): shortest round-trip digits, scientific notation when the
// decimal exponent is < -4 or >= 16, and always a ".0" on integral values.
std::string python_float_repr(double value) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value < 0 ? "-inf" : "inf";
  }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  bool negative = !sci.empty() && sci[0] == '-';
  if (negative) {
    sci.erase(0, 1);
  }
  std::size_t e_pos = sci.find('e');
  std::string mantissa = sci.substr(0, e_pos);
  int exponent = std::atoi(sci.c_str() + e_pos + 1);
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') {
      digits.push_back(c);
    }
  }
  std::string out = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) {
      out += "." + digits.substr(1);
    }
    char exp_buf[16];
    std::snprintf(exp_buf, sizeof(exp_buf), "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    out += exp_buf;
    return out;
  }
  if (exponent < 0) {
    out += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    return out;
  }
  auto point = static_cast<std::size_t>(exponent) + 1;
  if (digits.size() <= point) {
    out += digits + std::string(point - digits.size(), '0') + ".0";
  } else {
    out += digits.substr(0, point) + "." + digits.substr(point);
  }
  return out;
}

// Python's str(int) for a core-schema integer; falls back to the text when it
// does not fit 64 bits (Python would print the big number exactly).
std::string python_int_str(const std::string& text) {
  std::string_view digits = text;
  int base = 10;
  bool negative = false;
  if (digits.starts_with("0x")) {
    digits.remove_prefix(2);
    base = 16;
  } else if (digits.starts_with("0o")) {
    digits.remove_prefix(2);
    base = 8;
  } else if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) {
    if (base != 10) {
      return text;
    }
    std::size_t first = digits.find_first_not_of('0');
    std::string trimmed = first == std::string_view::npos ? "0" : std::string(digits.substr(first));
    return (negative && trimmed != "0" ? "-" : "") + trimmed;
  }
  if (value == 0) {
    return "0";
  }
  return (negative ? "-" : "") + std::to_string(value);
}

// Python's repr(str): single quotes unless the text holds ' and no ".
std::string python_str_repr(const std::string& s) {
  bool has_single = s.find('\'') != std::string::npos;
  bool has_double = s.find('"') != std::string::npos;
  char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (char c : s) {
    switch (c) {
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
        if (c == quote) {
          out += '\\';
          out += c;
        } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += quote;
  return out;
}

std::string python_repr(const YamlNode& node);

std::string python_str(const YamlNode& node) {
  switch (node.kind()) {
    case YamlNode::Kind::null:
      return "None";
    case YamlNode::Kind::sequence: {
      std::string out = "[";
      bool first = true;
      for (const auto& item : node.items()) {
        if (!first) {
          out += ", ";
        }
        first = false;
        out += python_repr(item);
      }
      return out + "]";
    }
    case YamlNode::Kind::mapping: {
      std::string out = "{";
      bool first = true;
      for (const auto& [key, value] : node.entries()) {
        if (!first) {
          out += ", ";
        }
        first = false;
        out += python_str_repr(key) + ": " + python_repr(value);
      }
      return out + "}";
    }
    case YamlNode::Kind::scalar:
      break;
  }
  switch (node.scalar_type()) {
    case YamlNode::ScalarType::null:
      return "None";
    case YamlNode::ScalarType::boolean:
      return node.as_bool().value_or(false) ? "True" : "False";
    case YamlNode::ScalarType::integer:
      return python_int_str(node.text());
    case YamlNode::ScalarType::floating:
      return python_float_repr(float_value(node.text()));
    case YamlNode::ScalarType::string:
      break;
  }
  return node.text();
}

std::string python_repr(const YamlNode& node) {
  if (node.is_scalar() && node.scalar_type() == YamlNode::ScalarType::string) {
    return python_str_repr(node.text());
  }
  return python_str(node);
}

}  // namespace

YamlNode YamlNode::make_scalar(std::string text, bool plain, SourcePos pos) {
  YamlNode node;
  node.m_kind = Kind::scalar;
  node.m_text = std::move(text);
  node.m_plain = plain;
  node.m_pos = pos;
  return node;
}

YamlNode YamlNode::make_sequence(SourcePos pos) {
  YamlNode node;
  node.m_kind = Kind::sequence;
  node.m_pos = pos;
  return node;
}

YamlNode YamlNode::make_mapping(SourcePos pos) {
  YamlNode node;
  node.m_kind = Kind::mapping;
  node.m_pos = pos;
  return node;
}

bool YamlNode::is_null() const {
  return m_kind == Kind::null || (m_kind == Kind::scalar && scalar_type() == ScalarType::null);
}

YamlNode::ScalarType YamlNode::scalar_type() const {
  if (m_kind == Kind::null) {
    return ScalarType::null;
  }
  if (m_kind != Kind::scalar || !m_plain) {
    return ScalarType::string;
  }
  if (is_core_null(m_text)) {
    return ScalarType::null;
  }
  if (as_bool().has_value()) {
    return ScalarType::boolean;
  }
  if (is_core_int(m_text)) {
    return ScalarType::integer;
  }
  if (is_core_float(m_text)) {
    return ScalarType::floating;
  }
  return ScalarType::string;
}

std::optional<bool> YamlNode::as_bool() const {
  if (m_kind != Kind::scalar || !m_plain) {
    return std::nullopt;
  }
  if (m_text == "true" || m_text == "True" || m_text == "TRUE") {
    return true;
  }
  if (m_text == "false" || m_text == "False" || m_text == "FALSE") {
    return false;
  }
  return std::nullopt;
}

bool YamlNode::truthy() const {
  switch (m_kind) {
    case Kind::null:
      return false;
    case Kind::sequence:
      return !m_items.empty();
    case Kind::mapping:
      return !m_entries.empty();
    case Kind::scalar:
      break;
  }
  switch (scalar_type()) {
    case ScalarType::null:
      return false;
    case ScalarType::boolean:
      return as_bool().value_or(false);
    case ScalarType::integer:
      return python_int_str(m_text) != "0";
    case ScalarType::floating:
      return float_value(m_text) != 0.0;
    case ScalarType::string:
      break;
  }
  return !m_text.empty();
}

std::string YamlNode::to_string() const { return python_str(*this); }

const YamlNode* YamlNode::get(std::string_view key) const {
  if (m_kind != Kind::mapping) {
    return nullptr;
  }
  for (const auto& [k, v] : m_entries) {
    if (k == key) {
      return &v;
    }
  }
  return nullptr;
}

SourcePos YamlNode::key_pos(std::string_view key) const {
  if (m_kind != Kind::mapping) {
    return {};
  }
  for (std::size_t i = 0; i < m_entries.size(); ++i) {
    if (m_entries[i].first == key) {
      return i < m_key_pos.size() ? m_key_pos[i] : SourcePos{};
    }
  }
  return {};
}

void YamlNode::set_key_pos(std::size_t index, SourcePos pos) {
  if (index >= m_key_pos.size()) {
    m_key_pos.resize(index + 1);
  }
  m_key_pos[index] = pos;
}

}  // namespace skillrt::core
