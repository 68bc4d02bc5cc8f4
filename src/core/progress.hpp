// The progress port: long work (fetch, extract, scan, install, sync) reports
// here and the CLI draws one progress line on a terminal (apps/skillrt/
// progress_line). Its own header so that the hub and bundled sync both use it
// without one depending on the other.
#pragma once

#include <cstdint>
#include <string_view>

namespace skillrt::core {

// `phase` is one of "fetch", "extract", "scan", "install", "sync"; `total` 0
// means unknown. Implementations must be cheap: they are called per entry.
class Progress {
 public:
  virtual ~Progress() = default;
  virtual void update(std::string_view phase, std::uint64_t done, std::uint64_t total) = 0;
  // The work is over (successfully or not): clear the line.
  virtual void finish() = 0;
};

}  // namespace skillrt::core
