// The Beast side of the Streamable HTTP transport: the listener, one
// HttpConnection per accepted socket (keep-alive request loop), and
// SseStream for the GET streams a connection turns into. The rules that need
// no socket live in http_rules, session_registry and event_hub. Requests for
// the OpenAI-compatible proxy are handed to proxy_relay.cpp, the one other
// translation unit that includes Boost (each costs ~15 s to compile).
#include "net/mcp_http_server.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <exception>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "api/query.hpp"
#include "net/event_hub.hpp"
#include "net/event_socket.hpp"
#include "net/http_rules.hpp"
#include "net/proxy_rules.hpp"
#include "net/proxy_relay.hpp"
#include "net/session_registry.hpp"
#include "net/web_front.hpp"
#include "net/web_sessions.hpp"
#include "web/web_assets.hpp"

namespace skillrt::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

constexpr std::uint32_t k_header_limit = 16 * 1024;
// A refused request's body up to this size is read and dropped to keep the
// connection; a larger one closes it instead.
constexpr std::uint64_t k_discarded_body_limit = 64 * 1024;

// JSON-RPC codes of the transport's own error bodies (implementation-defined
// server errors, as the MCP SDKs use them).
constexpr int k_transport_error = -32000;
constexpr int k_session_not_found = -32001;
constexpr int k_internal_error = -32603;
// A bearer that could not be checked because the database did not answer.
constexpr const char* k_auth_unavailable =
    "Service Unavailable: the token cannot be checked right now (the database is unreachable); try again";

std::string_view view(beast::string_view text) { return {text.data(), text.size()}; }

std::optional<std::string_view> header(const Request& request, http::field field) {
  const auto it = request.find(field);
  if (it == request.end()) {
    return std::nullopt;
  }
  return view(it->value());
}

std::optional<std::string_view> header(const Request& request, std::string_view name) {
  const auto it = request.find(beast::string_view(name.data(), name.size()));
  if (it == request.end()) {
    return std::nullopt;
  }
  return view(it->value());
}

// The path of a request-target, without the query.
std::string_view target_path(std::string_view target) { return target.substr(0, target.find('?')); }

bool is_http_parse_error(const beast::error_code& ec) {
  return ec.category() == http::make_error_code(http::error::bad_method).category();
}

// One chunk of a chunked body (an event of a GET stream).
std::string chunk_of(std::string_view payload) {
  std::string chunk;
  append_http_chunk(chunk, payload);
  return chunk;
}

}  // namespace

struct McpHttpServer::Impl {
  Impl(HttpOptions opts, mcp::Server& mcp_server, Authenticator auth, bool loopback)
      : options(std::move(opts)),
        server(mcp_server),
        authenticate(std::move(auth)),
        loopback_listener(loopback),
        registry(options.max_sessions, options.max_sessions_per_caller),
        web_sessions(std::chrono::seconds(options.web_session_idle_s), std::chrono::seconds(options.web_session_lifetime_s),
                     options.max_web_sessions),
        work(asio::make_work_guard(ioc)),
        acceptor(asio::make_strand(ioc)),
        accept_retry(acceptor.get_executor()),
        reap_timer(asio::make_strand(ioc)) {}
  ~Impl();
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  Result<void> listen();
  void launch();
  void accept();
  void schedule_reap();
  void stop();
  void join();
  // Ends a session everywhere: its streams, its notifications.
  static void end_session(HttpSession& session);
  // A new HttpSession for `caller` whose notifications go to its own hub;
  // `resumed`: the state another replica saved.
  std::shared_ptr<HttpSession> make_session(std::string id, const mcp::Caller& caller,
                                            const mcp::SessionState* resumed);
  // The session `id` from the shared store when `caller` made it (another
  // replica did, or this one before a restart): registered here and returned.
  std::shared_ptr<HttpSession> resume_session(std::string_view id, const mcp::Caller& caller);
  // Saves the session's state to the shared store when it changed, and marks
  // it used at most once a minute.
  void persist_session(HttpSession& session);
  void forget_session(std::string_view id);
  // Counts an accepted socket from `peer`; false (nothing counted) when the
  // global or the per-address cap is reached.
  bool take_connection(const std::string& peer);
  void release_connection(const std::string& peer);

  const HttpOptions options;
  mcp::Server& server;
  const Authenticator authenticate;
  const bool loopback_listener;
  SessionRegistry registry;
  WebSessions web_sessions;  // the web UI's sign-ins (web_sessions.hpp)
  std::atomic<bool> stopped{false};
  std::atomic<bool> draining{false};        // drain(): no new requests, no keep-alive
  std::atomic<std::size_t> in_flight{0};    // requests read and not yet answered (RequestInFlight)
  std::atomic<std::size_t> event_sockets{0};
  // The hubs of open subscriptions/listen streams (2026-07-28), so drain()
  // and the destructor can end them; pruned when a stream is added.
  std::mutex listen_mutex;
  std::vector<std::weak_ptr<EventHub>> listen_hubs;
  void add_listen_hub(const std::shared_ptr<EventHub>& hub);
  void end_listen_streams();
  std::mutex session_store_mutex;  // the store's connection is not for concurrent use
  std::int64_t next_session_prune_ms = 0;  // reaper strand only  // open /api/v1/events sockets (drain gives them a tick)
  std::uint16_t port = 0;
  // Open sockets, in total and per peer address (accept and close only, not per request).
  std::mutex connections_mutex;
  std::size_t connection_count = 0;
  std::unordered_map<std::string, std::size_t> connections_per_peer;
  // Declared after everything the handlers use, so ~io_context destroys the
  // pending connections while the registry still exists.
  asio::io_context ioc;
  asio::executor_work_guard<asio::io_context::executor_type> work;
  tcp::acceptor acceptor;
  asio::steady_timer accept_retry;
  asio::steady_timer reap_timer;
  std::mutex join_mutex;
  std::vector<std::thread> threads;
  // Runs the /api/ handler off the I/O threads (joined in ~Impl, after them).
  asio::thread_pool api_pool{options.api_threads == 0 ? 1u : options.api_threads};
  // The OpenAI-compatible proxy (set when options.proxy is); stopped in ~Impl
  // after the I/O threads. Relays still queued in ioc keep it alive until
  // ioc destroys them.
  std::shared_ptr<ProxyRuntime> proxy;
};

namespace {

using Impl = McpHttpServer::Impl;

// One counted socket (see Impl::take_connection); released when the owner
// (the connection, then the GET stream it turned into) goes away.
class ConnectionSlot {
 public:
  ConnectionSlot(Impl& impl, std::string peer) : m_impl(&impl), m_peer(std::move(peer)) {}
  ConnectionSlot(ConnectionSlot&& other) noexcept
      : m_impl(std::exchange(other.m_impl, nullptr)), m_peer(std::move(other.m_peer)) {}
  ConnectionSlot& operator=(ConnectionSlot&&) = delete;
  ConnectionSlot(const ConnectionSlot&) = delete;
  ConnectionSlot& operator=(const ConnectionSlot&) = delete;
  ~ConnectionSlot() {
    if (m_impl != nullptr) {
      m_impl->release_connection(m_peer);
    }
  }

 private:
  Impl* m_impl;
  std::string m_peer;
};

// One GET stream: the response head, then one chunk per SSE frame, until
// the client goes away, lags too far, or the session ends.
class SseStream final : public EventStream, public std::enable_shared_from_this<SseStream> {
 public:
  // `bearer`: the token the stream was opened with (nullopt when anonymous),
  // checked again on every keep-alive tick.
  // A subscriptions/listen stream (2026-07-28) also gets its first message
  // (the acknowledgement, sent before any notification) and the session it
  // carries, closed with the stream.
  SseStream(Impl& impl, beast::tcp_stream stream, ConnectionSlot slot, std::shared_ptr<EventHub> hub,
            mcp::Caller caller, std::optional<std::string> bearer, std::optional<std::string> first_message = {},
            std::shared_ptr<mcp::Session> listener = nullptr)
      : m_impl(impl),
        m_stream(std::move(stream)),
        m_slot(std::move(slot)),
        m_executor(m_stream.get_executor()),
        m_keepalive(m_executor),
        m_hub(std::move(hub)),
        m_caller(std::move(caller)),
        m_bearer(std::move(bearer)),
        m_first_message(std::move(first_message)),
        m_listener(std::move(listener)) {}

