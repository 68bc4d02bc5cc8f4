// The one place text output is made terminal-safe: while a TerminalSafeOutput
// lives, everything written to std::cout (text mode) and std::cerr passes
// through core::terminal_safe (multi-line layout), so no command, renderer or
// error message can hand a skill's ESC/CSI/OSC sequence to the user's
// terminal, however it writes its text.
#pragma once

#include <memory>
#include <string_view>

namespace skillrt::app {

class TerminalSafeOutput {
public:
  // Filters std::cerr always and std::cout unless `json_stdout`: --json output
  // and `mcp`'s JSON-RPC are JSON, which escapes control characters itself and
  // must stay byte-exact.
  // No styles pass until allow_styles(true).
  explicit TerminalSafeOutput(bool json_stdout);
  // Writes out anything held back and puts the original stream buffers back.
  ~TerminalSafeOutput();

  // With `colour` (stdout is a terminal, NO_COLOR unset) stdout lets through
  // exactly the SGR sequences skillrt's own renderers use (bold, red, green,
  // magenta, cyan, reset): they can style text but never move the cursor,
  // clear, retitle or query the terminal. Every other ESC is still escaped.
  void allow_styles(bool colour);

  TerminalSafeOutput(const TerminalSafeOutput&) = delete;
  TerminalSafeOutput& operator=(const TerminalSafeOutput&) = delete;

private:
  class Filter;
  std::unique_ptr<Filter> m_stdout;
  std::unique_ptr<Filter> m_stderr;
};

} // namespace skillrt::app
