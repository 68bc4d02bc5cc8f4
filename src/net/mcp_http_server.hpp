// MCP Streamable HTTP (protocol revisions 2025-03-26 … 2025-11-25) over
// Boost.Beast, behind a pimpl: this header includes no Boost, and only the
// .cpp files of src/net do. One endpoint path (default /mcp):
//   POST   one JSON-RPC message → application/json (or text/event-stream
//          when the client accepts only that); notifications/responses → 202
//   GET    text/event-stream for server-initiated messages (list_changed …)
//   DELETE ends the session
// Sessions are named by the Mcp-Session-Id header given at initialize.
// Paths under /api/ go to HttpOptions::api (api/http_exchange.hpp) when it is set,
// and POST /v1/chat/completions and GET /v1/models to the OpenAI-compatible
// proxy (openai_proxy.hpp) when HttpOptions::proxy is, and `/`, `/ui/*` and
// /api/v1/session to the web UI (web_front.hpp) when HttpOptions::web_ui is;
// /healthz and /readyz answer load balancers without a token. Every other request first
// passes the Host/Origin check (DNS rebinding) and the bearer-token check.
#pragma once

#include <cstddef>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/limits.hpp"
#include "core/store/session_store.hpp"
#include "mcp/server.hpp"
#include "api/event_feed.hpp"
#include "api/http_exchange.hpp"
#include "net/openai_proxy.hpp"
#include "skillrt/result.hpp"