  // Runs on the connection's strand. `last_event_id`: the GET's
  // Last-Event-ID; true when the hub could not replay from it, so the
  // session must tell the client what it needs to catch up.
  bool start(std::optional<std::string_view> last_event_id = std::nullopt) {
    m_stream.expires_never();
    beast::error_code ignored;  // a refused size only leaves the kernel's default
    m_stream.socket().set_option(
        asio::socket_base::send_buffer_size(static_cast<int>(m_impl.options.sse_socket_buffer_bytes)), ignored);
    std::string head =
        "HTTP/1.1 200 OK\r\n"
        "Content-Type: text/event-stream\r\n"
        "Cache-Control: no-cache\r\n"
        "Transfer-Encoding: chunked\r\n"
        "\r\n";
    // A comment first, so the client (and any proxy) sees the stream open.
    head += chunk_of(": stream open\n\n");
    if (m_first_message) {
      head += chunk_of(sse_event(*m_first_message));
    }
    enqueue(std::move(head), false);
    // Attach after the head is queued, so every message follows it; once the
    // client sees the head, messages reach it. When the session ended
    // meanwhile, attach() finishes the stream (an empty, ended stream).
    bool resync = false;
    if (last_event_id) {
      const EventHub::Resumed resumed =
          m_hub->attach_after(shared_from_this(), *last_event_id, m_impl.options.max_streams_per_session);
      if (!resumed.attached) {
        return false;
      }
      resync = !resumed.replayed;
    } else if (!m_hub->attach(shared_from_this(), m_impl.options.max_streams_per_session)) {
      return false;
    }
    watch_for_close();
    arm_keepalive();
    return resync;
  }

  bool offer(const std::string& message, const std::string& event_id) override {
    return enqueue(chunk_of(sse_event(message, event_id)), true);
  }

  void finish() override {
    bool start_writing = false;
    {
      std::lock_guard lock(m_mutex);
      if (m_closed || m_finishing) {
        return;
      }
      m_finishing = true;
      m_queue.emplace_back("0\r\n\r\n");
      start_writing = !m_writing;
      m_writing = true;
    }
    if (start_writing) {
      asio::post(m_executor, [self = shared_from_this()] { self->write_next(); });
    }
  }

 private:
  // Any thread. False when closed, or when the frame would overflow the
  // queue, which closes the stream (the session lives on).
  bool enqueue(std::string frame, bool bounded) {
    bool start_writing = false;
    {
      std::lock_guard lock(m_mutex);
      if (m_closed || m_finishing) {
        return false;
      }
      if (bounded && m_queued_bytes + frame.size() > m_impl.options.sse_queue_bytes) {
        m_closed = true;
        asio::post(m_executor, [self = shared_from_this()] { self->abort(); });
        return false;
      }
      m_queued_bytes += frame.size();
      m_queue.push_back(std::move(frame));
      start_writing = !m_writing;
      m_writing = true;
    }
    if (start_writing) {
      asio::post(m_executor, [self = shared_from_this()] { self->write_next(); });
    }
    return true;
  }

  // Strand: sends everything queued in one write.
  void write_next() {
    {
      std::lock_guard lock(m_mutex);
      if (m_closed) {
        m_writing = false;
        return;
      }
      if (m_queue.empty()) {
        m_writing = false;
        if (!m_finishing) {
          return;
        }
      } else {
        m_out.clear();
        for (const std::string& frame : m_queue) {
          m_out += frame;
        }
        m_queue.clear();
        m_queued_bytes = 0;
      }
    }
    if (m_out.empty()) {
      abort();  // finishing and everything is sent, the last chunk included
      return;
    }
    m_stream.expires_after(std::chrono::milliseconds(m_impl.options.read_timeout_ms));
    asio::async_write(m_stream, asio::buffer(m_out),
                      [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_written(ec); });
  }

  void on_written(beast::error_code ec) {
    m_out.clear();
    if (ec) {
      abort();
      return;
    }
    write_next();
  }

  // Strand: a GET stream carries nothing from the client, so a completed
  // read means it closed (or misbehaves); either way the stream ends now
  // rather than at the next keep-alive.
  void watch_for_close() {
    m_stream.socket().async_read_some(
        asio::buffer(m_discard), asio::bind_executor(m_executor, [self = shared_from_this()](
                                                                     beast::error_code ec, std::size_t) {
          if (ec) {
            self->abort();
            return;
          }
          self->watch_for_close();
        }));
  }

  void arm_keepalive() {
    m_keepalive.expires_after(std::chrono::milliseconds(m_impl.options.sse_keepalive_ms));
    m_keepalive.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec) {
        return;  // cancelled: the stream is closing
      }
      if (!self->still_authorized()) {
        self->finish();  // the token was revoked (or expired) since the stream opened
        return;
      }
      // Writing a comment is how a dead peer gets noticed (the write fails).
      if (self->enqueue(chunk_of(": keepalive\n\n"), true)) {
        self->arm_keepalive();
      }
    });
  }

  // The stream's bearer still names the caller that opened it. Goes through
  // the server's (cached) authenticator, so it costs a lookup at most once
  // per cache lifetime, and a revoked token is refused within that time.
  bool still_authorized() const {
    if (!m_bearer) {
      return true;  // anonymous loopback stream: nothing to revoke
    }
    if (!m_impl.authenticate) {
      return false;
    }
    const Result<mcp::Caller> caller = m_impl.authenticate(*m_bearer);
    if (!caller) {
      return !token_refused(caller.error());  // cannot tell now: keep streaming
    }
    return same_caller(*caller, m_caller);
  }

  // Strand: closes the socket at once; idempotent.
  void abort() {
    {
      std::lock_guard lock(m_mutex);
      m_closed = true;
      m_queue.clear();
      m_queued_bytes = 0;
    }
    if (m_aborted) {
      return;
    }
    m_aborted = true;
    m_keepalive.cancel();
    beast::error_code ignored;
    m_stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    m_stream.close();
    m_hub->detach(this);
    if (m_listener) {
      m_listener->close();  // no more events for a stream nobody reads
    }
  }

  Impl& m_impl;
  beast::tcp_stream m_stream;
  ConnectionSlot m_slot;
  beast::tcp_stream::executor_type m_executor;
  asio::steady_timer m_keepalive;
  std::shared_ptr<EventHub> m_hub;
  const mcp::Caller m_caller;
  const std::optional<std::string> m_bearer;
  const std::optional<std::string> m_first_message;
  const std::shared_ptr<mcp::Session> m_listener;
  std::mutex m_mutex;  // guards the queue and the flags below it
  std::deque<std::string> m_queue;
  std::size_t m_queued_bytes = 0;
  bool m_writing = false;
  bool m_closed = false;
  bool m_finishing = false;
  // Strand only.
  bool m_aborted = false;
  std::string m_out;
  std::array<char, 512> m_discard{};
};

// One accepted connection: read a request, answer it, repeat while the
// client keeps the connection alive. A GET hands the socket to an SseStream.
// Counts one request from its head until its answer is written (or the
// connection gives up on it), so drain() knows when nothing is in flight.
class RequestInFlight {
 public:
  explicit RequestInFlight(Impl& impl) : m_impl(&impl) { m_impl->in_flight.fetch_add(1); }
  RequestInFlight(const RequestInFlight&) = delete;
  RequestInFlight& operator=(const RequestInFlight&) = delete;
  ~RequestInFlight() { m_impl->in_flight.fetch_sub(1); }

