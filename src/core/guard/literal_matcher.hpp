// A multi-literal matcher (Aho-Corasick, compiled to a dense DFA over byte
// classes) for the scanner's pre-filter: one linear pass over a file reports
// which literals occur on which line. ASCII letters match case-insensitively,
// as do U+017F (long s) and U+212A (Kelvin sign), which RE2's case folding
// equates with "s" and "k".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skillrt::core {

class LiteralMatcher {
public:
  // `literals` must be non-empty, lower-case ASCII, without "\n".
  explicit LiteralMatcher(const std::vector<std::string>& literals);

  // Calls on_hit(line_index, literal_index) for every occurrence (0-based
  // line index; lines end at "\n"). The same literal may be reported more
  // than once per line.
  template <typename OnHit> void scan(std::string_view text, OnHit&& on_hit) const;

  std::size_t state_count() const { return m_outputs.size(); }

private:
  static constexpr std::uint32_t k_no_output = 0xFFFFFFFFu;
  // Set on a transition whose target state reports literals, so the scan
  // loop needs no second lookup for the (many) states that report none.
  static constexpr std::uint32_t k_has_output = 0x80000000u;
  std::uint16_t m_class[256] = {};
  std::uint32_t m_classes = 1;
  std::vector<std::uint32_t> m_next;        // state * m_classes + class → state (| k_has_output)
  std::vector<std::uint32_t> m_outputs;     // state → first output index, or k_no_output
  std::vector<std::uint32_t> m_out_literal; // output index → literal
  std::vector<std::uint32_t> m_out_next;    // output index → next output index, or k_no_output
};

template <typename OnHit> void LiteralMatcher::scan(std::string_view text, OnHit&& on_hit) const {
  std::uint32_t state = 0;
  std::size_t line = 0;
  const std::uint32_t classes = m_classes;
  const std::uint32_t* next = m_next.data();
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char b = bytes[i];
    std::uint32_t cls = m_class[b];
    if (cls >= classes) {
      // Rare bytes: a line break, or the lead byte of a character that folds to ASCII.
      if (b == '\n') {
        ++line;
        state = 0;
        continue;
      }
      if (b == 0xC5 && i + 1 < n && bytes[i + 1] == 0xBF) {
        b = 's';
        ++i;
      } else if (b == 0xE2 && i + 2 < n && bytes[i + 1] == 0x84 && bytes[i + 2] == 0xAA) {
        b = 'k';
        i += 2;
      }
      cls = m_class[b] >= classes ? 0 : m_class[b];
    }
    state = next[state * classes + cls];
    if ((state & k_has_output) != 0) {
      state &= ~k_has_output;
      for (std::uint32_t out = m_outputs[state]; out != k_no_output; out = m_out_next[out]) {
        on_hit(line, m_out_literal[out]);
      }
    }
  }
}

} // namespace skillrt::core
