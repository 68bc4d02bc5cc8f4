// The LISTEN side of the PostgreSQL change log (postgres_change_log.hpp): one
// dedicated connection per replica, waited on with poll(2) beside an eventfd
// that interrupt() writes, so the relay's thread stops at once on shutdown.
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <string>

#include "core/files/unique_fd.hpp"
#include "skillrt/try.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/postgres_change_log.hpp"

namespace skillrt::store {
namespace {

class PostgresChangeSignal final : public core::ChangeSignal {
 public:
  PostgresChangeSignal(std::string url, core::files::UniqueFd wake) : m_url(std::move(url)), m_wake(std::move(wake)) {}

  Result<void> connect() override {
    m_db.reset();
    auto connection = pg::Connection::open(m_url);
    if (!connection) {
      return tl::unexpected(connection.error());
    }
    SKILLRT_TRY(connection->exec((std::string("LISTEN ") + k_change_channel).c_str()));
    m_db.emplace(std::move(*connection));
    return {};
  }

  Result<bool> wait(std::chrono::milliseconds timeout) override {
    if (!m_db) {
      return fail(ErrorCode::io_error, "PostgreSQL: the change listener is not connected");
    }
    // Notifications that arrived with an earlier read are already buffered.
    SKILLRT_TRY_ASSIGN(auto early, m_db->take_notifications());
    if (!early.empty()) {
      return true;
    }
    pollfd fds[2] = {{m_db->socket(), POLLIN, 0}, {m_wake.get(), POLLIN, 0}};
    const int ready = ::poll(fds, 2, static_cast<int>(timeout.count()));
    if (ready < 0 && errno != EINTR) {
      return fail(ErrorCode::io_error, "poll on the change listener failed");
    }
    if (ready <= 0) {
      return false;
    }
    if ((fds[1].revents & POLLIN) != 0) {
      eventfd_t drained = 0;
      eventfd_read(m_wake.get(), &drained);
      return true;
    }
    // Readable: a notification, or the server closing the connection (a
    // restart), which take_notifications reports as an error.
    SKILLRT_TRY_ASSIGN(auto payloads, m_db->take_notifications());
    return !payloads.empty();
  }

  void interrupt() override { eventfd_write(m_wake.get(), 1); }

 private:
  std::string m_url;
  core::files::UniqueFd m_wake;
  std::optional<pg::Connection> m_db;
};

}  // namespace

Result<std::unique_ptr<core::ChangeSignal>> make_postgres_change_signal(const std::string& url) {
  core::files::UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake) {
    return fail(ErrorCode::io_error, "cannot create the change listener's wake-up descriptor");
  }
  return std::unique_ptr<core::ChangeSignal>(std::make_unique<PostgresChangeSignal>(url, std::move(wake)));
}

}  // namespace skillrt::store
