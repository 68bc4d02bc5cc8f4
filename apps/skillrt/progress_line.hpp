// The one progress line of long hub work (fetch, extract, scan, install,
// sync): `\r<phase> <done>/<total>` redrawn on stderr, only when stderr is a
// terminal and the command is not in --json mode, and cleared at finish().
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/hub/fetcher.hpp"

namespace skillrt::app {

class ProgressLine final : public core::hub::Progress {
public:
  // Draws only when `json` is false and stderr is a TTY (isatty).
  explicit ProgressLine(bool json);
  ~ProgressLine() override;
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void update(std::string_view phase, std::uint64_t done, std::uint64_t total) override;
  void finish() override;

  bool enabled() const { return m_enabled; }

private:
  bool m_enabled = false;
  std::size_t m_width = 0; // characters drawn last, so the clear covers them
  std::string m_phase;
  std::chrono::steady_clock::time_point m_last{};
};

} // namespace skillrt::app
