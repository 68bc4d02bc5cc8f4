// The one table renderer of the text output (`list`, `check`, `audit`,
// `update`): a header row, columns padded to their widest cell, the last
// column taking what is left of the table's width.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace skillrt::protocol {

struct TableColumn {
  std::string header;
  std::size_t max_width = 0; // cells wider than this are cut with "..." (0 = no cap); ignored for the last column
};

// Renders `rows` (each with one cell per column) under the header, at most
// `table_width` code points per line where the columns allow it. Every cell is
// made single-line and terminal-safe first (newlines and tabs become spaces,
// other control characters visible escapes), so a cell can neither break the
// layout nor drive the terminal. `color` makes the header bold.
std::string render_table(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows,
                         bool color, std::size_t table_width = 100);

} // namespace skillrt::protocol
