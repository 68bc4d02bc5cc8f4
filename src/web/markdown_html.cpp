#include "markdown_html.hpp"

#include <md4c.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <vector>

namespace skillrt::web {
namespace {

void append_escaped(std::string& out, std::string_view text) {
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
}

bool is_entity_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '#'; }

// md4c hands entities over verbatim ("&amp;", "&#x27;"). One of that exact
// form is passed through (the browser decodes it as text); anything else is
// escaped, so an entity can never open markup.
void append_entity(std::string& out, std::string_view entity) {
  const bool well_formed = entity.size() >= 3 && entity.front() == '&' && entity.back() == ';' &&
                           std::all_of(entity.begin() + 1, entity.end() - 1, is_entity_char);
  if (well_formed) {
    out += entity;
  } else {
    append_escaped(out, entity);
  }
}

// The few entities a link target may hold, decoded; anything else makes the
// target unusable (the link is dropped, the text stays).
bool decode_attribute(const MD_ATTRIBUTE& attribute, std::string& out) {
  out.clear();
  for (unsigned i = 0; attribute.substr_offsets[i] < attribute.size; ++i) {
    const std::string_view part(attribute.text + attribute.substr_offsets[i],
                                attribute.substr_offsets[i + 1] - attribute.substr_offsets[i]);
    switch (attribute.substr_types[i]) {
      case MD_TEXT_NORMAL:
        out += part;
        break;
      case MD_TEXT_ENTITY:
        if (part == "&amp;") {
          out += '&';
        } else {
          return false;
        }
        break;
      default:
        return false;
    }
  }
  return true;
}

struct Renderer {
  std::string out;
  // The input md4c parses. md4c 0.4.8 can hand a text span that ends a byte
  // past its input (found by tests/fuzz/markdown_html_fuzz.cpp); every span
  // is clamped to this range before it is read.
  std::string_view input;
  // Per open link: was an <a> written (false: the target was refused)?
  std::vector<bool> links;
  int image_depth = 0;  // inside an image, only its alt text is written

  void open_block(MD_BLOCKTYPE type, void* detail) {
    switch (type) {
      case MD_BLOCK_DOC: break;
      case MD_BLOCK_QUOTE: out += "<blockquote>\n"; break;
      case MD_BLOCK_UL: out += "<ul>\n"; break;
      case MD_BLOCK_OL: {
        const auto* ol = static_cast<const MD_BLOCK_OL_DETAIL*>(detail);
        if (ol->start == 1) {
          out += "<ol>\n";
        } else {
          out += "<ol start=\"" + std::to_string(ol->start) + "\">\n";
        }
        break;
      }
      case MD_BLOCK_LI: {
        const auto* li = static_cast<const MD_BLOCK_LI_DETAIL*>(detail);
        if (li->is_task) {
          out += "<li class=\"task\"><input type=\"checkbox\" disabled";
          out += (li->task_mark == 'x' || li->task_mark == 'X') ? " checked>" : ">";
        } else {
          out += "<li>";
        }
        break;
      }
      case MD_BLOCK_HR: out += "<hr>\n"; break;
      case MD_BLOCK_H:
        out += "<h" + std::to_string(static_cast<const MD_BLOCK_H_DETAIL*>(detail)->level) + ">";
        break;
      case MD_BLOCK_CODE: {
        const auto* code = static_cast<const MD_BLOCK_CODE_DETAIL*>(detail);
        std::string lang(code->lang.text != nullptr ? std::string_view(code->lang.text, code->lang.size)
                                                    : std::string_view{});
        // A class name from the fence's info string: letters, digits, - + _ only.
        std::erase_if(lang, [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '-' && c != '+' && c != '_';
        });
        out += lang.empty() ? "<pre><code>" : "<pre><code class=\"language-" + lang + "\">";
        break;
      }
      case MD_BLOCK_HTML: out += "<p>"; break;  // unreachable with MD_FLAG_NOHTML; text if it ever comes
      case MD_BLOCK_P: out += "<p>"; break;
      case MD_BLOCK_TABLE: out += "<table>\n"; break;
      case MD_BLOCK_THEAD: out += "<thead>\n"; break;
      case MD_BLOCK_TBODY: out += "<tbody>\n"; break;
      case MD_BLOCK_TR: out += "<tr>"; break;
      case MD_BLOCK_TH:
      case MD_BLOCK_TD: {
        out += type == MD_BLOCK_TH ? "<th" : "<td";
        switch (static_cast<const MD_BLOCK_TD_DETAIL*>(detail)->align) {
          case MD_ALIGN_LEFT: out += " class=\"align-left\""; break;
          case MD_ALIGN_CENTER: out += " class=\"align-center\""; break;
          case MD_ALIGN_RIGHT: out += " class=\"align-right\""; break;
          default: break;
        }
        out += '>';
        break;
      }
    }
  }

