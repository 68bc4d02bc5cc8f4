#include "change_log_publisher.hpp"

#include <iostream>
#include <utility>

#include "store/open_store.hpp"

namespace skillrt::app {

ChangeLogPublisher::ChangeLogPublisher(std::string location) : m_location(std::move(location)) {
  // A one-shot command publishes from its own thread, one event at a time.
  m_bus.set_forwarder([this](core::SkillEvent event) -> std::uint64_t {
    if (m_failed) {
      return 0;
    }
    if (!m_log) {
      auto opened = store::open_change_log(m_location);
      if (!opened || !*opened) {
        m_failed = true;
        std::cerr << "skillrt: warning: the change was made, but the shared change log could not be opened ("
                  << (opened ? std::string("not a PostgreSQL database") : opened.error().message)
                  << "): running servers see file changes at their next sweep\n";
        return 0;
      }
      m_log = std::move(*opened);
    }
    auto appended = m_log->append(event, event.dedupe_key);
    if (!appended) {
      m_failed = true;
      std::cerr << "skillrt: warning: the change was made, but could not be added to the shared change log ("
                << appended.error().message << ")\n";
      return 0;
    }
    return *appended;
  });
}

}  // namespace skillrt::app
