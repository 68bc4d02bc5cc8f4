#include "core/validate/render_text.hpp"

#include <cstdint>

#include "core/validate/text_units.hpp"

namespace skillrt::core {

namespace {

constexpr std::size_t k_max_shown_columns = 160; // longer source lines are shown as a window
constexpr std::size_t k_context_before = 40;     // code points kept before the caret in a window

constexpr std::string_view k_reset = "\x1b[0m";
constexpr std::string_view k_bold = "\x1b[1m";
constexpr std::string_view k_red = "\x1b[1;31m";
constexpr std::string_view k_magenta = "\x1b[1;35m";
constexpr std::string_view k_cyan = "\x1b[1;36m";
constexpr std::string_view k_green = "\x1b[1;32m";

std::string_view severity_color(Severity severity) {
  switch (severity) {
  case Severity::error:
    return k_red;
  case Severity::warning:
    return k_magenta;
  case Severity::info:
    return k_cyan;
  }
  return k_red;
}

// Control characters from a hostile file must not reach the terminal.
char32_t printable(char32_t c) {
  return (c < 0x20 && c != U'\t') || c == 0x7F || (c >= 0x80 && c < 0xA0) ? U'?' : c;
}

std::string printable_text(std::string_view text) {
  std::u32string cps = decode_utf8(text);
  for (char32_t& c : cps) {
    c = printable(c);
  }
  return encode_utf8(cps);
}

std::string plural(std::size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

} // namespace

std::string render_finding_text(const Finding& finding, bool color) {
  auto paint = [&](std::string_view code, std::string_view text) {
    return color ? std::string(code) + std::string(text) + std::string(k_reset) : std::string(text);
  };
  std::string location = printable_text(finding.path);
  if (finding.pos.line != 0) {
    location += ":" + std::to_string(finding.pos.line);
    if (finding.pos.column != 0) {
      location += ":" + std::to_string(finding.pos.column);
    }
  }
  std::string out = paint(k_bold, location + ":") + " " +
                    paint(severity_color(finding.severity), std::string(severity_name(finding.severity)) + ":") + " " +
                    printable_text(finding.message) + " [" + finding.rule_id + "]\n";
  if (finding.pos.line == 0 || finding.source_line.empty()) {
    return out;
  }
  std::u32string line = decode_utf8(finding.source_line);
  for (char32_t& c : line) {
    c = printable(c);
  }
  std::size_t caret = finding.pos.column == 0 ? 0 : static_cast<std::size_t>(finding.pos.column - 1);
  if (caret > line.size()) {
    caret = line.size();
  }
  std::u32string shown = line;
  std::size_t caret_in_shown = caret;
  if (line.size() > k_max_shown_columns) {
    std::size_t start = caret > k_context_before ? caret - k_context_before : 0;
    std::size_t width = k_max_shown_columns - 6;
    shown = line.substr(start, width);
    caret_in_shown = caret - start;
    if (start > 0) {
      shown = U"..." + shown;
      caret_in_shown += 3;
    }
    if (start + width < line.size()) {
      shown += U"...";
    }
  }
  std::string pad;
  for (std::size_t i = 0; i < caret_in_shown && i < shown.size(); ++i) {
    pad += shown[i] == U'\t' ? '\t' : ' ';
  }
  out += "  " + encode_utf8(shown) + "\n";
  if (finding.pos.column != 0) {
    out += "  " + pad + paint(k_green, "^") + "\n";
  }
  return out;
}

std::string render_validation_text(const std::vector<ValidationReport>& reports, bool color) {
  std::string out;
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t infos = 0;
  std::size_t valid = 0;
  for (const ValidationReport& report : reports) {
    for (const Finding& finding : report.findings) {
      out += render_finding_text(finding, color);
    }
    errors += report.count(Severity::error);
    warnings += report.count(Severity::warning);
    infos += report.count(Severity::info);
    valid += report.valid() ? 1 : 0;
  }
  std::string summary = plural(reports.size(), "skill") + " checked: " + std::to_string(valid) + " valid, " +
                        std::to_string(reports.size() - valid) + " invalid (" + plural(errors, "error") + ", " +
                        plural(warnings, "warning");
  if (infos > 0) {
    summary += ", " + std::to_string(infos) + " info";
  }
  summary += ")";
  if (color) {
    summary = std::string(valid == reports.size() ? k_green : k_red) + summary + std::string(k_reset);
  }
  out += summary + "\n";
  return out;
}

} // namespace skillrt::core
