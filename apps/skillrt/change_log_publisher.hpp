// The CLI's side of the shared change log (issue 4/6): a one-shot command
// pointed at a PostgreSQL database (--db or database.url) that writes a
// skill, a row, a proposal or an install appends its change event to the log
// there, so every `skillrt serve` replica over that database tells its
// clients, exactly as if a replica had made the write. The log is opened on
// the first event only: reads never connect for it.
#pragma once

#include <memory>
#include <string>

#include "core/events/change_log.hpp"
#include "core/events/event_bus.hpp"

namespace skillrt::app {

class ChangeLogPublisher {
 public:
  explicit ChangeLogPublisher(std::string location);
  ChangeLogPublisher(const ChangeLogPublisher&) = delete;
  ChangeLogPublisher& operator=(const ChangeLogPublisher&) = delete;

  // The bus to put in the command's Context: what is published there is appended to the log.
  core::EventBus& bus() { return m_bus; }

 private:
  std::string m_location;
  std::unique_ptr<core::ChangeLog> m_log;
  bool m_failed = false;  // warned once; later events of this run are not retried
  core::EventBus m_bus;
};

}  // namespace skillrt::app
