// Fuzzes the guard's content scan (threat patterns through the per-line
// context rules, Unicode smuggling) and its dismissal-file parser. The first
// input byte picks the file name, so the language rules (Markdown fences,
// comment styles) all get exercised. Any crash, sanitizer report or broken
// invariant (abort) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/guard/dismissals.hpp"
#include "core/guard/guard.hpp"
#include "core/limits.hpp"

namespace {

void check(bool condition) {
  if (!condition) {
    std::abort();
  }
}

constexpr std::string_view k_names[] = {"SKILL.md",    "references/a.md", "scripts/run.sh", "scripts/tool.py",
                                        "config.yaml", "lib/x.js",        "setup.cfg",      "page.html"};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string_view name = k_names[data[0] % (sizeof(k_names) / sizeof(k_names[0]))];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  std::size_t lines = 1;
  for (const char c : text) {
    lines += c == '\n' ? 1 : 0;
  }
  const auto findings = skillrt::core::scan_text(name, text);
  for (const skillrt::core::GuardFinding& f : findings) {
    check(f.file == name);
    check(f.line >= 1 && f.line <= lines);
    check(f.column >= 1 && f.column <= text.size() + 1);
    check(!f.pattern_id.empty());
    // Snippets are at most 120 code points (<= 4 bytes each) plus dots.
    check(f.snippet.size() <= 4 * skillrt::limits::k_guard_snippet_chars + 6);
  }
  (void)skillrt::core::verdict_for(findings);

  auto dismissals = skillrt::core::parse_dismissal_file(text, "fuzz", (data[0] & 1) != 0);
  if (dismissals) {
    for (const auto& rule : dismissals->rules) {
      check(!rule.id.empty() && !rule.reason.empty());
    }
  }
  return 0;
}