 private:
  Impl* m_impl;
};

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(Impl& impl, tcp::socket socket, ConnectionSlot slot)
      : m_impl(impl), m_stream(std::move(socket)), m_slot(std::move(slot)) {}

  void start() {
    asio::dispatch(m_stream.get_executor(), [self = shared_from_this()] { self->read_header(); });
  }

 private:
  void read_header() {
    m_request.reset();
    if (m_impl.draining.load()) {
      return close();  // a keep-alive connection between requests: nothing is lost
    }
    m_parser.emplace();
    m_parser->header_limit(k_header_limit);
    m_route = Route::mcp;
    // The largest any route takes: the route's own limit is set once admit() knows it.
    m_parser->body_limit(std::max<std::uint64_t>(m_impl.options.max_body_bytes, proxy_body_limit()));
    // A short deadline for the head: a client that connects and trickles
    // (or sends nothing) gives its socket back soon.
    m_stream.expires_after(
        std::chrono::milliseconds(std::min(m_impl.options.header_timeout_ms, m_impl.options.read_timeout_ms)));
    http::async_read_header(m_stream, m_buffer, *m_parser,
                            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
  }

  void on_header(beast::error_code ec) {
    if (ec) {
      return on_read_error(ec);
    }
    m_request.emplace(m_impl);
    // Everything that depends only on the head is decided before the body
    // is read, so a refused client (no token, foreign Origin) cannot make us
    // buffer megabytes.
    const auto expect = m_parser->get().find(http::field::expect);
    const bool expects_continue =
        expect != m_parser->get().end() && beast::iequals(expect->value(), "100-continue");
    if (!admit(m_parser->get())) {
      const std::uint64_t length = m_parser->content_length().value_or(0);
      if (m_parser->chunked() || length > k_discarded_body_limit || (length > 0 && expects_continue)) {
        m_keep_alive = false;  // the unread body would be taken for the next request
      } else if (length > 0) {
        m_refused = true;  // small: read and drop it, keep the connection
        return read_body();
      }
      return send();
    }
    const std::uint64_t limit = m_route == Route::proxy ? proxy_body_limit() : m_impl.options.max_body_bytes;
    if (m_parser->content_length().value_or(0) > limit) {
      return on_read_error(http::error::body_limit);
    }
    m_parser->body_limit(limit);
    if (expects_continue) {
      // curl and others wait for this before sending a large body.
      static constexpr std::string_view k_continue = "HTTP/1.1 100 Continue\r\n\r\n";
      asio::async_write(m_stream, asio::buffer(k_continue.data(), k_continue.size()),
                        [self = shared_from_this()](beast::error_code write_ec, std::size_t) {
                          if (write_ec) {
                            return self->close();
                          }
                          self->read_body();
                        });
      return;
    }
    read_body();
  }

  void read_body() {
    // One deadline for the whole body (tcp_stream's expiry is absolute, so
    // a byte now and then does not extend it): a trickling body is cut off.
    m_stream.expires_after(
        std::chrono::milliseconds(std::min(m_impl.options.body_timeout_ms, m_impl.options.read_timeout_ms)));
    http::async_read(m_stream, m_buffer, *m_parser,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_body(ec); });
  }

  void on_body(beast::error_code ec) {
    if (ec) {
      m_refused = false;
      return on_read_error(ec);
    }
    if (m_refused) {
      m_refused = false;
      m_parser.reset();
      return send();  // the refusal admit() prepared
    }
    Request request = m_parser->release();
    m_parser.reset();
    handle(request);
  }

  void on_read_error(beast::error_code ec) {
    if (ec == http::error::body_limit && m_route == Route::proxy) {
      m_keep_alive = false;
      prepare_proxy_error(http::status::payload_too_large,
                          "Payload Too Large: the body exceeds " + std::to_string(proxy_body_limit()) + " bytes",
                          "invalid_request_error");
      return send();
    }
    if (ec == http::error::body_limit) {
      m_keep_alive = false;
      return send_error(http::status::payload_too_large, k_transport_error,
                        "Payload Too Large: the body exceeds " + std::to_string(m_impl.options.max_body_bytes) +
                            " bytes");
    }
    if (ec == http::error::header_limit) {
      m_keep_alive = false;
      return send_error(http::status::request_header_fields_too_large, k_transport_error,
                        "Request Header Fields Too Large");
    }
    if (is_http_parse_error(ec) && ec != http::error::end_of_stream && ec != http::error::partial_message) {
      m_keep_alive = false;
      return send_error(http::status::bad_request, k_transport_error, "Bad Request: malformed HTTP");
    }
    // The peer closed, timed out (Beast already closed the socket) or reset.
    close();
  }

  // The checks on the request head, in the order that leaks least: Host and
  // Origin (DNS rebinding) first, so a page on another site learns nothing,
  // not even whether a token is needed; then path, method, token, protocol
  // version and media types. False when refused: m_response holds the answer.
  bool admit(const Request& head) {
    m_keep_alive = head.keep_alive();
    const HttpOptions& options = m_impl.options;
    // RFC 9112 §3.2: a request with more than one Host field is answered 400;
    // two of them could make us and a proxy in front disagree on the target.
    if (head.count(http::field::host) > 1) {
      m_keep_alive = false;
      prepare_error(http::status::bad_request, k_transport_error, "Bad Request: more than one Host header");
      return false;
    }
    // Load balancers' probes, before the Host check: they address the
    // replica by its IP, and the answers say nothing but up or ready.
    if (const std::string_view path = target_path(view(head.target())); path == "/healthz" || path == "/readyz") {
      m_route = path == "/healthz" ? Route::health : Route::ready;
      if (head.method() != http::verb::get) {
        prepare_api_error(http::status::method_not_allowed, "Method Not Allowed");
        m_response.set(http::field::allow, "GET");
        return false;
      }
      return true;
    }
    if (!request_origin_allowed(header(head, http::field::host).value_or(std::string_view{}),
                                header(head, http::field::origin), m_impl.loopback_listener,
                                options.allowed_hosts)) {
      // Refused in the shape of the door that was knocked on.
      if (target_path(view(head.target())).starts_with("/api/")) {
        prepare_api_error(http::status::forbidden, "Forbidden: Host or Origin header not allowed");
      } else {
        prepare_error(http::status::forbidden, k_transport_error, "Forbidden: Host or Origin header not allowed");
      }
      return false;
    }
    if (options.events != nullptr && target_path(view(head.target())) == "/api/v1/events") {
      m_route = Route::events;
      return admit_events(head);
    }
    if (options.web_ui && options.api && target_path(view(head.target())) == "/api/v1/session") {
      m_route = Route::session;
      return admit_session(head);
    }
    if (options.web_ui && web::web_asset_name(target_path(view(head.target())))) {
      m_route = Route::web;
      if (head.method() != http::verb::get) {
        prepare(http::status::method_not_allowed);
        m_response.set(http::field::allow, "GET");
        m_response.set(http::field::content_type, "text/plain; charset=utf-8");
        m_response.body() = "Method Not Allowed\n";
        return false;
      }
      return true;
    }
    if (options.api && target_path(view(head.target())).starts_with("/api/")) {
      m_route = Route::api;
      return admit_api(head);
    }
    if (m_impl.proxy && target_path(view(head.target())).starts_with("/v1/")) {
      m_route = Route::proxy;
      return admit_proxy(head);
    }
    if (target_path(view(head.target())) != options.path) {
      prepare_error(http::status::not_found, k_transport_error, "Not Found");
      return false;
    }
    const http::verb method = head.method();
    if (method != http::verb::post && method != http::verb::get && method != http::verb::delete_) {
      prepare_error(http::status::method_not_allowed, k_transport_error, "Method Not Allowed");
      m_response.set(http::field::allow, "GET, POST, DELETE");
      return false;
    }

    identify(head, /*cookies=*/false, options.allow_anonymous);
    if (!m_caller && m_auth_unavailable) {
      prepare_error(http::status::service_unavailable, k_transport_error, k_auth_unavailable);
      m_response.set(http::field::retry_after, "1");
      return false;
    }
    if (!m_caller) {
      prepare_error(http::status::unauthorized, k_transport_error, "Unauthorized: a valid bearer token is required");
      m_response.set(http::field::www_authenticate, "Bearer realm=\"skillrt\"");
      return false;
    }

    // A POST's version is judged with its body (handle_post): the
    // 2026-07-28 revision answers an unknown one with -32022 and the id.
    if (const auto version = header(head, "MCP-Protocol-Version"); method != http::verb::post && version) {
      if (mcp::is_stateless_protocol_version(trim_http_whitespace(*version)) &&
          !header(head, "Mcp-Session-Id")) {
        // 2026-07-28 has no GET stream and no session to delete.
        prepare_error(http::status::method_not_allowed, k_transport_error,
                      "Method Not Allowed: the 2026-07-28 revision is POST only (subscriptions/listen replaces the "
                      "GET stream)");
        m_response.set(http::field::allow, "POST");
        return false;
      }
      if (!protocol_version_supported(*version)) {
        prepare_error(http::status::bad_request, k_transport_error,
                      "Bad Request: unsupported MCP-Protocol-Version " + std::string(*version));
        return false;
      }
    }

    const std::string_view accept = header(head, http::field::accept).value_or(std::string_view{});
    if (method == http::verb::post) {
      if (!is_json_content_type(header(head, http::field::content_type).value_or(std::string_view{}))) {
        prepare_error(http::status::unsupported_media_type, k_transport_error,
                      "Unsupported Media Type: Content-Type must be application/json");
        return false;
      }
      if (!accept_allows(accept, "application/json") && !accept_allows(accept, "text/event-stream")) {
        prepare_error(http::status::not_acceptable, k_transport_error,
                      "Not Acceptable: Accept must allow application/json or text/event-stream");
        return false;
      }
    } else if (method == http::verb::get && !accept_allows(accept, "text/event-stream")) {
      prepare_error(http::status::not_acceptable, k_transport_error,
                    "Not Acceptable: a GET stream needs Accept: text/event-stream");
      return false;
    }
    return true;
  }

  // GET /api/v1/events: a WebSocket upgrade (event_socket.hpp) with the
  // same caller rules as /mcp; refusals are JSON, as on /api/.
  bool admit_events(const Request& head) {
    // A refused upgrade ends the connection: the client asked to leave HTTP,
    // and WebSocket clients report the failure only once the socket closes.
    m_keep_alive = false;
    if (head.method() != http::verb::get) {
      prepare_api_error(http::status::method_not_allowed, "Method Not Allowed: /api/v1/events is a WebSocket (GET)");
      m_response.set(http::field::allow, "GET");
      return false;
    }
    if (!header_lists_token(header(head, http::field::connection).value_or(std::string_view{}), "upgrade") ||
        !header_lists_token(header(head, http::field::upgrade).value_or(std::string_view{}), "websocket")) {
      prepare_api_error(http::status::upgrade_required,
                        "Upgrade Required: /api/v1/events is a WebSocket; send Upgrade: websocket");
      m_response.set(http::field::upgrade, "websocket");
      return false;
    }
    // ?since=N, read by the REST API's strict query rules.
    const std::string_view target = view(head.target());
    const std::size_t mark = target.find('?');
    auto query = api::Query::parse(mark == std::string_view::npos ? std::string_view{} : target.substr(mark + 1));
    auto since = query ? query->number("since", 0, std::numeric_limits<std::size_t>::max())
                       : Result<std::size_t>(tl::unexpected(query.error()));
    if (!since) {
      prepare_api_error(http::status::bad_request, "Bad Request: ?since= takes the number of the last event seen");
      return false;
    }
    m_since = query->get("since") ? std::optional<std::uint64_t>(*since) : std::nullopt;
    // A browser sends its session cookie (it cannot set Authorization on a
    // WebSocket); the Origin check above applies.
    identify(head, /*cookies=*/true, m_impl.options.allow_anonymous);
    if (!m_caller && m_auth_unavailable) {
      prepare_api_error(http::status::service_unavailable, k_auth_unavailable);
      m_response.set(http::field::retry_after, "1");
      return false;
    }
    if (!m_caller) {
      prepare_api_error(http::status::unauthorized, "Unauthorized: a valid bearer token is required");
      m_response.set(http::field::www_authenticate, "Bearer realm=\"skillrt\"");
      return false;
    }
    return true;
  }

  // Who sent the request, by one rule for every door: its bearer token;
  // else, on the doors a browser uses (`cookies`: /api/ and the events
  // socket), the web UI's session cookie, where a write (any method but GET)
  // also needs the session's CSRF token and an Origin header; else the
  // anonymous caller when `anonymous` allows it. Sets m_caller (unset: not
  // authenticated), m_bearer (what a stream or socket re-checks) and
  // m_web_session. Returns no_csrf for a cookie write without its proof.
  CookieCheck identify(const Request& head, bool cookies, bool anonymous) {
    m_caller.reset();
    m_bearer.reset();
    m_web_session.reset();
    m_auth_unavailable = false;
    if (const auto authorization = header(head, http::field::authorization)) {
      if (std::optional<std::string> bearer = bearer_token(*authorization); bearer && m_impl.authenticate) {
        if (Result<mcp::Caller> checked = m_impl.authenticate(*bearer)) {
          m_caller = std::move(*checked);
          m_bearer = std::move(bearer);
        } else {
          m_auth_unavailable = !token_refused(checked.error());
        }
      }
      return CookieCheck::absent;
    }
    if (cookies && m_impl.options.web_ui) {
      CookieCaller cookie =
          authenticate_cookie(m_impl.web_sessions, m_impl.authenticate, header(head, http::field::cookie),
                              head.method() != http::verb::get, header(head, k_csrf_header),
                              header(head, http::field::origin).has_value());
      if (cookie.check != CookieCheck::absent) {
        m_caller = std::move(cookie.caller);
        m_bearer = std::move(cookie.bearer);
        m_web_session = std::move(cookie.session_id);
        return cookie.check;
      }
    }
    if (anonymous) {
      m_caller = mcp::Caller{.user_id = std::nullopt, .org_id = {}, .anonymous = true};
    }
    return CookieCheck::absent;
  }

  // /api/v1/session: sign in, who am I, sign out (web_front.hpp).
  bool admit_session(const Request& head) {
    const http::verb method = head.method();
    if (method != http::verb::get && method != http::verb::post && method != http::verb::delete_) {
      prepare_api_error(http::status::method_not_allowed, "Method Not Allowed");
      m_response.set(http::field::allow, "GET, POST, DELETE");
      return false;
    }
    if (method == http::verb::post &&
        !is_json_content_type(header(head, http::field::content_type).value_or(std::string_view{}))) {
      prepare_api_error(http::status::unsupported_media_type,
                        "Unsupported Media Type: Content-Type must be application/json");
      return false;
    }
    return true;
  }

  void handle_session(Request& request) {
    const std::optional<std::string_view> origin = header(request, http::field::origin);
    SessionExchange exchange;
    exchange.method = view(request.method_string());
    exchange.body = request.body();
    exchange.cookie = header(request, http::field::cookie);
    exchange.csrf = header(request, k_csrf_header);
    exchange.secure = origin && origin->starts_with("https://");
    send_answer(session_answer(m_impl.web_sessions, m_impl.authenticate, exchange));
  }

  void handle_web(Request& request) {
    send_answer(web_asset_answer(target_path(view(request.target())), header(request, http::field::if_none_match),
                                 m_impl.options.web_root));
  }

  // Puts a REST-shaped answer on the wire; Cache-Control is no-store unless
  // the answer set its own.
  void send_answer(api::ApiResponse answer) {
    prepare(static_cast<http::status>(answer.status));
    if (!answer.content_type.empty()) {
      m_response.set(http::field::content_type, answer.content_type);
    }
    bool cache_set = false;
    for (const auto& [name, value] : answer.headers) {
      cache_set = cache_set || beast::iequals(name, "Cache-Control");
      m_response.insert(name, value);
    }
    if (!cache_set) {
      m_response.set(http::field::cache_control, "no-store");
    }
    m_response.body() = std::move(answer.body);
    send();
  }

  // /readyz: the readiness check runs on the worker pool (it may wait for
  // the database), the answer on this connection's strand.
  void handle_ready() {
    asio::post(m_impl.api_pool, [self = shared_from_this()]() {
      Result<void> ready = self->m_impl.options.readiness ? self->m_impl.options.readiness() : Result<void>{};
      if (self->m_impl.draining.load()) {
        ready = fail(ErrorCode::io_error, "shutting down");  // the load balancer takes us out
      }
      api::ApiResponse answer{200, R"({"status":"ready"})", "application/json", {}};
      if (!ready) {
        // The reason stays in the server: this answer needs no token.
        answer = api::ApiResponse{503, R"({"status":"not ready"})", "application/json", {}};
      }
      asio::post(self->m_stream.get_executor(),
                 [self, answer = std::move(answer)]() mutable { self->send_answer(std::move(answer)); });
    });
  }

  // Hands the socket to an EventSocket; this connection object ends here.
  void handle_events(Request& request) {
    EventSocketOptions options;
    options.user = m_caller->anonymous ? std::nullopt : m_caller->user_id;
    options.since = m_since;
    options.tick = std::chrono::milliseconds(m_impl.options.events_recheck_ms);
    options.idle = std::chrono::milliseconds(m_impl.options.events_idle_ms);
    options.queue_bytes = m_impl.options.events_queue_bytes;
    options.socket_buffer_bytes = m_impl.options.sse_socket_buffer_bytes;
    options.going_away = [impl = &m_impl] { return impl->draining.load(); };
    m_impl.event_sockets.fetch_add(1);
    options.on_closed = [impl = &m_impl] { impl->event_sockets.fetch_sub(1); };
    options.still_authorized = [impl = &m_impl, bearer = m_bearer, caller = *m_caller, web_session = m_web_session] {
      if (!bearer) {
        return true;  // anonymous loopback socket: nothing to revoke
      }
      if (!impl->authenticate) {
        return false;
      }
      if (web_session && !impl->web_sessions.find(*web_session)) {
        return false;  // signed out (or the session expired)
      }
      const Result<mcp::Caller> now = impl->authenticate(*bearer);
      if (!now) {
        return !token_refused(now.error());  // cannot tell now: keep the socket
      }
      return same_caller(*now, caller);
    };
    options.keep = std::make_shared<ConnectionSlot>(std::move(m_slot));
    m_request.reset();  // a live socket, not a request in flight
    start_event_socket(std::move(m_stream), std::move(request), *m_impl.options.events, std::move(options));
  }

  // An /api/ request: the same caller rules as /mcp (a bearer token, or
  // anonymous where allowed), JSON bodies, JSON refusals.
  bool admit_api(const Request& head) {
    const http::verb method = head.method();
    // The API's description is public: a client reads it before it has a token.
    const bool public_document =
        method == http::verb::get && target_path(view(head.target())) == "/api/v1/openapi.json";
    // The setup page's calls carry their own key, the request id (setup_routes.cpp):
    // no token, and no session cookie (a signed-in browser's would demand a CSRF token
    // the page cannot have).
    const bool setup_page = target_path(view(head.target())).starts_with("/api/v1/setup/");
    if (method != http::verb::get && method != http::verb::post && method != http::verb::put &&
        method != http::verb::patch && method != http::verb::delete_) {
      prepare_api_error(http::status::method_not_allowed, "Method Not Allowed");
      m_response.set(http::field::allow, "GET, POST, PUT, PATCH, DELETE");
      return false;
    }
    if (identify(head, /*cookies=*/!setup_page, m_impl.options.allow_anonymous || public_document || setup_page) ==
        CookieCheck::no_csrf) {
      prepare_api_error(http::status::forbidden,
                        "Forbidden: a write from a signed-in browser needs the session's X-CSRF-Token header "
                        "and an Origin header");
      return false;
    }
    if (!m_caller && m_auth_unavailable) {
      prepare_api_error(http::status::service_unavailable, k_auth_unavailable);
      m_response.set(http::field::retry_after, "1");
      return false;
    }
    if (!m_caller) {
      prepare_api_error(http::status::unauthorized, "Unauthorized: a valid bearer token is required");
      m_response.set(http::field::www_authenticate, "Bearer realm=\"skillrt\"");
      return false;
    }
    // An empty body ("Content-Length: 0", as fetch sends for a bodyless
    // POST) needs no media type.
    const auto length = head.find(http::field::content_length);
    const bool has_body = head.chunked() || (length != head.end() && length->value() != "0");
    if ((method == http::verb::post || method == http::verb::put || method == http::verb::patch) && has_body &&
        !is_json_content_type(header(head, http::field::content_type).value_or(std::string_view{}))) {
      prepare_api_error(http::status::unsupported_media_type,
                        "Unsupported Media Type: Content-Type must be application/json");
      return false;
    }
    return true;
  }

  void prepare_api_error(http::status status, std::string_view message) {
    prepare(status);
    m_response.set(http::field::content_type, "application/json");
    m_response.body() = api::api_error_body(message);
  }

  // Runs the handler on the worker pool, then answers on this connection's strand.
  void handle_api(Request& request) {
    api::ApiRequest call;
    call.method = std::string(request.method_string());
    call.target = std::string(view(request.target()));
    call.body = std::move(request.body());
    call.caller = *m_caller;
    asio::post(m_impl.api_pool, [self = shared_from_this(), call = std::move(call)]() mutable {
      api::ApiResponse answer;
      try {
        answer = self->m_impl.options.api(call);
      } catch (const std::exception& error) {
        answer.status = 500;
        answer.body = api::api_error_body(std::string("internal error: ") + error.what());
      }
      asio::post(self->m_stream.get_executor(),
                 [self, answer = std::move(answer)]() mutable { self->send_answer(std::move(answer)); });
    });
  }

  // A request for the OpenAI-compatible proxy (openai_proxy.hpp): the same
  // caller rules as /mcp; refusals in OpenAI's error shape, so an OpenAI
  // client shows their message.
  bool admit_proxy(const Request& head) {
    const std::string_view path = target_path(view(head.target()));
    const http::verb method = head.method();
    const bool chat = path == "/v1/chat/completions";
    const bool models = path == "/v1/models" || path.starts_with("/v1/models/");
    if (!chat && !models) {
      prepare_proxy_error(http::status::not_found,
                          "skillrt proxy: no route " + std::string(path) +
                              " (it relays /v1/chat/completions and /v1/models)",
                          "invalid_request_error", "unknown_url");
      return false;
    }
    if ((chat && method != http::verb::post) || (models && method != http::verb::get)) {
      prepare_proxy_error(http::status::method_not_allowed, "Method Not Allowed", "invalid_request_error");
      m_response.set(http::field::allow, chat ? "POST" : "GET");
      return false;
    }
    identify(head, /*cookies=*/false, m_impl.options.allow_anonymous);
    if (!m_caller && m_auth_unavailable) {
      prepare_proxy_error(http::status::service_unavailable, k_auth_unavailable, "server_error", "service_unavailable");
      m_response.set(http::field::retry_after, "1");
      return false;
    }
    if (!m_caller) {
      prepare_proxy_error(http::status::unauthorized,
                          "Unauthorized: use a skillrt token (skillrt token create) as the API key",
                          "invalid_request_error", "invalid_api_key");
      m_response.set(http::field::www_authenticate, "Bearer realm=\"skillrt\"");
      return false;
    }
    if (chat && !is_json_content_type(header(head, http::field::content_type).value_or(std::string_view{}))) {
      prepare_proxy_error(http::status::unsupported_media_type,
                          "Unsupported Media Type: Content-Type must be application/json", "invalid_request_error");
      return false;
    }
    return true;
  }

  void prepare_proxy_error(http::status status, std::string_view message, std::string_view type,
                           std::string_view code = {}) {
    prepare(status);
    m_response.set(http::field::content_type, "application/json");
    m_response.body() = openai_error_body(message, type, code);
  }

  std::uint64_t proxy_body_limit() const {
    return m_impl.options.proxy ? m_impl.options.proxy->max_request_bytes : 0;
  }

  // The relay takes the connection until the answer is through (proxy_relay.hpp).
  void handle_proxy(Request& request) {
    relay_to_upstream(m_impl.proxy, m_stream, std::move(request), *m_caller, m_keep_alive,
                      std::chrono::milliseconds(m_impl.options.read_timeout_ms),
                      [self = shared_from_this()](bool keep_alive) {
                        if (!keep_alive || self->m_impl.stopped.load(std::memory_order_relaxed)) {
                          return self->close();
                        }
                        self->read_header();
                      });
  }

  // An admitted request with its body.
  void handle(Request& request) {
    if (m_route == Route::events) {
      return handle_events(request);
    }
    if (m_route == Route::session) {
      return handle_session(request);
    }
    if (m_route == Route::health) {
      return send_answer(api::ApiResponse{200, R"({"status":"up"})", "application/json", {}});
    }
    if (m_route == Route::ready) {
      return handle_ready();
    }
    if (m_route == Route::web) {
      return handle_web(request);
    }
    if (m_route == Route::api) {
      return handle_api(request);
    }
    if (m_route == Route::proxy) {
      return handle_proxy(request);
    }
    switch (request.method()) {
      case http::verb::post:
        return handle_post(request, *m_caller);
      case http::verb::get:
        return handle_get(request, *m_caller);
      default:
        return handle_delete(request, *m_caller);
    }
  }

  void handle_post(Request& request, const mcp::Caller& caller) {
    // admit() made sure Accept allows one of the two.
    const bool as_event_stream =
        !accept_allows(header(request, http::field::accept).value_or(std::string_view{}), "application/json");

    const auto version = header(request, "MCP-Protocol-Version");
    if (const auto session_id = header(request, "Mcp-Session-Id")) {
      if (version && !protocol_version_supported(*version)) {
        return send_error(http::status::bad_request, k_transport_error,
                          "Bad Request: unsupported MCP-Protocol-Version " + std::string(*version));
      }
      std::shared_ptr<HttpSession> session = m_impl.registry.find(*session_id, caller);
      if (!session) {
        session = m_impl.resume_session(*session_id, caller);
      }
      if (!session) {
        return send_error(http::status::not_found, k_session_not_found, "Session not found");
      }
      std::optional<std::string> answer = session->session->handle(request.body());
      session->last_used_ms.store(SessionRegistry::now_ms(), std::memory_order_relaxed);
      m_impl.persist_session(*session);
      return send_answer(std::move(answer), as_event_stream, nullptr);
    }

    // Without a session: a 2025 initialize, or a request of the stateless
    // 2026-07-28 revision (whose header and envelope the session checks).
    const bool legacy_version = version && protocol_version_supported(*version);
    if (!legacy_version && !(is_initialize_request(request.body()) && !version)) {
      return handle_stateless(request, caller);
    }
    if (!is_initialize_request(request.body())) {
      return send_error(http::status::bad_request, k_transport_error,
                        "Bad Request: Mcp-Session-Id header is required (only initialize may come without it)");
    }
    if (!m_impl.registry.has_room()) {
      return send_error(http::status::service_unavailable, k_transport_error, "Service Unavailable: too many sessions");
    }
    std::optional<std::string> id = new_session_id();
    if (!id) {
      return send_error(http::status::internal_server_error, k_internal_error, "no randomness for a session id");
    }
    const std::shared_ptr<HttpSession> session = m_impl.make_session(std::move(*id), caller, nullptr);
    std::optional<std::string> answer = session->session->handle(request.body());
    if (!session->session->initialized()) {
      // A refused initialize leaves nothing behind.
      session->session->close();
      return send_answer(std::move(answer), as_event_stream, nullptr);
    }
    std::shared_ptr<HttpSession> evicted;
    const bool added = m_impl.registry.add(session, &evicted);
    if (evicted) {
      Impl::end_session(*evicted);  // this caller's least recently used one made room
    }
    if (!added) {
      session->session->close();
      return send_error(http::status::service_unavailable, k_transport_error, "Service Unavailable: too many sessions");
    }
    m_impl.persist_session(*session);
    send_answer(std::move(answer), as_event_stream, &session->id);
  }

  // One request of the 2026-07-28 revision: answered by a session made for
  // it alone, or turned into a subscriptions/listen stream.
  void handle_stateless(Request& request, const mcp::Caller& caller) {
    const std::string_view accept = header(request, http::field::accept).value_or(std::string_view{});
    // Log messages the request asked for (_meta logLevel) go before the
    // answer when the client takes an event stream.
    auto collected = std::make_shared<std::vector<std::string>>();
    auto collected_mutex = std::make_shared<std::mutex>();
    std::shared_ptr<mcp::Session> session =
        m_impl.server.open_stateless_session(caller, [collected, collected_mutex](std::string message) {
          std::lock_guard lock(*collected_mutex);
          collected->push_back(std::move(message));
        });
    const mcp::StatelessRequest stateless{request.body(), true, header(request, "MCP-Protocol-Version"),
                                          header(request, "Mcp-Method"), header(request, "Mcp-Name")};
    mcp::StatelessAnswer answer = session->handle_stateless(stateless);
    if (answer.listening && answer.text) {
      return start_listen_stream(std::move(session), caller, std::move(*answer.text));
    }
    session->close();
    if (!answer.text) {
      prepare(http::status::accepted);
      return send();
    }
    std::vector<std::string> before;
    {
      std::lock_guard lock(*collected_mutex);
      before.swap(*collected);
    }
    const bool as_event_stream = !accept_allows(accept, "application/json") ||
                                 (!before.empty() && accept_allows(accept, "text/event-stream"));
    prepare(static_cast<http::status>(answer.http_status));
    if (as_event_stream) {
      m_response.set(http::field::content_type, "text/event-stream");
      m_response.set(http::field::cache_control, "no-cache");
      std::string body;
      for (const std::string& message : before) {
        body += sse_event(message);
      }
      body += sse_event(*answer.text);
      m_response.body() = std::move(body);
    } else {
      m_response.set(http::field::content_type, "application/json");
      m_response.body() = std::move(*answer.text);
    }
    send();
  }

  // subscriptions/listen: the socket becomes an event stream that starts
  // with the acknowledgement and carries what the filter asked for.
  void start_listen_stream(std::shared_ptr<mcp::Session> session, const mcp::Caller& caller,
                           std::string acknowledgement) {
    auto hub = std::make_shared<EventHub>();
    std::weak_ptr<EventHub> weak_hub = hub;
    session->set_sink([weak_hub](std::string message) {
      if (const std::shared_ptr<EventHub> alive = weak_hub.lock()) {
        alive->publish(message);
      }
    });
    m_impl.add_listen_hub(hub);
    m_request.reset();  // a live stream, not a request in flight
    std::make_shared<SseStream>(m_impl, std::move(m_stream), std::move(m_slot), std::move(hub), caller,
                                std::move(m_bearer), std::move(acknowledgement), std::move(session))
        ->start();
  }

  void handle_get(Request& request, const mcp::Caller& caller) {
    const auto session_id = header(request, "Mcp-Session-Id");
    if (!session_id) {
      return send_error(http::status::bad_request, k_transport_error, "Bad Request: Mcp-Session-Id header is required");
    }
    std::shared_ptr<HttpSession> session = m_impl.registry.find(*session_id, caller);
    if (!session) {
      session = m_impl.resume_session(*session_id, caller);
    }
    if (!session) {
      return send_error(http::status::not_found, k_session_not_found, "Session not found");
    }
    std::optional<std::string> last_event_id;
    if (const auto last = header(request, "Last-Event-ID")) {
      last_event_id = std::string(trim_http_whitespace(*last));
    }
    // The socket now belongs to the stream; this connection ends here.
    m_request.reset();  // a live stream, not a request in flight
    const bool resync = std::make_shared<SseStream>(m_impl, std::move(m_stream), std::move(m_slot), session->hub,
                                                    caller, std::move(m_bearer))
                            ->start(last_event_id);
    if (resync) {
      // A Last-Event-ID this replica cannot replay from (the stream was on
      // another replica, or too much happened since): the client re-reads.
      session->session->resync();
    }
  }

  void handle_delete(Request& request, const mcp::Caller& caller) {
    const auto session_id = header(request, "Mcp-Session-Id");
    if (!session_id) {
      return send_error(http::status::bad_request, k_transport_error, "Bad Request: Mcp-Session-Id header is required");
    }
    std::shared_ptr<HttpSession> session = m_impl.registry.remove(*session_id, caller);
    if (!session && m_impl.resume_session(*session_id, caller)) {
      session = m_impl.registry.remove(*session_id, caller);  // made on another replica
    }
    if (!session) {
      return send_error(http::status::not_found, k_session_not_found, "Session not found");
    }
    m_impl.forget_session(session->id);
    Impl::end_session(*session);
    prepare(http::status::ok);
    send();
  }

  void send_answer(std::optional<std::string> answer, bool as_event_stream, const std::string* session_id) {
    if (!answer) {
      prepare(http::status::accepted);
    } else if (as_event_stream) {
      prepare(http::status::ok);
      m_response.set(http::field::content_type, "text/event-stream");
      m_response.set(http::field::cache_control, "no-cache");
      m_response.body() = sse_event(*answer);
    } else {
      prepare(http::status::ok);
      m_response.set(http::field::content_type, "application/json");
      m_response.body() = std::move(*answer);
    }
    if (session_id != nullptr) {
      m_response.set("Mcp-Session-Id", *session_id);
    }
    send();
  }

  void prepare(http::status status) {
    m_response = Response{};
    m_response.version(11);
    m_response.result(status);
  }

  void prepare_error(http::status status, int code, std::string_view message) {
    prepare(status);
    m_response.set(http::field::content_type, "application/json");
    m_response.body() = jsonrpc_error_body(code, message);
  }

  void send_error(http::status status, int code, std::string_view message) {
    prepare_error(status, code, message);
    send();
  }

  void send() {
    if (m_impl.draining.load()) {
      m_keep_alive = false;  // the client's next request goes to another replica
    }
    m_response.keep_alive(m_keep_alive);
    m_response.prepare_payload();
    m_stream.expires_after(std::chrono::milliseconds(m_impl.options.read_timeout_ms));
    http::async_write(m_stream, m_response,
                      [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_written(ec); });
  }

  void on_written(beast::error_code ec) {
    m_request.reset();
    if (ec || m_impl.stopped.load(std::memory_order_relaxed)) {
      return close();
    }
    if (!m_keep_alive) {
      return linger_then_close();
    }
    read_header();
  }

  // After a final response the client may still be sending (a refused body):
  // closing with unread bytes would reset the connection and could destroy
  // the response before the client reads it. So half-close, discard what
  // still arrives for a moment, then close.
  void linger_then_close() {
    beast::error_code ignored;
    m_stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    linger();
  }

  // One deadline for the whole linger: set once, not moved by each byte.
  void linger() {
    if (!m_linger_deadline) {
      m_linger_deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(m_impl.options.linger_ms);
    }
    m_stream.expires_at(*m_linger_deadline);
    m_stream.async_read_some(asio::buffer(m_discard), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) {
        return self->close();
      }
      self->linger();
    });
  }

  void close() {
    beast::error_code ignored;
    m_stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    m_stream.close();
  }

  Impl& m_impl;
  beast::tcp_stream m_stream;
  ConnectionSlot m_slot;
  std::optional<RequestInFlight> m_request;  // set while a request is being handled
  beast::flat_buffer m_buffer;
  std::optional<http::request_parser<http::string_body>> m_parser;
  Response m_response;
  bool m_keep_alive = false;
  std::optional<mcp::Caller> m_caller;  // who sent the request being handled (set by admit)
  bool m_auth_unavailable = false;      // the bearer could not be checked (database unreachable): 503, not 401
  std::optional<std::string> m_bearer;  // its token, re-checked by a GET stream or event socket (set by identify)
  std::optional<std::uint64_t> m_since;  // /api/v1/events?since=N (set by admit_events)
  std::optional<std::string> m_web_session;  // the event socket's session cookie, when it came with one
  std::optional<std::chrono::steady_clock::time_point> m_linger_deadline;
  bool m_refused = false;                // reading the small body of a refused request
  enum class Route { mcp, api, proxy, events, session, web, health, ready };
  Route m_route = Route::mcp;            // where the request being handled goes (set by admit)
  std::array<char, 4096> m_discard{};
};

}  // namespace

