// `skillrt mcp`: MCP over stdio. Newline-delimited JSON-RPC 2.0: one message
// per line on stdin, one per line on stdout (answers, and notifications from
// the watcher thread, never interleaved); logs only on stderr; exit 0 at EOF.
// The caller is --user/--org; the server does everything else (src/mcp).
#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "command.hpp"
#include "core/events/change_relay.hpp"
#include "core/limits.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/server.hpp"
#include "store/open_store.hpp"

namespace skillrt::app {
namespace {

// stdout shared by the request loop and the notification sink.
class LineWriter {
 public:
  // Writes `message` and a newline, then flushes; false once stdout is gone.
  bool write(std::string_view message) {
    std::lock_guard lock(m_mutex);
    if (m_broken) {
      return false;
    }
    m_broken = !write_all(message) || !write_all("\n");
    return !m_broken;
  }
  bool broken() {
    std::lock_guard lock(m_mutex);
    return m_broken;
  }

 private:
  // Unbuffered: each message leaves the process whole before the lock is released.
  static bool write_all(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t written = ::write(STDOUT_FILENO, bytes.data(), bytes.size());
      if (written < 0) {
        if (errno == EINTR) {
          continue;
        }
        return false;
      }
      bytes.remove_prefix(static_cast<std::size_t>(written));
    }
    return true;
  }

  std::mutex m_mutex;
  bool m_broken = false;
};

// Splits stdin into lines of at most `limit` bytes. A longer line is dropped
// as it streams past (never buffered whole) and reported once its newline
// arrives.
class LineReader {
 public:
  explicit LineReader(std::size_t limit) : m_limit(limit) {}

  // Feeds bytes; calls on_line(line) or on_oversized() per completed line.
  template <typename OnLine, typename OnOversized>
  void feed(std::string_view bytes, OnLine&& on_line, OnOversized&& on_oversized) {
    while (!bytes.empty()) {
      const std::size_t newline = bytes.find('\n');
      const std::string_view piece = bytes.substr(0, newline);
      if (!m_discarding) {
        if (m_line.size() + piece.size() > m_limit) {
          m_discarding = true;
          m_line.clear();
          m_line.shrink_to_fit();
        } else {
          m_line.append(piece);
        }
      }
      if (newline == std::string_view::npos) {
        return;
      }
      finish_line(on_line, on_oversized);
      bytes.remove_prefix(newline + 1);
    }
  }

  // End of input: a last line without its newline still counts.
  template <typename OnLine, typename OnOversized> void finish(OnLine&& on_line, OnOversized&& on_oversized) {
    if (m_discarding || !m_line.empty()) {
      finish_line(on_line, on_oversized);
    }
  }

 private:
  template <typename OnLine, typename OnOversized> void finish_line(OnLine& on_line, OnOversized& on_oversized) {
    if (m_discarding) {
      m_discarding = false;
      on_oversized();
    } else {
      if (!m_line.empty() && m_line.back() == '\r') {
        m_line.pop_back();
      }
      on_line(std::string_view(m_line));
    }
    m_line.clear();
  }

  std::size_t m_limit;
  std::string m_line;
  bool m_discarding = false;
};

class McpCommand final : public Command {
 public:
  const char* name() const override { return "mcp"; }
  const char* summary() const override { return "Serve the skills over MCP on stdin/stdout"; }
  void configure(CLI::App& sub) override {
    sub.add_option("--setup-url", m_setup_url,
                   "The setup page of a `skillrt serve` on the same home (http://HOST:PORT/ui/setup.html): clients "
                   "that support URL elicitation are sent there for a skill's missing secrets");
  }

  Outcome run(const Invocation& inv) override {
    // A client that goes away makes write() fail with EPIPE instead of killing us.
    ::signal(SIGPIPE, SIG_IGN);
    const std::string& location = inv.database_location();
    // Over PostgreSQL this server takes part in the shared change log like a
    // `serve` replica: its writes reach every replica's clients, and every
    // other writer's reach this client (docs/deploy.md).
    std::unique_ptr<core::ChangeLog> log;
    std::unique_ptr<core::ChangeSignal> signal;
    if (store::is_postgres_location(location)) {
      auto opened = store::open_change_log(location);
      auto made = store::make_change_signal(location);
      if (opened && made) {
        log = std::move(*opened);
        signal = std::move(*made);
      } else {
        std::cerr << "skillrt mcp: warning: the shared change log cannot be opened ("
                  << (!opened ? opened.error().message : made.error().message)
                  << "); changes made elsewhere are found by polling the database\n";
      }
    }
    mcp::ServerOptions options;
    options.base = inv.ctx;
    options.config = inv.config;
    options.store = store::store_source(location, inv.ctx);
    options.transport = "stdio";
    options.watch = true;
    options.poll_database = log == nullptr;  // the change log tells of every row written through skillrt
    options.setup_url = m_setup_url;

    auto out = std::make_shared<LineWriter>();
    mcp::Server server(std::move(options));
    std::unique_ptr<core::ChangeRelay> relay;
    if (log) {
      auto started = core::ChangeRelay::start(server.events(), std::move(log), std::move(signal), {});
      if (started) {
        relay = std::move(*started);
      } else {
        std::cerr << "skillrt mcp: warning: " << started.error().message << '\n';
      }
    }
    auto session = server.open_session(mcp::Caller{inv.ctx.user_id, inv.ctx.org_id},
                                       [out](std::string message) { out->write(message); });

    LineReader reader(limits::k_max_mcp_message_bytes);
    const auto on_line = [&](std::string_view line) {
      if (line.find_first_not_of(" \t") == std::string_view::npos) {
        return;  // blank lines between messages are harmless
      }
      if (auto answer = session->handle(line)) {
        out->write(*answer);
      }
    };
    const auto on_oversized = [&]() {
      out->write(mcp::error_response(
          nullptr, mcp::RpcError{mcp::rpc_code::invalid_request,
                                 "Invalid request: the message is larger than " +
                                     std::to_string(limits::k_max_mcp_message_bytes) + " bytes",
                                 std::nullopt}));
    };
    char buffer[64 * 1024];
    while (!out->broken()) {
      const ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) {
        continue;
      }
      if (got <= 0) {
        break;
      }
      reader.feed(std::string_view(buffer, static_cast<std::size_t>(got)), on_line, on_oversized);
    }
    if (!out->broken()) {
      reader.finish(on_line, on_oversized);
    }
    session->close();
    return Outcome::ok;
  }

 private:
  std::string m_setup_url;
};

}  // namespace

std::unique_ptr<Command> make_mcp_command() { return std::make_unique<McpCommand>(); }

}  // namespace skillrt::app
