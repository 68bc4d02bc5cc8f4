// The web UI's Markdown renderer on arbitrary bytes: it must not crash, and
// whatever the input, every tag in its output is one the renderer writes
// itself, and every link target is one is_safe_link_target allows. A tag or
// an href the input smuggled through would be script in a reader's page.
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "web/markdown_html.hpp"

namespace {

const std::set<std::string_view> k_tags = {"h1", "h2", "h3", "h4", "h5", "h6", "p",  "em",    "strong",
                                           "code", "pre", "a", "ul", "ol", "li", "blockquote", "hr",
                                           "br", "table", "thead", "tbody", "tr", "th", "td", "del",
                                           "u", "span", "input"};

const std::set<std::string_view> k_attributes = {"href", "rel", "class", "start", "type", "disabled", "checked"};

std::string unescape_amp(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 5) == "&amp;") {
      out += '&';
      i += 4;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string html = skillrt::web::render_markdown_html(
      std::string_view(reinterpret_cast<const char*>(data), size));
  for (std::size_t at = html.find('<'); at != std::string::npos; at = html.find('<', at + 1)) {
    std::size_t name_begin = at + 1;
    if (name_begin < html.size() && html[name_begin] == '/') {
      ++name_begin;
    }
    std::size_t name_end = name_begin;
    while (name_end < html.size() && std::isalnum(static_cast<unsigned char>(html[name_end])) != 0) {
      ++name_end;
    }
    if (k_tags.count(std::string_view(html).substr(name_begin, name_end - name_begin)) == 0) {
      std::abort();  // a tag the renderer never writes
    }
    // Attributes: only the renderer's own names, values always quoted, an
    // href always a safe target.
    std::size_t pos = name_end;
    while (true) {
      while (pos < html.size() && html[pos] == ' ') {
        ++pos;
      }
      if (pos >= html.size()) {
        std::abort();  // an unterminated tag
      }
      if (html[pos] == '>') {
        break;
      }
      std::size_t attr_end = pos;
      while (attr_end < html.size() && std::isalpha(static_cast<unsigned char>(html[attr_end])) != 0) {
        ++attr_end;
      }
      const std::string_view attr = std::string_view(html).substr(pos, attr_end - pos);
      if (k_attributes.count(attr) == 0) {
        std::abort();
      }
      pos = attr_end;
      if (pos < html.size() && html[pos] == '=') {
        if (pos + 1 >= html.size() || html[pos + 1] != '"') {
          std::abort();
        }
        const std::size_t end = html.find('"', pos + 2);
        if (end == std::string::npos) {
          std::abort();
        }
        const std::string_view value = std::string_view(html).substr(pos + 2, end - pos - 2);
        if (value.find('<') != std::string_view::npos || value.find('>') != std::string_view::npos ||
            (attr == "href" && !skillrt::web::is_safe_link_target(unescape_amp(value)))) {
          std::abort();
        }
        pos = end + 1;
      }
    }
  }
  return 0;
}