Result<void> Impl::listen() {
  beast::error_code ec;
  std::string host = options.listen_host;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string where = options.listen_host + ":" + std::to_string(options.port);
  tcp::resolver resolver(ioc);
  const auto endpoints = resolver.resolve(host, std::to_string(options.port),
                                          tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || endpoints.empty()) {
    return fail(ErrorCode::invalid_argument, "cannot resolve listen address " + where + ": " + ec.message());
  }
  const tcp::endpoint endpoint = endpoints.begin()->endpoint();
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) {
    acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  }
  if (!ec) {
    acceptor.bind(endpoint, ec);
  }
  if (!ec) {
    acceptor.listen(asio::socket_base::max_listen_connections, ec);
  }
  if (ec) {
    return fail(ErrorCode::io_error, "cannot listen on " + where + ": " + ec.message());
  }
  port = acceptor.local_endpoint(ec).port();
  return {};
}

void Impl::launch() {
  accept();
  schedule_reap();
  const unsigned count = options.threads == 0 ? 1 : options.threads;
  threads.reserve(count);
  for (unsigned i = 0; i < count; ++i) {
    threads.emplace_back([this] {
      // A handler that throws (allocation failure, a bug) must not take the
      // server down: report it and keep serving.
      while (!stopped.load()) {
        try {
          ioc.run();
          return;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "skillrt serve: unexpected error in a request handler: %s\n", e.what());
        }
      }
    });
  }
}

