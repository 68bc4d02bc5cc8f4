#include "core/validate/js_value.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/yaml/float_syntax.hpp"

namespace skillrt::core {

namespace {

bool is_dec(char c) {
  return c >= '0' && c <= '9';
}
bool is_oct(char c) {
  return c >= '0' && c <= '7';
}
bool is_hex(char c) {
  return is_dec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool js_yaml_null(std::string_view s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

bool js_yaml_bool(std::string_view s) {
  return s == "true" || s == "True" || s == "TRUE" || s == "false" || s == "False" || s == "FALSE";
}

template <typename Pred> bool all_digits(std::string_view s, Pred pred) {
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

// js-yaml's resolveYamlInteger: [-+]? then 0, 0b…, 0x…, 0o… or decimal digits.
bool js_yaml_int(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    s.remove_prefix(1);
  }
  if (s.size() > 1 && s[0] == '0') {
    if (s[1] == 'b') {
      return all_digits(s.substr(2), [](char c) { return c == '0' || c == '1'; });
    }
    if (s[1] == 'x') {
      return all_digits(s.substr(2), is_hex);
    }
    if (s[1] == 'o') {
      return all_digits(s.substr(2), is_oct);
    }
  }
  return all_digits(s, is_dec);
}

// js-yaml's YAML_FLOAT_PATTERN: [-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)? | \.[0-9]+([eE][-+]?[0-9]+)?
// | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)
bool js_yaml_float(std::string_view s) {
  if (s == ".nan" || s == ".NaN" || s == ".NAN") {
    return true;
  }
  std::string_view unsigned_part = s;
  bool has_sign = !s.empty() && (s[0] == '-' || s[0] == '+');
  if (has_sign) {
    unsigned_part.remove_prefix(1);
  }
  if (unsigned_part == ".inf" || unsigned_part == ".Inf" || unsigned_part == ".INF") {
    return true;
  }
  return is_decimal_float(s, /*signed_leading_dot=*/false);
}

// js-yaml's timestamp forms: YYYY-MM-DD, or a date, T/t/spaces, hh:mm:ss[.frac][tz].
bool js_yaml_timestamp(std::string_view s) {
  auto digits = [&](std::size_t& i, std::size_t min, std::size_t max) {
    std::size_t n = 0;
    while (i < s.size() && is_dec(s[i]) && n < max) {
      ++i;
      ++n;
    }
    return n >= min;
  };
  auto expect = [&](std::size_t& i, char c) {
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  };
  std::size_t i = 0;
  if (s.size() == 10) {
    std::size_t k = 0;
    if (digits(k, 4, 4) && expect(k, '-') && digits(k, 2, 2) && expect(k, '-') && digits(k, 2, 2) && k == 10) {
      return true;
    }
  }
  if (!(digits(i, 4, 4) && expect(i, '-') && digits(i, 1, 2) && expect(i, '-') && digits(i, 1, 2))) {
    return false;
  }
  if (i < s.size() && (s[i] == 'T' || s[i] == 't')) {
    ++i;
  } else {
    std::size_t spaces = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) {
      ++i;
      ++spaces;
    }
    if (spaces == 0) {
      return false;
    }
  }
  if (!(digits(i, 1, 2) && expect(i, ':') && digits(i, 2, 2) && expect(i, ':') && digits(i, 2, 2))) {
    return false;
  }
  if (expect(i, '.')) {
    while (i < s.size() && is_dec(s[i])) {
      ++i;
    }
  }
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) {
    ++i;
  }
  if (expect(i, 'Z')) {
    return i == s.size();
  }
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) {
    ++i;
    if (!digits(i, 1, 2)) {
      return false;
    }
    if (expect(i, ':') && !digits(i, 2, 2)) {
      return false;
    }
  }
  return i == s.size();
}

// JavaScript's Number.prototype.toString() (radix 10) for a finite double.
std::string js_number_string(double value) {
  if (std::isnan(value)) {
    return "NaN";
  }
  if (std::isinf(value)) {
    return value < 0 ? "-Infinity" : "Infinity";
  }
  if (value == 0) {
    return "0";
  }
  std::string sign = value < 0 ? "-" : "";
  value = std::fabs(value);
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  // sci = d[.ddd]e±XX
  std::size_t e = sci.find('e');
  std::string digits = sci.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  int exponent = std::atoi(sci.c_str() + e + 1);
  auto k = static_cast<int>(digits.size());
  int n = exponent + 1; // value = 0.digits × 10^n
  if (k <= n && n <= 21) {
    return sign + digits + std::string(static_cast<std::size_t>(n - k), '0');
  }
  if (0 < n && n <= 21) {
    return sign + digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(static_cast<std::size_t>(n));
  }
  if (-6 < n && n <= 0) {
    return sign + "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  }
  std::string mantissa = digits.substr(0, 1);
  if (k > 1) {
    mantissa += "." + digits.substr(1);
  }
  int shown = n - 1;
  return sign + mantissa + "e" + (shown < 0 ? "-" : "+") + std::to_string(shown < 0 ? -shown : shown);
}

double js_int_value(std::string_view s) {
  double sign = 1;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'x' || s[1] == 'o')) {
    base = s[1] == 'b' ? 2 : (s[1] == 'x' ? 16 : 8);
    s.remove_prefix(2);
  }
  // parseInt accumulates in doubles; so do we (exact up to 2^53, rounded beyond).
  double value = 0;
  for (char c : s) {
    int digit = is_dec(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : c - 'A' + 10;
    value = value * base + digit;
  }
  return sign * value;
}

double js_float_value(std::string_view s) {
  std::string lower(s);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  if (lower == ".nan") {
    return std::nan("");
  }
  if (lower == ".inf" || lower == "+.inf") {
    return HUGE_VAL;
  }
  if (lower == "-.inf") {
    return -HUGE_VAL;
  }
  return std::strtod(lower.c_str(), nullptr);
}

} // namespace