  void close_block(MD_BLOCKTYPE type, void* detail) {
    switch (type) {
      case MD_BLOCK_DOC: break;
      case MD_BLOCK_QUOTE: out += "</blockquote>\n"; break;
      case MD_BLOCK_UL: out += "</ul>\n"; break;
      case MD_BLOCK_OL: out += "</ol>\n"; break;
      case MD_BLOCK_LI: out += "</li>\n"; break;
      case MD_BLOCK_HR: break;
      case MD_BLOCK_H:
        out += "</h" + std::to_string(static_cast<const MD_BLOCK_H_DETAIL*>(detail)->level) + ">\n";
        break;
      case MD_BLOCK_CODE: out += "</code></pre>\n"; break;
      case MD_BLOCK_HTML:
      case MD_BLOCK_P: out += "</p>\n"; break;
      case MD_BLOCK_TABLE: out += "</table>\n"; break;
      case MD_BLOCK_THEAD: out += "</thead>\n"; break;
      case MD_BLOCK_TBODY: out += "</tbody>\n"; break;
      case MD_BLOCK_TR: out += "</tr>\n"; break;
      case MD_BLOCK_TH: out += "</th>"; break;
      case MD_BLOCK_TD: out += "</td>"; break;
    }
  }

  void open_span(MD_SPANTYPE type, void* detail) {
    if (image_depth > 0) {
      if (type == MD_SPAN_IMG) {
        ++image_depth;
      }
      return;
    }
    switch (type) {
      case MD_SPAN_EM: out += "<em>"; break;
      case MD_SPAN_STRONG: out += "<strong>"; break;
      case MD_SPAN_CODE: out += "<code>"; break;
      case MD_SPAN_DEL: out += "<del>"; break;
      case MD_SPAN_U: out += "<u>"; break;
      case MD_SPAN_A: {
        const auto* a = static_cast<const MD_SPAN_A_DETAIL*>(detail);
        std::string href;
        const bool usable = decode_attribute(a->href, href) && is_safe_link_target(href);
        links.push_back(usable);
        if (usable) {
          out += "<a href=\"";
          append_escaped(out, href);
          out += "\" rel=\"noopener noreferrer nofollow\">";
        }
        break;
      }
      case MD_SPAN_IMG:
        image_depth = 1;
        out += "<span class=\"md-image\">";
        break;
      default: break;  // LaTeX and wiki links are not enabled
    }
  }

  void close_span(MD_SPANTYPE type) {
    if (image_depth > 0) {
      if (type == MD_SPAN_IMG && --image_depth == 0) {
        out += "</span>";
      }
      return;
    }
    switch (type) {
      case MD_SPAN_EM: out += "</em>"; break;
      case MD_SPAN_STRONG: out += "</strong>"; break;
      case MD_SPAN_CODE: out += "</code>"; break;
      case MD_SPAN_DEL: out += "</del>"; break;
      case MD_SPAN_U: out += "</u>"; break;
      case MD_SPAN_A:
        if (!links.empty()) {
          if (links.back()) {
            out += "</a>";
          }
          links.pop_back();
        }
        break;
      default: break;
    }
  }