void Impl::accept() {
  acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (stopped.load() || ec == asio::error::operation_aborted) {
      return;
    }
    if (ec) {
      // Typically EMFILE: back off briefly instead of spinning.
      accept_retry.expires_after(std::chrono::milliseconds(50));
      accept_retry.async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec) {
          accept();
        }
      });
      return;
    }
    beast::error_code ignored;
    const tcp::endpoint remote = socket.remote_endpoint(ignored);
    std::string peer = ignored ? std::string{} : remote.address().to_string();
    if (!take_connection(peer)) {
      // Over a cap: refuse before reading a byte, so a flood costs us no
      // buffers and cannot run the process out of descriptors.
      socket.set_option(asio::socket_base::linger(true, 0), ignored);
      socket.close(ignored);
      accept();
      return;
    }
    socket.set_option(tcp::no_delay(true), ignored);
    ConnectionSlot slot(*this, std::move(peer));
    std::make_shared<HttpConnection>(*this, std::move(socket), std::move(slot))->start();
    accept();
  });
}

void Impl::schedule_reap() {
  const std::int64_t idle_ms = std::int64_t{options.idle_session_timeout_s} * 1000;
  const std::int64_t interval_ms = std::clamp<std::int64_t>(idle_ms / 4, 250, 60'000);
  reap_timer.expires_after(std::chrono::milliseconds(interval_ms));
  reap_timer.async_wait([this, idle_ms](beast::error_code ec) {
    if (ec || stopped.load()) {
      return;
    }
    // Idle here is not idle everywhere: a replica forgets its own copy, and
    // the shared row goes only once unused for the timeout on every replica
    // (rows are marked used at most once a minute, hence the extra minute).
    for (const std::shared_ptr<HttpSession>& session : registry.remove_idle(SessionRegistry::now_ms(), idle_ms)) {
      end_session(*session);
    }
    if (options.session_store && SessionRegistry::now_ms() >= next_session_prune_ms) {
      next_session_prune_ms = SessionRegistry::now_ms() + 60'000;
      asio::post(api_pool, [this, idle_ms] {
        std::lock_guard lock(session_store_mutex);
        (void)options.session_store->prune(std::chrono::seconds(idle_ms / 1000 + 60));
      });
    }
    schedule_reap();
  });
}

bool Impl::take_connection(const std::string& peer) {
  std::lock_guard lock(connections_mutex);
  if (connection_count >= options.max_connections) {
    return false;
  }
  const auto it = connections_per_peer.find(peer);
  const std::size_t from_peer = it == connections_per_peer.end() ? 0 : it->second;
  if (from_peer >= options.max_connections_per_ip) {
    return false;
  }
  ++connections_per_peer[peer];
  ++connection_count;
  return true;
}

void Impl::release_connection(const std::string& peer) {
  std::lock_guard lock(connections_mutex);
  --connection_count;
  if (const auto it = connections_per_peer.find(peer); it != connections_per_peer.end() && --it->second == 0) {
    connections_per_peer.erase(it);
  }
}

void Impl::end_session(HttpSession& session) {
  session.hub->shut();
  session.session->close();
}

std::shared_ptr<HttpSession> Impl::make_session(std::string id, const mcp::Caller& caller,
                                                const mcp::SessionState* resumed) {
  auto session = std::make_shared<HttpSession>();
  session->id = std::move(id);
  session->caller = caller;
  session->hub = std::make_shared<EventHub>();
  std::weak_ptr<EventHub> hub = session->hub;
  mcp::MessageSink sink = [hub](std::string message) {
    if (const std::shared_ptr<EventHub> alive = hub.lock()) {
      alive->publish(message);
    }
  };
  session->session = resumed != nullptr ? server.resume_session(caller, std::move(sink), *resumed)
                                        : server.open_session(caller, std::move(sink));
  return session;
}

std::shared_ptr<HttpSession> Impl::resume_session(std::string_view id, const mcp::Caller& caller) {
  if (!options.session_store || id.empty() || id.size() > 128) {
    return nullptr;
  }
  Result<std::optional<core::StoredSession>> stored;
  {
    std::lock_guard lock(session_store_mutex);
    stored = options.session_store->load(id);
  }
  if (!stored || !*stored) {
    return nullptr;  // unknown (or the database cannot say): the client starts a new session
  }
  const core::StoredSession& row = **stored;
  const mcp::Caller made_by{row.user_id, row.org_id, row.anonymous};
  const auto& versions = mcp::supported_protocol_versions();
  if (!same_caller(made_by, caller) || made_by.anonymous != caller.anonymous ||
      std::find(versions.begin(), versions.end(), row.protocol_version) == versions.end()) {
    return nullptr;  // another caller's id, or a revision this replica does not speak
  }
  mcp::SessionState state;
  state.protocol_version = row.protocol_version;
  state.log_level = row.log_level;
  state.subscriptions = row.subscriptions;
  std::shared_ptr<HttpSession> session = make_session(std::string(id), caller, &state);
  session->saved_version.store(session->session->state_version());
  session->saved_ms.store(SessionRegistry::now_ms());
  session->last_used_ms.store(SessionRegistry::now_ms());
  std::shared_ptr<HttpSession> evicted;
  if (!registry.add(session, &evicted)) {
    // Taken meanwhile (two requests resumed it at once): use the one registered.
    session->session->close();
    return registry.find(id, caller);
  }
  if (evicted) {
    end_session(*evicted);
  }
  return session;
}

void Impl::persist_session(HttpSession& session) {
  if (!options.session_store || !session.session->initialized()) {
    return;
  }
  const std::uint64_t version = session.session->state_version();
  const std::int64_t now = SessionRegistry::now_ms();
  const bool changed = version != session.saved_version.load();
  if (!changed && now - session.saved_ms.load() < 60'000) {
    return;
  }
  Result<void> done;
  {
    std::lock_guard lock(session_store_mutex);
    if (changed) {
      const mcp::SessionState state = session.session->state();
      core::StoredSession row;
      row.id = session.id;
      row.user_id = session.caller.user_id;
      row.org_id = session.caller.org_id;
      row.anonymous = session.caller.anonymous;
      row.protocol_version = state.protocol_version;
      row.log_level = state.log_level;
      row.subscriptions = state.subscriptions;
      done = options.session_store->save(row);
    } else {
      done = options.session_store->touch(session.id);
    }
  }
  // A failed save is tried again with the next request; the session works
  // here meanwhile, it only cannot move to another replica yet.
  if (done) {
    session.saved_version.store(version);
    session.saved_ms.store(now);
  }
}

void Impl::forget_session(std::string_view id) {
  if (options.session_store) {
    std::lock_guard lock(session_store_mutex);
    (void)options.session_store->remove(id);
  }
}

void Impl::add_listen_hub(const std::shared_ptr<EventHub>& hub) {
  std::lock_guard lock(listen_mutex);
  std::erase_if(listen_hubs, [](const std::weak_ptr<EventHub>& entry) { return entry.expired(); });
  listen_hubs.push_back(hub);
}

void Impl::end_listen_streams() {
  std::vector<std::weak_ptr<EventHub>> hubs;
  {
    std::lock_guard lock(listen_mutex);
    hubs.swap(listen_hubs);
  }
  for (const std::weak_ptr<EventHub>& entry : hubs) {
    if (const std::shared_ptr<EventHub> hub = entry.lock()) {
      hub->shut();
    }
  }
}

void Impl::stop() {
  stopped.store(true);
  ioc.stop();
}

void Impl::join() {
  std::lock_guard lock(join_mutex);
  for (std::thread& thread : threads) {
    if (thread.joinable()) {
      thread.join();
    }
  }
  beast::error_code ignored;
  acceptor.close(ignored);
}

Impl::~Impl() {
  stop();
  join();
  api_pool.join();
  if (proxy) {
    stop_proxy_runtime(*proxy);
  }
  // No I/O thread runs any more: end every session so the MCP server stops
  // calling our sinks before the pending handlers (and their sockets) go.
  for (const std::shared_ptr<HttpSession>& session : registry.remove_all()) {
    end_session(*session);
  }
  end_listen_streams();
}

Result<std::unique_ptr<McpHttpServer>> McpHttpServer::start(HttpOptions options, mcp::Server& server,
                                                            Authenticator authenticate) {
  const bool loopback = is_loopback_host(options.listen_host);
  if (options.allow_anonymous && !loopback) {
    return fail(ErrorCode::invalid_argument, "anonymous access is only allowed on a loopback address "
                                             "(127.0.0.1, ::1, localhost), not " +
                                                 options.listen_host);
  }
  if (options.path.empty() || options.path.front() != '/') {
    return fail(ErrorCode::invalid_argument, "the endpoint path must start with '/': " + options.path);
  }
  auto impl = std::make_unique<Impl>(std::move(options), server, std::move(authenticate), loopback);
  if (impl->options.proxy) {
    auto runtime = start_proxy_runtime(impl->ioc, *impl->options.proxy);
    if (!runtime) {
      return tl::unexpected(runtime.error());
    }
    impl->proxy = std::move(*runtime);
  }
  if (Result<void> listening = impl->listen(); !listening) {
    return tl::unexpected(listening.error());
  }
  impl->launch();
  return std::unique_ptr<McpHttpServer>(new McpHttpServer(std::move(impl)));
}

McpHttpServer::McpHttpServer(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

McpHttpServer::~McpHttpServer() = default;

std::uint16_t McpHttpServer::bound_port() const { return m_impl->port; }

void McpHttpServer::wait() { m_impl->join(); }

void McpHttpServer::stop() { m_impl->stop(); }

void McpHttpServer::drain(std::chrono::milliseconds grace) {
  Impl& impl = *m_impl;
  if (impl.stopped.load() || impl.draining.exchange(true)) {
    return;
  }
  // On the acceptor's strand: no connection is accepted after this.
  auto closed = std::make_shared<std::promise<void>>();
  std::future<void> acceptor_closed = closed->get_future();
  asio::post(impl.acceptor.get_executor(), [&impl, closed] {
    beast::error_code ignored;
    impl.acceptor.close(ignored);
    closed->set_value();
  });
  if (acceptor_closed.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    return;  // the I/O threads are stuck: stop() will cut what is left
  }
  // MCP sessions' GET streams end now (a 2025 client re-opens one on another
  // replica); event sockets close with 1001 at their next tick.
  for (const std::shared_ptr<HttpSession>& session : impl.registry.remove_all()) {
    Impl::end_session(*session);
  }
  impl.end_listen_streams();  // a 2026-07-28 client listens again on another replica
  // Event sockets send their close frame at their next tick
  // (events_recheck_ms); waiting for each peer's answer is not worth a
  // longer stop.
  const auto now = std::chrono::steady_clock::now();
  const auto deadline = now + grace;
  const auto sockets_told = impl.event_sockets.load() == 0
                                ? now
                                : now + std::chrono::milliseconds(impl.options.events_recheck_ms + 50);
  while (std::chrono::steady_clock::now() < deadline &&
         (impl.in_flight.load() > 0 || std::chrono::steady_clock::now() < sockets_told)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace skillrt::net
