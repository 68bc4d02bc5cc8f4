#include "web/markdown_html.hpp"

#include <gtest/gtest.h>

#include <string>

namespace skillrt::web {
namespace {

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST(MarkdownHtml, RendersCommonMarkAndGithubTables) {
  const std::string html = render_markdown_html(
      "# Title\n\nSome *em* and **strong** and `code`.\n\n- one\n- two\n\n```bash\necho hi\n```\n\n"
      "| a | b |\n| :-- | --: |\n| 1 | 2 |\n\n- [x] done\n");
  EXPECT_TRUE(contains(html, "<h1>Title</h1>"));
  EXPECT_TRUE(contains(html, "<em>em</em>"));
  EXPECT_TRUE(contains(html, "<strong>strong</strong>"));
  EXPECT_TRUE(contains(html, "<code>code</code>"));
  EXPECT_TRUE(contains(html, "<li>one</li>"));
  EXPECT_TRUE(contains(html, "<pre><code class=\"language-bash\">echo hi\n</code></pre>"));
  EXPECT_TRUE(contains(html, "<th class=\"align-left\">a</th><th class=\"align-right\">b</th>")) << html;
  EXPECT_TRUE(contains(html, "<input type=\"checkbox\" disabled checked>"));
  EXPECT_FALSE(contains(html, "style=")) << html;
}

TEST(MarkdownHtml, RawHtmlIsShownAsTextNeverAsMarkup) {
  const std::string html = render_markdown_html(
      "<script>window.__pwned=1</script>\n\nText <img src=x onerror=\"window.__pwned=3\"> and "
      "<iframe src=\"data:text/html,x\"></iframe>\n\n<div style=\"background:url(http://h/b)\">x</div>\n");
  EXPECT_FALSE(contains(html, "<script"));
  EXPECT_FALSE(contains(html, "<img"));
  EXPECT_FALSE(contains(html, "<iframe"));
  EXPECT_FALSE(contains(html, "<div"));
  EXPECT_TRUE(contains(html, "&lt;div style=&quot;background:url(http://h/b)&quot;&gt;"));
  EXPECT_TRUE(contains(html, "&lt;script&gt;window.__pwned=1&lt;/script&gt;"));
  EXPECT_TRUE(contains(html, "onerror=&quot;window.__pwned=3&quot;"));
}

TEST(MarkdownHtml, KeepsOnlySafeLinkTargets) {
  const std::string html = render_markdown_html(
      "[web](https://example.org/a?b=1&c=2) [mail](mailto:a@example.org) [rel](references/api.md) [frag](#usage) "
      "[js](javascript:alert(1)) [JS](JaVaScRiPt:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) "
      "[vb](vbscript:x) [file](file:///etc/passwd) <javascript:alert(2)>\n");
  EXPECT_TRUE(contains(html, "<a href=\"https://example.org/a?b=1&amp;c=2\" rel=\"noopener noreferrer nofollow\">web</a>"));
  EXPECT_TRUE(contains(html, "href=\"mailto:a@example.org\""));
  EXPECT_TRUE(contains(html, "href=\"references/api.md\""));
  EXPECT_TRUE(contains(html, "href=\"#usage\""));
  // The refused links keep their text and lose their target.
  for (const char* gone : {"javascript:", "JaVaScRiPt:", "data:", "vbscript:", "file:"}) {
    EXPECT_FALSE(contains(html, std::string("href=\"") + gone)) << gone;
  }
  EXPECT_TRUE(contains(html, " js "));
  EXPECT_TRUE(contains(html, " data "));
}

TEST(MarkdownHtml, ImagesBecomeTheirAltTextAndAreNeverLoaded) {
  const std::string html = render_markdown_html("![a *beacon*](http://127.0.0.1:9/beacon.png \"t\")\n");
  EXPECT_FALSE(contains(html, "<img"));
  EXPECT_FALSE(contains(html, "127.0.0.1"));
  EXPECT_TRUE(contains(html, "<span class=\"md-image\">a beacon</span>"));
}

TEST(MarkdownHtml, AttributesCannotBeBrokenOutOf) {
  const std::string html = render_markdown_html("[x](https://a.example/\"onmouseover=\"alert(1)) [y](<https://b.example/'x'>)\n");
  EXPECT_FALSE(contains(html, "\"onmouseover"));
  EXPECT_FALSE(contains(html, "'x'"));
  const std::string code = render_markdown_html("```a\" onclick=\"x\nbody\n```\n");
  EXPECT_FALSE(contains(code, "onclick"));
}

TEST(SafeLinkTarget, SchemesAndControlCharacters) {
  EXPECT_TRUE(is_safe_link_target("https://example.org"));
  EXPECT_TRUE(is_safe_link_target("HTTP://example.org"));
  EXPECT_TRUE(is_safe_link_target("docs/guide.md"));
  EXPECT_TRUE(is_safe_link_target("./a:b"));  // the colon comes after a slash: a path
  EXPECT_TRUE(is_safe_link_target("?q=1"));
  EXPECT_FALSE(is_safe_link_target(""));
  EXPECT_FALSE(is_safe_link_target("javascript:alert(1)"));
  EXPECT_FALSE(is_safe_link_target("java\tscript:alert(1)"));
  EXPECT_FALSE(is_safe_link_target(" javascript:alert(1)"));
  EXPECT_FALSE(is_safe_link_target("java\nscript:alert(1)"));
  EXPECT_FALSE(is_safe_link_target("data:text/html,x"));
  EXPECT_FALSE(is_safe_link_target("a:b"));
  EXPECT_FALSE(is_safe_link_target("\\\\evil.example/share"));
}

TEST(MarkdownHtml, HostileInputStaysBoundedAndWellFormed) {
  // Deep nesting and an unclosed fence: md4c copes; the output stays escaped.
  std::string deep(5000, '>');
  deep += " <b>x</b>\n";
  const std::string html = render_markdown_html(deep + std::string(3000, '[') + "\n```\n<script>\n");
  EXPECT_FALSE(contains(html, "<script"));
  EXPECT_FALSE(contains(html, "<b>"));
  EXPECT_EQ(render_markdown_html(std::string("a\0b", 3)), "<p>a\xEF\xBF\xBD" "b</p>\n");
}

TEST(MarkdownHtml, ASpanMd4cEndsPastTheInputIsCutAtTheEnd) {
  // Found by tests/fuzz/markdown_html_fuzz.cpp: md4c 0.4.8 hands this input's
  // last text span one byte too long. Under ASan, reading it was a heap overflow.
  const std::string input(
      "\x23\x20\x54\x69\x74\x6c\x65\x08\x3e\x97\x68\x69\x2d\x40\xda\x00\xac\x97\x28\x92\x22\x0a\x60\x60"
      "\x60\x00\x2d\x00\x00\xac\x97\x28\x69\x22\x61\x3a\x2d\x40\xda\x00\xac\x97\x28\x69\x22\x0a\x60\x60"
      "\x60\x0a\x08\x3e\x97\x68\x69\x92\x22\x0a\x60\x60\x60\x00\x2d\x00\x34\x34\x34\x34\x34\x34\xda\x00"
      "\xac\x97\x28\x69\x22\x61\x3a\x2d\x40\xda\x00\xac\x97\x28\x69\x22\x0a\x60\x60\x60\x0a\x08\x3e\x97"
      "\x68\x69\x92\x22\x00\x00\x00\x00\x00\x5b\x78\x5d\x28\x6a\x61\x38\x38\x38",
      114);
  const std::string html = render_markdown_html(input);
  EXPECT_FALSE(contains(html, std::string(1, '\0')));
  EXPECT_TRUE(contains(html, "<pre><code")) << html;
}

}  // namespace
}  // namespace skillrt::web