JsType js_type(const YamlNode& node) {
  switch (node.kind()) {
  case YamlNode::Kind::null:
    return JsType::null;
  case YamlNode::Kind::sequence:
    return JsType::array;
  case YamlNode::Kind::mapping:
    return JsType::object;
  case YamlNode::Kind::scalar:
    break;
  }
  if (!node.plain()) {
    return JsType::string;
  }
  const std::string& s = node.text();
  if (js_yaml_null(s)) {
    return JsType::null;
  }
  if (js_yaml_bool(s)) {
    return JsType::boolean;
  }
  if (js_yaml_int(s)) {
    return std::isfinite(js_int_value(s)) ? JsType::number : JsType::string;
  }
  if (js_yaml_float(s)) {
    return JsType::number;
  }
  if (js_yaml_timestamp(s)) {
    return JsType::date;
  }
  return JsType::string;
}

std::string js_string(const YamlNode& node) {
  switch (js_type(node)) {
  case JsType::null:
    return "null";
  case JsType::boolean:
    return (node.text()[0] == 't' || node.text()[0] == 'T') ? "true" : "false";
  case JsType::number:
    return js_number_string(js_yaml_int(node.text()) ? js_int_value(node.text()) : js_float_value(node.text()));
  case JsType::string:
    return node.text();
  case JsType::date:
    // Date.prototype.toString() depends on the time zone; what matters to the
    // rules is that it has spaces and capitals, as this rendering does.
    return "Date " + node.text() + " (Coordinated Universal Time)";
  case JsType::array: {
    // Array.prototype.toString: items joined with ",", null items as "".
    std::string out;
    bool first = true;
    for (const YamlNode& item : node.items()) {
      if (!first) {
        out += ',';
      }
      first = false;
      if (js_type(item) != JsType::null) {
        out += js_string(item);
      }
    }
    return out;
  }
  case JsType::object:
    return "[object Object]";
  }
  return node.text();
}

std::string_view js_type_phrase(JsType type) {
  switch (type) {
  case JsType::null:
    return "null";
  case JsType::boolean:
    return "a boolean";
  case JsType::number:
    return "a number";
  case JsType::string:
    return "a string";
  case JsType::date:
    return "a date";
  case JsType::array:
    return "a list";
  case JsType::object:
    return "a mapping";
  }
  return "a value";
}

} // namespace skillrt::core