namespace skillrt::net {

struct HttpOptions {
  std::string listen_host = "127.0.0.1";
  std::uint16_t port = 8787;       // 0 = any free port (tests); bound_port() tells which
  std::string path = "/mcp";
  unsigned threads = 2;            // I/O threads
  std::size_t max_body_bytes = 4u << 20;  // larger POST bodies get 413
  std::size_t max_sessions = 10'000;      // past it, initialize gets 503
  // One caller (user + org; anonymous is one caller) holds at most this many
  // sessions: one more evicts that caller's least recently used session.
  std::size_t max_sessions_per_caller = 64;
  // Open sockets (requests and GET streams): past the global cap, or past
  // the cap for one peer address, a new connection is closed at once.
  std::size_t max_connections = 1024;
  std::size_t max_connections_per_ip = 256;  // loopback clients all share 127.0.0.1
  std::size_t max_streams_per_session = 4;   // a 5th GET stream closes the oldest
  // Host names (without port) accepted in Host and Origin besides the
  // loopback ones, which are always accepted on a loopback listener.
  std::vector<std::string> allowed_hosts;
  bool allow_anonymous = false;    // only honoured when listen_host is loopback
  std::uint32_t idle_session_timeout_s = 3600;  // sessions unused this long are closed
  // A request (headers and body, or an idle keep-alive connection) must
  // arrive within this time, and a response must be taken within it.
  std::uint32_t read_timeout_ms = 30'000;
  // The request head (or the next one on an idle keep-alive connection)
  // must arrive within this shorter time.
  std::uint32_t header_timeout_ms = 10'000;
  // The body of an admitted request must arrive whole within this time after
  // the head, whatever its pace (a deadline, not an idle timer).
  std::uint32_t body_timeout_ms = limits::k_http_body_timeout_ms;
  // After a final "Connection: close" answer, unread input is drained for at
  // most this long in total (a trickling client does not extend it).
  std::uint32_t linger_ms = 2'000;
  // ": keepalive" comment on idle GET streams; each tick also re-checks the
  // stream's bearer token, so a revoked token's stream ends.
  std::uint32_t sse_keepalive_ms = 15'000;
  std::size_t sse_queue_bytes = 1u << 20;        // a GET stream whose client lags this much is closed
  // The kernel send buffer of a GET stream's socket. Bounded so a client that
  // stops reading holds at most this (Linux doubles it) plus sse_queue_bytes
  // of server memory before it is cut off; left to autotuning, the kernel
  // alone would buffer up to tcp_wmem's maximum (4 MiB) per stream.
  std::size_t sse_socket_buffer_bytes = 64u << 10;
  // Requests under /api/ (api/http_exchange.hpp); unset: they are 404 like any other path.
  api::ApiHandler api;
  unsigned api_threads = 2;  // the handler's worker pool
  // GET /api/v1/events as a WebSocket of the caller's live events
  // (event_socket.hpp); null: that path is the REST API's (404).
  api::EventFeed* events = nullptr;
  std::uint32_t events_idle_ms = 30'000;       // pings at half of it; a silent peer is dropped
  std::size_t events_queue_bytes = 256u << 10;  // a socket whose client lags this much gets 4008
  // How often a socket re-checks its token (through the cached authenticator,
  // so a lookup at most once per cache lifetime): a revoked token's socket
  // closes within the cache lifetime plus this.
  std::uint32_t events_recheck_ms = 1'000;
  // The web UI (web_front.hpp): its files at / and /ui/<file>, sign-in at
  // /api/v1/session, and session cookies accepted on /api/ and
  // /api/v1/events. Needs `api`; off: those paths are 404 and cookies are ignored.
  bool web_ui = true;
  // Serve the UI's files from this folder instead of the built-in copy (to
  // work on the UI without rebuilding).
  std::optional<std::filesystem::path> web_root;
  std::uint32_t web_session_idle_s = 12 * 3600;         // a sign-in unused this long ends
  std::uint32_t web_session_lifetime_s = 7 * 24 * 3600;  // and any sign-in ends after this
  std::size_t max_web_sessions = 10'000;                // past it, the least recently used ends
  // GET /readyz answers 200 when this returns success, else 503 (GET /healthz
  // is always 200 while the process serves). Runs on the API worker pool;
  // unset: ready whenever up.
  std::function<Result<void>()> readiness;
  // Replicas: MCP sessions (2025 revisions) kept in the shared database, so a
  // client's next request may land on any replica; null: sessions live here only.
  std::shared_ptr<core::SessionStore> session_store;
  // /v1/chat/completions and /v1/models relayed to an upstream (openai_proxy.hpp);
  // unset: /v1/ paths are 404 like any other.
  std::optional<ProxyOptions> proxy;
};

// Bearer value → caller. ErrorCode::refused: the token is not valid (401);
// any other error: it cannot be checked now (the database is unreachable),
// which a new request answers with 503 and an open stream or socket rides
// out (its token was valid when it opened; revocation applies again as soon
// as the database answers).
using Authenticator = std::function<Result<mcp::Caller>(const std::string& bearer)>;
// True when an Authenticator's failure says "not valid" rather than "cannot tell now".
inline bool token_refused(const Error& error) { return error.code == ErrorCode::refused; }

class McpHttpServer {
 public:
  // Binds and starts listening; fails with a clear message when the address
  // is taken or when allow_anonymous is asked for on a non-loopback address.
  static Result<std::unique_ptr<McpHttpServer>> start(HttpOptions options, mcp::Server& server,
                                                      Authenticator authenticate);
  ~McpHttpServer();
  McpHttpServer(const McpHttpServer&) = delete;
  McpHttpServer& operator=(const McpHttpServer&) = delete;

  std::uint16_t bound_port() const;
  // Blocks until stop() is called (from another thread or a signal handler's
  // self-pipe) and every I/O thread has finished.
  void wait();
  // Thread-safe and idempotent: stops accepting, closes streams, returns at once.
  void stop();
  // A graceful stop (SIGTERM): /readyz turns 503 and no connection is
  // accepted any more; MCP streams end and event sockets close with 1001
  // ("going away": the client reconnects elsewhere); requests in flight
  // finish, each answered with `Connection: close`. Returns when none is left
  // or after `grace`, whichever comes first; then call stop().
  void drain(std::chrono::milliseconds grace);

  struct Impl;

 private:
  explicit McpHttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace skillrt::net
