// The terminal progress line (see progress_line.hpp).
#include "progress_line.hpp"

#include <unistd.h>

#include <cstdio>

namespace skillrt::app {
namespace {

// Redraws closer together than this are skipped (updates arrive per entry).
constexpr auto k_redraw_interval = std::chrono::milliseconds(50);

} // namespace

ProgressLine::ProgressLine(bool json) : m_enabled(!json && ::isatty(STDERR_FILENO) == 1) {}

ProgressLine::~ProgressLine() {
  finish();
}

void ProgressLine::update(std::string_view phase, std::uint64_t done, std::uint64_t total) {
  if (!m_enabled) {
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  const bool final_step = total != 0 && done >= total;
  if (phase == m_phase && !final_step && now - m_last < k_redraw_interval) {
    return;
  }
  m_phase.assign(phase);
  m_last = now;
  std::string line = std::string(phase) + " " + std::to_string(done);
  if (total != 0) {
    line += "/" + std::to_string(total);
  }
  const std::size_t width = line.size();
  if (width < m_width) {
    line.append(m_width - width, ' ');
  }
  m_width = width;
  std::fprintf(stderr, "\r%s", line.c_str());
  std::fflush(stderr);
}

void ProgressLine::finish() {
  if (!m_enabled || m_width == 0) {
    return;
  }
  std::fprintf(stderr, "\r%s\r", std::string(m_width, ' ').c_str());
  std::fflush(stderr);
  m_width = 0;
  m_phase.clear();
}

} // namespace skillrt::app