  // A span that starts inside the input, cut at the input's end (see
  // `input`). Spans elsewhere are md4c's own constants (the "\n" and the
  // indentation of code lines) and pass unchanged.
  std::string_view clamped(const char* text, std::size_t size) const {
    const auto at = reinterpret_cast<std::uintptr_t>(text);
    const auto begin = reinterpret_cast<std::uintptr_t>(input.data());
    const auto end = begin + input.size();
    if (at < begin || at > end) {
      return std::string_view(text, size);
    }
    return std::string_view(text, std::min<std::size_t>(size, end - at));
  }

  void text(MD_TEXTTYPE type, std::string_view text) {
    switch (type) {
      case MD_TEXT_NULLCHAR: out += "\xEF\xBF\xBD"; break;  // U+FFFD
      case MD_TEXT_BR: out += image_depth > 0 ? " " : "<br>\n"; break;
      case MD_TEXT_SOFTBR: out += image_depth > 0 ? " " : "\n"; break;
      case MD_TEXT_ENTITY: append_entity(out, text); break;
      default: append_escaped(out, text); break;  // normal, code, and raw "HTML" shown as text
    }
  }
};

}  // namespace

bool is_safe_link_target(std::string_view url) {
  if (url.empty()) {
    return false;
  }
  // Browsers drop tabs and newlines inside a URL and trim spaces and
  // controls around it, so "java\tscript:" is javascript: to them. Refuse
  // any such byte instead of guessing how a browser would read it.
  for (const char c : url) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == 0x7f || c == '\\') {
      return false;
    }
  }
  // The scheme, when there is one, ends at the first ':' that comes before
  // any '/', '?' or '#'.
  const std::size_t colon = url.find(':');
  const std::size_t delimiter = url.find_first_of("/?#");
  if (colon == std::string_view::npos || (delimiter != std::string_view::npos && delimiter < colon)) {
    return true;  // relative: a path, a query or a fragment
  }
  std::string scheme(url.substr(0, colon));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return scheme == "http" || scheme == "https" || scheme == "mailto";
}

std::string render_markdown_html(std::string_view markdown) {
  Renderer renderer;
  renderer.out.reserve(markdown.size() + markdown.size() / 4);
  MD_PARSER parser{};
  parser.abi_version = 0;
  // GitHub's tables, strikethrough and task lists; not its permissive
  // autolinks, which run a bare URL on through quotes and brackets of the
  // text around it (`url(http://h/x)">text` became one link). <http://…>
  // autolinks and [text](url) links still work.
  parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS | MD_FLAG_NOHTML;
  parser.enter_block = [](MD_BLOCKTYPE type, void* detail, void* self) {
    static_cast<Renderer*>(self)->open_block(type, detail);
    return 0;
  };
  parser.leave_block = [](MD_BLOCKTYPE type, void* detail, void* self) {
    static_cast<Renderer*>(self)->close_block(type, detail);
    return 0;
  };
  parser.enter_span = [](MD_SPANTYPE type, void* detail, void* self) {
    static_cast<Renderer*>(self)->open_span(type, detail);
    return 0;
  };
  parser.leave_span = [](MD_SPANTYPE type, void*, void* self) {
    static_cast<Renderer*>(self)->close_span(type);
    return 0;
  };
  parser.text = [](MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* self) {
    auto* writer = static_cast<Renderer*>(self);
    writer->text(type, writer->clamped(text, size));
    return 0;
  };
  // md4c gets a copy with zero bytes after its end, so a read one past the
  // end (the bug above) lands in memory we own.
  std::string padded;
  padded.reserve(markdown.size() + 16);
  padded.assign(markdown);
  padded.append(16, '\0');
  renderer.input = std::string_view(padded.data(), markdown.size());
  if (md_parse(padded.data(), static_cast<MD_SIZE>(markdown.size()), &parser, &renderer) != 0) {
    // md4c failed (out of memory): show the text, escaped, rather than nothing.
    std::string fallback = "<pre>";
    append_escaped(fallback, markdown);
    return fallback + "</pre>";
  }
  return std::move(renderer.out);
}

}  // namespace skillrt::web
