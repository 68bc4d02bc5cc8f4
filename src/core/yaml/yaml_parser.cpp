// The only translation unit that sees libyaml's parser. We drive the event API
// and build the tree with an explicit stack, so hostile nesting can never
// recurse, and every refusal (alias, anchor, tag, limit) happens at the first
// offending event: memory stays bounded by the limits, not by the input.
#include <yaml.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/limits.hpp"
#include "core/util/utf8.hpp"
#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {

namespace {

std::uint32_t to_u32(std::size_t value) {
  return value > UINT32_MAX ? UINT32_MAX : static_cast<std::uint32_t>(value);
}

SourcePos mark_pos(const yaml_mark_t& mark) {
  return SourcePos{to_u32(mark.line + 1), to_u32(mark.column + 1)};
}

std::string pos_text(SourcePos pos) {
  return std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

// Owns one libyaml parser; frees it on every exit path.
class LibyamlParser {
 public:
  explicit LibyamlParser(std::string_view text) {
    m_ok = yaml_parser_initialize(&m_parser) != 0;
    if (m_ok) {
      yaml_parser_set_input_string(&m_parser, reinterpret_cast<const unsigned char*>(text.data()),
                                   text.size());
      yaml_parser_set_encoding(&m_parser, YAML_UTF8_ENCODING);
    }
  }
  ~LibyamlParser() {
    if (m_ok) {
      yaml_parser_delete(&m_parser);
    }
  }
  LibyamlParser(const LibyamlParser&) = delete;
  LibyamlParser& operator=(const LibyamlParser&) = delete;

  bool ok() const { return m_ok; }
  yaml_parser_t* get() { return &m_parser; }

 private:
  yaml_parser_t m_parser{};
  bool m_ok = false;
};

// Owns one event between yaml_parser_parse and the next call.
class Event {
 public:
  Event() = default;
  ~Event() {
    if (m_filled) {
      yaml_event_delete(&m_event);
    }
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  bool parse(yaml_parser_t* parser) {
    if (m_filled) {
      yaml_event_delete(&m_event);
      m_filled = false;
    }
    if (yaml_parser_parse(parser, &m_event) == 0) {
      return false;
    }
    m_filled = true;
    return true;
  }
  const yaml_event_t& get() const { return m_event; }

 private:
  yaml_event_t m_event{};
  bool m_filled = false;
};

// libyaml's problem/context pair, phrased like PyYAML's message.
Error libyaml_error(const yaml_parser_t& parser, std::string_view text) {
  std::string message = parser.problem != nullptr ? parser.problem : "unknown YAML error";
  SourcePos pos{};
  if (parser.error == YAML_READER_ERROR) {
    pos = offset_to_pos(text, parser.problem_offset);
    if (parser.problem_value != -1) {
      message += " (byte #x" + [&] {
        char buf[16];
        std::snprintf(buf, sizeof(buf), "%02x", static_cast<unsigned>(parser.problem_value));
        return std::string(buf);
      }() + ")";
    }
  } else {
    pos = mark_pos(parser.problem_mark);
    if (parser.context != nullptr) {
      message += " (" + std::string(parser.context) + " started at " +
                 pos_text(mark_pos(parser.context_mark)) + ")";
    }
  }
  if (parser.error == YAML_MEMORY_ERROR) {
    return Error{ErrorCode::limit_exceeded, "YAML parser ran out of memory", pos};
  }
  return Error{ErrorCode::parse_error, std::move(message), pos};
}

// One open collection on the builder stack.
struct Frame {
  YamlNode node;
  bool have_key = false;
  std::string key;
  SourcePos key_pos{};
  // Mappings collect their entries here and build the node on close, so a
  // repeated key can replace its value in place (PyYAML's "last one wins").
  std::vector<std::pair<std::string, YamlNode>> entries;
  std::vector<SourcePos> key_positions;
  std::unordered_map<std::string, std::size_t> index;
};

class Builder {
 public:
  Builder(std::size_t max_nodes, bool allow_duplicate_keys)
      : m_max_nodes(max_nodes), m_allow_duplicate_keys(allow_duplicate_keys) {}

  // Called before a node begins; refuses complex keys and counts nodes.
  Result<void> begin_node(bool is_collection, SourcePos pos) {
    if (++m_nodes > m_max_nodes) {
      return fail(ErrorCode::limit_exceeded,
                  "YAML document has more than " + std::to_string(m_max_nodes) + " nodes", pos);
    }
    if (is_collection && !m_stack.empty() && m_stack.back().node.is_mapping() &&
        !m_stack.back().have_key) {
      return fail(ErrorCode::parse_error, "mapping keys must be scalars (complex keys are not allowed)",
                  pos);
    }
    return {};
  }

  Result<void> open(YamlNode node, std::size_t max_depth) {
    if (m_stack.size() >= max_depth) {
      return fail(ErrorCode::limit_exceeded,
                  "YAML nesting deeper than " + std::to_string(max_depth) + " levels", node.pos());
    }
    m_stack.push_back(Frame{std::move(node), false, {}, {}, {}, {}, {}});
    return {};
  }

  Result<void> close() {
    Frame& frame = m_stack.back();
    YamlNode node = std::move(frame.node);
    for (std::size_t i = 0; i < frame.entries.size(); ++i) {
      node.add(std::move(frame.entries[i].first), std::move(frame.entries[i].second));
      node.set_key_pos(i, frame.key_positions[i]);
    }
    m_stack.pop_back();
    return attach(std::move(node));
  }

  Result<void> attach(YamlNode node) {
    if (m_stack.empty()) {
      m_root = std::move(node);
      return {};
    }
    Frame& parent = m_stack.back();
    if (parent.node.is_sequence()) {
      parent.node.push(std::move(node));
      return {};
    }
    if (!parent.have_key) {
      // Only scalars get here (collections were refused in begin_node).
      if (!m_allow_duplicate_keys && parent.index.count(node.text()) != 0) {
        return fail(ErrorCode::parse_error, "found duplicate key '" + node.text() + "'", node.pos());
      }
      parent.key = node.text();
      parent.key_pos = node.pos();
      parent.have_key = true;
      return {};
    }
    auto [slot, inserted] = parent.index.try_emplace(parent.key, parent.entries.size());
    if (inserted) {
      parent.entries.emplace_back(std::move(parent.key), std::move(node));
      parent.key_positions.push_back(parent.key_pos);
    } else {
      parent.entries[slot->second].second = std::move(node);
    }
    parent.key.clear();
    parent.have_key = false;
    return {};
  }

  YamlNode take_root() { return std::move(m_root); }

 private:
  std::vector<Frame> m_stack;
  YamlNode m_root;
  std::size_t m_nodes = 0;
  std::size_t m_max_nodes;
  bool m_allow_duplicate_keys;
};

// Refuses anchors and explicit tags on a node event.
Result<void> check_node_properties(const yaml_char_t* anchor, const yaml_char_t* tag, SourcePos pos) {
  if (anchor != nullptr) {
    return fail(ErrorCode::parse_error,
                "anchors are not allowed (found anchor '&" +
                    std::string(reinterpret_cast<const char*>(anchor)) + "')",
                pos);
  }
  if (tag != nullptr) {
    return fail(ErrorCode::parse_error,
                "explicit tags are not allowed (found tag '" +
                    std::string(reinterpret_cast<const char*>(tag)) + "')",
                pos);
  }
  return {};
}

}  // namespace

Result<YamlNode> parse_yaml(std::string_view text, std::size_t max_bytes) {
  return parse_yaml(text, max_bytes, YamlParseOptions{});
}

Result<YamlNode> parse_yaml(std::string_view text, std::size_t max_bytes, const YamlParseOptions& options) {
  if (text.size() > max_bytes) {
    return fail(ErrorCode::limit_exceeded,
                "YAML text is " + std::to_string(text.size()) + " bytes; the limit is " +
                    std::to_string(max_bytes),
                SourcePos{1, 1});
  }
  if (auto bad = find_invalid_utf8(text)) {
    return fail(ErrorCode::parse_error, "invalid UTF-8 byte sequence", offset_to_pos(text, *bad));
  }

  LibyamlParser parser(text);
  if (!parser.ok()) {
    return fail(ErrorCode::internal, "cannot initialise the YAML parser");
  }
  Builder builder(limits::k_max_yaml_nodes, options.allow_duplicate_keys);
  std::size_t documents = 0;
  Event event;
  for (;;) {
    if (!event.parse(parser.get())) {
      return tl::unexpected(libyaml_error(*parser.get(), text));
    }
    const yaml_event_t& ev = event.get();
    SourcePos pos = mark_pos(ev.start_mark);
    switch (ev.type) {
      case YAML_STREAM_START_EVENT:
      case YAML_NO_EVENT:
        break;
      case YAML_STREAM_END_EVENT:
        return builder.take_root();
      case YAML_DOCUMENT_START_EVENT:
        if (++documents > 1) {
          return fail(ErrorCode::parse_error, "expected a single document but found another one", pos);
        }
        if (ev.data.document_start.version_directive != nullptr ||
            ev.data.document_start.tag_directives.start != ev.data.document_start.tag_directives.end) {
          return fail(ErrorCode::parse_error, "%YAML and %TAG directives are not allowed", pos);
        }
        break;
      case YAML_DOCUMENT_END_EVENT:
        break;
      case YAML_ALIAS_EVENT:
        return fail(ErrorCode::parse_error,
                    "aliases are not allowed (found alias '*" +
                        std::string(reinterpret_cast<const char*>(ev.data.alias.anchor)) + "')",
                    pos);
      case YAML_SCALAR_EVENT: {
        const auto& s = ev.data.scalar;
        // libyaml reports a tag only when one is written (the non-specific `!` included).
        if (auto ok = check_node_properties(s.anchor, s.tag, pos); !ok) {
          return tl::unexpected(ok.error());
        }
        if (auto ok = builder.begin_node(false, pos); !ok) {
          return tl::unexpected(ok.error());
        }
        std::string value(reinterpret_cast<const char*>(s.value), s.length);
        bool plain = s.style == YAML_PLAIN_SCALAR_STYLE;
        if (auto ok = builder.attach(YamlNode::make_scalar(std::move(value), plain, pos)); !ok) {
          return tl::unexpected(ok.error());
        }
        break;
      }
      case YAML_SEQUENCE_START_EVENT: {
        const auto& s = ev.data.sequence_start;
        if (auto ok = check_node_properties(s.anchor, s.tag, pos); !ok) {
          return tl::unexpected(ok.error());
        }
        if (auto ok = builder.begin_node(true, pos); !ok) {
          return tl::unexpected(ok.error());
        }
        if (auto ok = builder.open(YamlNode::make_sequence(pos), limits::k_max_yaml_depth); !ok) {
          return tl::unexpected(ok.error());
        }
        break;
      }
      case YAML_MAPPING_START_EVENT: {
        const auto& m = ev.data.mapping_start;
        if (auto ok = check_node_properties(m.anchor, m.tag, pos); !ok) {
          return tl::unexpected(ok.error());
        }
        if (auto ok = builder.begin_node(true, pos); !ok) {
          return tl::unexpected(ok.error());
        }
        if (auto ok = builder.open(YamlNode::make_mapping(pos), limits::k_max_yaml_depth); !ok) {
          return tl::unexpected(ok.error());
        }
        break;
      }
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT:
        if (auto ok = builder.close(); !ok) {
          return tl::unexpected(ok.error());
        }
        break;
    }
  }
}

}  // namespace skillrt::core
