#include "protocol/text_table.hpp"

#include <algorithm>
#include <string_view>

#include "core/util/terminal_text.hpp"

namespace skillrt::protocol {

namespace {

constexpr std::string_view k_bold = "\x1b[1m";
constexpr std::string_view k_reset = "\x1b[0m";
constexpr std::string_view k_gap = "  ";

// Code points, which is what a terminal shows for the text we print (wide
// CJK characters excepted).
std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// The cell as one line: newlines, CRs and tabs become spaces (a description
// written as a YAML block reads as one sentence), then every other control is escaped.
std::string flatten(std::string_view text) {
  std::string flat(text);
  std::replace_if(
      flat.begin(), flat.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  return core::terminal_safe(flat, core::TerminalLayout::single_line);
}

// At most `width` code points; a cut ends in "...".
std::string fit(const std::string& text, std::size_t width) {
  if (display_width(text) <= width) {
    return text;
  }
  const std::size_t keep = width > 3 ? width - 3 : 0;
  std::size_t chars = 0;
  std::size_t cut = text.size();
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (chars == keep) {
        cut = i;
        break;
      }
      ++chars;
    }
  }
  return text.substr(0, cut) + std::string("...").substr(0, width - keep);
}

std::string pad(const std::string& text, std::size_t width) {
  const std::size_t shown = display_width(text);
  return shown >= width ? text : text + std::string(width - shown, ' ');
}

} // namespace

std::string render_table(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows,
                         bool color, std::size_t table_width) {
  if (columns.empty()) {
    return {};
  }
  const std::size_t last = columns.size() - 1;
  std::vector<std::vector<std::string>> cells;
  cells.reserve(rows.size());
  for (const auto& row : rows) {
    std::vector<std::string> flat;
    flat.reserve(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) {
      flat.push_back(c < row.size() ? flatten(row[c]) : std::string());
    }
    cells.push_back(std::move(flat));
  }
  std::vector<std::size_t> widths(columns.size());
  std::size_t used = 0;
  for (std::size_t c = 0; c < last; ++c) {
    widths[c] = display_width(columns[c].header);
    for (const auto& row : cells) {
      const std::size_t shown = display_width(row[c]);
      widths[c] = std::max(widths[c], columns[c].max_width == 0 ? shown : std::min(shown, columns[c].max_width));
    }
    used += widths[c] + k_gap.size();
  }
  // The last column gets the rest of the line, and never less than 10.
  widths[last] = used + 10 < table_width ? table_width - used : 10;

  const auto line = [&](const std::vector<std::string>& row, bool header) {
    std::string out;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::string cell = header ? row[c] : fit(row[c], widths[c]);
      // No padding after the last cell: lines carry no trailing blanks.
      out += c == last ? cell : pad(cell, widths[c]) + std::string(k_gap);
    }
    return out;
  };
  std::vector<std::string> header;
  header.reserve(columns.size());
  for (const TableColumn& column : columns) {
    header.push_back(column.header);
  }
  std::string out = line(header, true);
  if (color) {
    out = std::string(k_bold) + out + std::string(k_reset);
  }
  out += '\n';
  for (const auto& row : cells) {
    out += line(row, false);
    out += '\n';
  }
  return out;
}

} // namespace skillrt::protocol
