#include "protocol/yaml_json.hpp"

#include <charconv>
#include <cstdlib>
#include <string>

namespace skillrt::protocol {

Json yaml_to_json(const core::YamlNode& node) {
  using Kind = core::YamlNode::Kind;
  using ScalarType = core::YamlNode::ScalarType;
  switch (node.kind()) {
    case Kind::null:
      return nullptr;
    case Kind::sequence: {
      Json out = Json::array();
      for (const auto& item : node.items()) {
        out.push_back(yaml_to_json(item));
      }
      return out;
    }
    case Kind::mapping: {
      Json out = Json::object();
      for (const auto& [key, value] : node.entries()) {
        out[key] = yaml_to_json(value);
      }
      return out;
    }
    case Kind::scalar:
      break;
  }
  switch (node.scalar_type()) {
    case ScalarType::null:
      return nullptr;
    case ScalarType::boolean:
      return node.as_bool().value_or(false);
    case ScalarType::integer: {
      const std::string& text = node.text();
      long long value = 0;
      const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
      int base = 10;
      if (text.starts_with("0x")) {
        begin = text.data() + 2;
        base = 16;
      } else if (text.starts_with("0o")) {
        begin = text.data() + 2;
        base = 8;
      }
      auto [ptr, ec] = std::from_chars(begin, text.data() + text.size(), value, base);
      if (ec == std::errc() && ptr == text.data() + text.size()) {
        return value;
      }
      return text;  // out of range: keep the digits rather than lose them
    }
    case ScalarType::floating: {
      const std::string& text = node.text();
      char* end = nullptr;
      double value = std::strtod(text.c_str(), &end);
      if (end == text.c_str() + text.size()) {
        return value;
      }
      return text;  // .inf / .nan have no JSON form
    }
    case ScalarType::string:
      break;
  }
  return node.text();
}

}  // namespace skillrt::protocol
