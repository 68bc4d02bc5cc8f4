// The only translation unit that drives libyaml's emitter.
#include <yaml.h>

#include <climits>
#include <string>
#include <string_view>

#include "core/util/utf8.hpp"
#include "core/yaml/yaml_emit.hpp"

namespace skillrt::core {

namespace {

int write_to_string(void* data, unsigned char* buffer, size_t size) {
  static_cast<std::string*>(data)->append(reinterpret_cast<const char*>(buffer), size);
  return 1;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Would a plain scalar with this text be something other than a string, under
// the YAML 1.2 core schema or PyYAML's YAML 1.1 resolver? We over-approximate
// the 1.1 number/date/sexagesimal forms by "looks numeric at the start".
bool plain_reading_is_typed(std::string_view text) {
  if (YamlNode::make_scalar(std::string(text), true, {}).scalar_type() != YamlNode::ScalarType::string) {
    return true;
  }
  static constexpr std::string_view k_yaml11_words[] = {
      "y",  "Y",  "yes", "Yes", "YES", "n",   "N",   "no",  "No",  "NO", "on",
      "On", "ON", "off", "Off", "OFF", "=",   "<<",  ".inf", ".Inf", ".INF"};
  for (std::string_view word : k_yaml11_words) {
    if (text == word) {
      return true;
    }
  }
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
    ++i;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
  }
  return i < text.size() && is_digit(text[i]);
}

class Emitter {
 public:
  explicit Emitter(std::string* out) {
    m_ok = yaml_emitter_initialize(&m_emitter) != 0;
    if (m_ok) {
      yaml_emitter_set_output(&m_emitter, write_to_string, out);
      yaml_emitter_set_unicode(&m_emitter, 1);
      yaml_emitter_set_width(&m_emitter, -1);  // never fold long lines
      yaml_emitter_set_indent(&m_emitter, 2);
    }
  }
  ~Emitter() {
    if (m_ok) {
      yaml_emitter_delete(&m_emitter);
    }
  }
  Emitter(const Emitter&) = delete;
  Emitter& operator=(const Emitter&) = delete;

  bool ok() const { return m_ok; }

  // yaml_emitter_emit takes ownership of the event, even on failure.
  bool emit(yaml_event_t* event) { return m_ok && yaml_emitter_emit(&m_emitter, event) != 0; }

  bool scalar(const std::string& raw_text, yaml_scalar_style_t style) {
    std::string text = sanitize_utf8(raw_text);
    if (text.size() > INT_MAX) {
      return false;
    }
    yaml_event_t event;
    if (yaml_scalar_event_initialize(&event, nullptr, nullptr,
                                     reinterpret_cast<const yaml_char_t*>(text.c_str()),
                                     static_cast<int>(text.size()), 1, 1, style) == 0) {
      return false;
    }
    return emit(&event);
  }

  // Recursion depth equals the tree's depth (parse_yaml caps it at k_max_yaml_depth).
  bool node(const YamlNode& node) {
    yaml_event_t event;
    switch (node.kind()) {
      case YamlNode::Kind::null:
        return scalar("null", YAML_PLAIN_SCALAR_STYLE);
      case YamlNode::Kind::scalar:
        return scalar(node.text(), scalar_style(node));
      case YamlNode::Kind::sequence:
        if (yaml_sequence_start_event_initialize(&event, nullptr, nullptr, 1,
                                                 node.items().empty() ? YAML_FLOW_SEQUENCE_STYLE
                                                                      : YAML_BLOCK_SEQUENCE_STYLE) == 0 ||
            !emit(&event)) {
          return false;
        }
        for (const YamlNode& item : node.items()) {
          if (!this->node(item)) {
            return false;
          }
        }
        yaml_sequence_end_event_initialize(&event);
        return emit(&event);
      case YamlNode::Kind::mapping:
        if (yaml_mapping_start_event_initialize(&event, nullptr, nullptr, 1,
                                                node.entries().empty() ? YAML_FLOW_MAPPING_STYLE
                                                                       : YAML_BLOCK_MAPPING_STYLE) == 0 ||
            !emit(&event)) {
          return false;
        }
        for (const auto& [key, value] : node.entries()) {
          // Keys are strings to us; quote those a reader would type otherwise.
          if (!scalar(key, plain_reading_is_typed(key) ? YAML_SINGLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE) ||
              !this->node(value)) {
            return false;
          }
        }
        yaml_mapping_end_event_initialize(&event);
        return emit(&event);
    }
    return false;
  }

 private:
  static yaml_scalar_style_t scalar_style(const YamlNode& node) {
    if (node.plain()) {
      // libyaml falls back to quoting when the text cannot be written plain.
      return YAML_PLAIN_SCALAR_STYLE;
    }
    if (node.text().find('\n') != std::string::npos) {
      return YAML_LITERAL_SCALAR_STYLE;  // falls back to double quotes when not allowed
    }
    return plain_reading_is_typed(node.text()) ? YAML_SINGLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE;
  }

  yaml_emitter_t m_emitter{};
  bool m_ok = false;
};

}  // namespace

std::string emit_yaml(const YamlNode& node) {
  std::string out;
  Emitter emitter(&out);
  if (!emitter.ok()) {
    return {};
  }
  yaml_event_t event;
  bool ok = yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING) != 0 && emitter.emit(&event);
  ok = ok && yaml_document_start_event_initialize(&event, nullptr, nullptr, nullptr, 1) != 0 &&
       emitter.emit(&event);
  ok = ok && emitter.node(node);
  ok = ok && yaml_document_end_event_initialize(&event, 1) != 0 && emitter.emit(&event);
  ok = ok && yaml_stream_end_event_initialize(&event) != 0 && emitter.emit(&event);
  if (!ok) {
    return {};
  }
  return out;
}

}  // namespace skillrt::core
