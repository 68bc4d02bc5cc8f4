// Skill Markdown → HTML that is safe to put into the web UI's page.
//
// md4c (Debian's libmd4c) parses; this file writes the HTML itself, because
// md4c-html copies raw HTML and any link target through unchanged. The
// rules, which hold for any input:
//   - raw HTML is never markup: md4c is run with MD_FLAG_NOHTML, so `<script>`
//     or `<img onerror=…>` reaches the page as visible text;
//   - a link keeps its target only when it is http(s), mailto, a fragment or
//     a relative path without a scheme; any other (javascript:, data:, vbscript:,
//     a target with control characters or spaces) becomes plain text;
//   - images are never loaded: an image becomes its alt text, so a skill
//     cannot make the reader's browser call out (a tracking beacon);
//   - no style attribute is written (table alignment is a class), and every
//     attribute value is quoted and escaped.
// The page's CSP (no inline script or style) is a second wall behind this one.
#pragma once

#include <string>
#include <string_view>

namespace skillrt::web {

// The Markdown body (no frontmatter) as an HTML fragment.
std::string render_markdown_html(std::string_view markdown);

// True when `url` may be a link target in rendered skill content.
bool is_safe_link_target(std::string_view url);

}  // namespace skillrt::web
