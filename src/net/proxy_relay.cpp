// The relay of the OpenAI-compatible proxy on Boost.Beast. One ProxyRelay per
// proxied request, running on the caller's connection strand:
//
//   (for a caller the observer's rewrite_needed names: the body rewritten on
//    the worker pool first; for every other caller it is never touched)
//   → take an idle upstream connection (or resolve and connect a new one)
//   → write the request head and the caller's body
//   → read the upstream's response head → relay status, headers and framing
//   → relay the body piece by piece as it arrives (a stream is never held)
//   → give the upstream connection back to the pool, hand the caller's
//     connection back to the server.
//
// Beside it, off the I/O threads, the observer's worker pool reads the
// request body (read_proxy_call) and the reply (assembled from a copy of the
// relayed bytes) and calls the observer. While a review runs
// (turn_started_needed), the request is read as soon as it arrives and the
// answer's head waits for that and for turn_started (the gate); otherwise
// the observer's whole work comes after the answer.
#include "net/proxy_relay.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>

#include "core/chat/chat_stream.hpp"
#include "core/chat/chat_wire.hpp"
#include "net/proxy_rules.hpp"
#include "skillrt/try.hpp"

namespace skillrt::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using ClientRequest = http::request<http::string_body>;
using UpstreamParser = http::response_parser<http::buffer_body>;

// One read of the upstream body; a stream's events are far smaller, and a
// large non-streamed answer goes through in pieces of this size.
constexpr std::size_t k_piece_bytes = 32 * 1024;
constexpr std::uint32_t k_upstream_header_limit = 64 * 1024;
// How long an idle upstream connection is reused when the upstream does not
// say (Keep-Alive: timeout=N); below the 5 s of Node's and uvicorn's servers.
constexpr std::chrono::milliseconds k_default_reuse_window{4000};

std::string_view view(beast::string_view text) { return {text.data(), text.size()}; }

bool is_success(unsigned status) { return status >= 200 && status < 300; }

// "10 s", "0.5 s".
std::string seconds_text(std::uint32_t ms) {
  std::string text = std::to_string(ms / 1000);
  if (ms % 1000 != 0) {
    text += '.' + std::to_string(ms % 1000 / 100);
  }
  return text + " s";
}

// No bytes and no hang-up waiting on an idle connection: the upstream has not
// closed it (or sent something unasked, which makes it unusable as well).
bool idle_socket_usable(tcp::socket& socket) {
  pollfd probe{};
  probe.fd = socket.native_handle();
  probe.events = POLLIN | POLLRDHUP;
  return ::poll(&probe, 1, 0) == 0;
}

}  // namespace

class ProxyRuntime {
 public:
  ProxyRuntime(asio::io_context& io, ProxyOptions proxy_options, UpstreamUrl url)
      : ioc(io),
        options(std::move(proxy_options)),
        upstream(std::move(url)),
        authorization(options.api_key.empty() ? std::string{} : "Authorization: Bearer " + options.api_key + "\r\n"),
        observers(options.observer_threads == 0 ? 1u : options.observer_threads) {}

  // An idle connection that still looks open, or nullopt.
  std::optional<tcp::socket> take_idle() {
    std::lock_guard lock(m_mutex);
    const Clock::time_point now = Clock::now();
    while (!m_idle.empty()) {
      Idle idle = std::move(m_idle.back());
      m_idle.pop_back();
      if (idle.reuse_until > now && idle_socket_usable(idle.socket)) {
        return std::move(idle.socket);
      }
      beast::error_code ignored;
      idle.socket.close(ignored);
    }
    return std::nullopt;
  }

  void give_back(tcp::socket socket, Clock::time_point reuse_until) {
    std::lock_guard lock(m_mutex);
    if (m_stopped || m_idle.size() >= options.max_idle_connections) {
      beast::error_code ignored;
      socket.close(ignored);
      return;
    }
    m_idle.push_back(Idle{std::move(socket), reuse_until});
  }

  void stop() {
    observers.join();
    std::lock_guard lock(m_mutex);
    m_stopped = true;
    for (Idle& idle : m_idle) {
      beast::error_code ignored;
      idle.socket.close(ignored);
    }
    m_idle.clear();
  }

  asio::io_context& ioc;
  const ProxyOptions options;
  const UpstreamUrl upstream;
  const std::string authorization;  // the header line sent upstream, "" without a key
  asio::thread_pool observers;      // read_proxy_call and the observer's calls

 private:
  struct Idle {
    tcp::socket socket;
    Clock::time_point reuse_until;
  };
  std::mutex m_mutex;
  std::vector<Idle> m_idle;  // most recently used last
  bool m_stopped = false;
};

namespace {

class ProxyRelay : public std::enable_shared_from_this<ProxyRelay> {
 public:
  ProxyRelay(std::shared_ptr<ProxyRuntime> runtime, beast::tcp_stream& client, ClientRequest request,
             mcp::Caller caller, bool keep_alive, std::chrono::milliseconds write_timeout,
             std::function<void(bool)> done)
      : m_runtime(std::move(runtime)),
        m_client(client),
        m_executor(client.get_executor()),
        m_request(std::move(request)),
        m_caller(std::move(caller)),
        m_keep_alive(keep_alive),
        m_write_timeout(write_timeout),
        m_done(std::move(done)),
        m_resolver(m_executor),
        m_timer(m_executor),
        m_piece(std::make_unique_for_overwrite<char[]>(k_piece_bytes)) {}

  void start() {
    m_is_chat = m_request.method() == http::verb::post;
    const ProxyObserver& observer = options().observer;
    if (m_is_chat && observer.rewrite && observer.rewrite_needed && observer.rewrite_needed(m_caller)) {
      // The body is not touched by the strand while the pool rewrites it.
      asio::post(m_runtime->observers, [self = shared_from_this()] {
        std::optional<std::string> body;
        try {
          body = self->options().observer.rewrite(self->m_caller, self->m_request.body());
        } catch (const std::exception& error) {
          std::fprintf(stderr, "skillrt serve: proxy rewrite failed: %s\n", error.what());
        }
        asio::post(self->m_executor, [self, body = std::move(body)]() mutable {
          if (body) {
            self->m_request.body() = std::move(*body);
          }
          self->relay_request();
        });
      });
      return;
    }
    relay_request();
  }

 private:
  void relay_request() {
    build_upstream_head();
    observe_request();
    watch_client();
    if (std::optional<tcp::socket> idle = m_runtime->take_idle()) {
      m_upstream.emplace(std::move(*idle));
      m_reused = true;
      return write_request();
    }
    connect();
  }

  const ProxyOptions& options() const { return m_runtime->options; }

  template <class Handler>
  auto on_strand(Handler&& handler) {
    return asio::bind_executor(m_executor, std::forward<Handler>(handler));
  }

  // --- the request -------------------------------------------------------

  void build_upstream_head() {
    std::string& head = m_upstream_head;
    head.reserve(512);
    head.append(view(m_request.method_string()));
    head += ' ';
    head += upstream_target(m_runtime->upstream, view(m_request.target()));
    head += " HTTP/1.1\r\nHost: ";
    head += m_runtime->upstream.authority;
    head += "\r\n";
    head += m_runtime->authorization;
    for (const auto& field : m_request) {
      const std::string_view name = view(field.name_string());
      if (forwarded_request_header(name)) {
        head.append(name).append(": ").append(view(field.value())).append("\r\n");
      } else if (beast::iequals(field.name_string(), k_conversation_id_header)) {
        m_conversation_id = std::string(view(field.value()));
      }
    }
    if (m_request.method() == http::verb::post || !m_request.body().empty()) {
      head += "Content-Length: " + std::to_string(m_request.body().size()) + "\r\n";
    }
    head += "\r\n";
  }

  // A chat completion is observed. When turn_started may have work to do,
  // the request is read on the observer's pool while it goes upstream, and
  // the answer's head waits for that (the gate), so turn_started has
  // returned before the agent sees the reply of a new turn. Otherwise
  // nothing happens before the answer: the request is read with the reply.
  void observe_request() {
    const ProxyObserver& observer = options().observer;
    m_observing = m_is_chat && (observer.turn_started || observer.finished);
    if (!m_observing || !observer.turn_started ||
        (observer.turn_started_needed && !observer.turn_started_needed())) {
      return;
    }
    m_call_pending = true;
    asio::post(m_runtime->observers, [self = shared_from_this()] {
      // The body is not touched by the strand while this reads it.
      std::shared_ptr<ProxyCall> call = read_call(self->m_request.body(), self->m_caller, self->m_conversation_id);
      if (call) {
        const ProxyObserver& watcher = self->options().observer;
        if (call->user_turn) {
          try {
            watcher.turn_started(*call);
          } catch (const std::exception& error) {
            std::fprintf(stderr, "skillrt serve: proxy observer failed: %s\n", error.what());
          }
        }
      }
      asio::post(self->m_executor, [self, call = std::move(call)]() mutable { self->on_call_read(std::move(call)); });
    });
  }

  static std::shared_ptr<ProxyCall> read_call(std::string_view body, const mcp::Caller& caller,
                                              const std::string& conversation_id) {
    Result<ProxyCall> read = read_proxy_call(body);
    if (!read) {
      return nullptr;  // not a chat request we can read: nothing to observe
    }
    read->caller = caller;
    read->conversation_id = conversation_id;
    return std::make_shared<ProxyCall>(std::move(*read));
  }

  void on_call_read(std::shared_ptr<ProxyCall> call) {
    m_call = std::move(call);
    m_call_read = true;
    m_call_pending = false;
    if (m_report_when_read) {
      report(*m_report_when_read);
      return;
    }
    if (m_head_waiting && !m_ended) {
      m_head_waiting = false;
      relay_head();
    }
  }

  void connect() {
    arm_timer(options().connect_timeout_ms, Phase::connecting);
    m_resolver.async_resolve(
        m_runtime->upstream.host, std::to_string(m_runtime->upstream.port),
        on_strand([self = shared_from_this()](beast::error_code ec, const tcp::resolver::results_type& results) {
          self->on_resolved(ec, results);
        }));
  }

  void on_resolved(beast::error_code ec, const tcp::resolver::results_type& results) {
    if (m_ended) {
      return;
    }
    if (ec) {
      return upstream_failed(ec, "cannot resolve the upstream host");
    }
    m_upstream.emplace(m_runtime->ioc);
    m_reused = false;
    asio::async_connect(*m_upstream, results,
                        on_strand([self = shared_from_this()](beast::error_code connect_ec, const tcp::endpoint&) {
                          self->on_connected(connect_ec);
                        }));
  }

  void on_connected(beast::error_code ec) {
    if (m_ended) {
      return;
    }
    if (ec) {
      return upstream_failed(ec, "cannot connect to the upstream");
    }
    beast::error_code ignored;
    m_upstream->set_option(tcp::no_delay(true), ignored);
    write_request();
  }

  void new_parser() {
    m_parser.emplace();
    m_parser->header_limit(k_upstream_header_limit);
    m_parser->body_limit(boost::none);  // relayed in pieces, never held whole
  }

  void write_request() {
    new_parser();
    m_upstream_buffer.clear();
    arm_timer(options().response_timeout_ms, Phase::waiting);
    const std::array<asio::const_buffer, 2> buffers{asio::buffer(m_upstream_head), asio::buffer(m_request.body())};
    asio::async_write(*m_upstream, buffers,
                      on_strand([self = shared_from_this()](beast::error_code ec, std::size_t) {
                        self->on_request_written(ec);
                      }));
  }

  void on_request_written(beast::error_code ec) {
    if (m_ended) {
      return;
    }
    if (ec) {
      return upstream_failed(ec, "the upstream closed the connection");
    }
    read_head();
  }

  void read_head() {
    http::async_read_header(*m_upstream, m_upstream_buffer, *m_parser,
                            on_strand([self = shared_from_this()](beast::error_code read_ec, std::size_t) {
                              self->on_head(read_ec);
                            }));
  }

  // Before the answer's head: a reused connection that broke without a byte
  // of answer was closed by the upstream while idle (a race its keep-alive
  // timeout allows), so the request goes once more on a new connection, as
  // curl does. Anything else is the caller's 502, or 504 after a timeout.
  void upstream_failed(beast::error_code ec, std::string_view what) {
    close_upstream();
    if (m_timed_out) {
      const std::uint32_t limit =
          m_phase == Phase::connecting ? options().connect_timeout_ms : options().response_timeout_ms;
      return answer_error(504,
                          "skillrt proxy: the upstream " + options().upstream_url + " did not " +
                              (m_phase == Phase::connecting ? "accept a connection" : "answer") + " within " +
                              seconds_text(limit),
                          "upstream_timeout");
    }
    if (m_reused && !m_retried && m_upstream_buffer.size() == 0 && m_parser && !m_parser->got_some()) {
      m_retried = true;
      return connect();
    }
    answer_error(502,
                 "skillrt proxy: " + std::string(what) + " " + options().upstream_url + ": " + ec.message(),
                 "upstream_unreachable");
  }

  // --- the answer --------------------------------------------------------

  void on_head(beast::error_code ec) {
    if (m_ended) {
      return;
    }
    if (ec) {
      if (m_parser->got_some() && !m_timed_out) {
        close_upstream();
        return answer_error(502, "skillrt proxy: the upstream's answer is not valid HTTP: " + ec.message(),
                            "upstream_bad_response");
      }
      return upstream_failed(ec, "the upstream closed the connection before answering");
    }
    if (m_parser->get().result_int() / 100 == 1) {
      // An interim answer (103 Early Hints, a stray 100 Continue): the real one follows.
      new_parser();
      return read_head();
    }
    stop_timer();  // read_piece arms the idle timeout
    m_status = m_parser->get().result_int();
    if (m_call_pending) {
      m_head_waiting = true;  // the gate: relayed once the request has been read
      return;
    }
    relay_head();
  }

  void relay_head() {
    const auto& head = m_parser->get();
    std::string& out = m_out;
    out.clear();
    out += "HTTP/1.1 ";
    out += std::to_string(m_status);
    out += ' ';
    const std::string_view reason = view(head.reason());
    out += reason.empty() ? view(http::obsolete_reason(head.result())) : reason;
    out += "\r\n";
    for (const auto& field : head) {
      const std::string_view name = view(field.name_string());
      if (relayed_response_header(name)) {
        out.append(name).append(": ").append(view(field.value())).append("\r\n");
      }
    }
    const bool bodiless = m_status / 100 == 1 || m_status == 204 || m_status == 304;
    if (bodiless) {
      // no body, no framing
    } else if (const auto length = m_parser->content_length()) {
      out += "Content-Length: " + std::to_string(*length) + "\r\n";
    } else if (m_request.version() >= 11) {
      out += "Transfer-Encoding: chunked\r\n";
      m_chunked = true;
    } else {
      m_keep_alive = false;  // an HTTP/1.0 caller: the body ends when we close
    }
    if (!m_keep_alive) {
      out += "Connection: close\r\n";
    }
    out += "\r\n";

    const auto content_type = head.find(http::field::content_type);
    const bool event_stream = content_type != head.end() && is_event_stream(view(content_type->value()));
    // Gated: a request that did not read as a chat request is not observed.
    m_observe_reply = m_observing && (!m_call_read || m_call) && options().observer.finished && is_success(m_status);
    if (m_observe_reply && event_stream) {
      m_stream_reply.emplace();
    }

    if (m_parser->is_done()) {
      release_upstream();
      return write_out(true);
    }
    if (m_upstream_buffer.size() > 0) {
      return read_piece();  // body bytes came with the head: one write for both
    }
    write_out(false);  // a stream's head reaches the caller before its first event
  }

  void read_piece() {
    auto& body = m_parser->get().body();
    body.data = m_piece.get();
    body.size = k_piece_bytes;
    arm_timer(options().idle_timeout_ms, Phase::relaying);
    http::async_read_some(*m_upstream, m_upstream_buffer, *m_parser,
                          on_strand([self = shared_from_this()](beast::error_code ec, std::size_t) {
                            self->on_piece(ec);
                          }));
  }

  void on_piece(beast::error_code ec) {
    if (m_ended) {
      return;
    }
    if (ec == http::error::need_buffer) {
      ec = {};
    }
    if (ec) {
      return abort();  // the upstream broke off (or went silent) mid-answer: the caller sees it cut
    }
    const std::size_t got = k_piece_bytes - m_parser->get().body().size;
    const std::string_view piece(m_piece.get(), got);
    if (m_chunked) {
      append_http_chunk(m_out, piece);
    } else {
      m_out += piece;
    }
    const bool last = m_parser->is_done();
    if (last) {
      release_upstream();
    }
    if (last && m_chunked) {
      m_out += "0\r\n\r\n";
    }
    if (m_out.empty() && !last) {
      return read_piece();  // only framing was read
    }
    write_out(last);
    observe_piece(piece);  // while the kernel sends it
  }

  void observe_piece(std::string_view piece) {
    if (!m_observe_reply || piece.empty()) {
      return;
    }
    if (m_stream_reply) {
      // Its errors are kept and returned by finish(); the relay goes on.
      (void)m_stream_reply->feed(piece);
      return;
    }
    if (m_reply_overflow) {
      return;
    }
    if (m_reply_bytes.size() + piece.size() > options().max_observed_reply_bytes) {
      m_reply_overflow = true;
      std::string().swap(m_reply_bytes);
      return;
    }
    m_reply_bytes += piece;
  }

  // Writes m_out to the caller; after a `last` write the answer is complete.
  void write_out(bool last) {
    m_last_write = last;
    m_writing = true;
    m_client.expires_after(m_write_timeout);
    asio::async_write(m_client, asio::buffer(m_out),
                      on_strand([self = shared_from_this()](beast::error_code ec, std::size_t) {
                        self->on_client_written(ec);
                      }));
  }

  void on_client_written(beast::error_code ec) {
    m_writing = false;
    if (m_ended) {
      return;
    }
    if (ec) {
      return abort();  // the caller went away or stopped reading
    }
    m_out.clear();
    if (m_error_answer) {
      return end(m_keep_alive);
    }
    if (m_last_write) {
      return finish();
    }
    read_piece();
  }

  // --- the caller --------------------------------------------------------

  // While the upstream thinks, nothing is written to the caller, so its
  // going away is noticed by waiting for its socket to become readable: a
  // closed connection cancels the upstream request at once.
  void watch_client() {
    m_client.socket().async_wait(tcp::socket::wait_read,
                                 on_strand([self = shared_from_this()](beast::error_code ec) {
                                   self->on_client_readable(ec);
                                 }));
  }

  void on_client_readable(beast::error_code ec) {
    if (m_ended || ec == asio::error::operation_aborted) {
      return;
    }
    if (m_writing && m_last_write) {
      // The caller read the whole answer and hung up before our write's
      // completion ran: that write says whether it was delivered.
      return;
    }
    if (!ec) {
      char byte = 0;
      const ssize_t peeked = ::recv(m_client.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
      if (peeked > 0) {
        return;  // the caller's next request, pipelined: it is still there
      }
      if (peeked < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        return watch_client();
      }
    }
    abort();  // the caller closed (or reset) its connection
  }

  // --- endings -----------------------------------------------------------

  enum class Phase { connecting, waiting, relaying };

  void arm_timer(std::uint32_t ms, Phase phase) {
    m_phase = phase;
    ++m_timer_generation;
    m_timer.expires_after(std::chrono::milliseconds(ms));
    m_timer.async_wait(on_strand([self = shared_from_this(), generation = m_timer_generation](beast::error_code ec) {
      // A wait that completed before it was re-armed is stale.
      if (ec || generation != self->m_timer_generation || self->m_ended) {
        return;
      }
      self->m_timed_out = true;
      self->m_resolver.cancel();
      self->close_upstream();
    }));
  }

  void stop_timer() {
    ++m_timer_generation;
    m_timer.cancel();
  }

  // Closed, not destroyed: an operation in flight still refers to the
  // socket, and completes (with an error) once it is closed.
  void close_upstream() {
    if (m_upstream && m_upstream->is_open()) {
      beast::error_code ignored;
      m_upstream->shutdown(tcp::socket::shutdown_both, ignored);
      m_upstream->close(ignored);
    }
  }

  // Before anything was relayed: an OpenAI-shaped error from the proxy itself.
  void answer_error(unsigned status, const std::string& message, std::string_view code) {
    stop_timer();
    m_status = 0;
    report(false);
    const std::string body = openai_error_body(message, "upstream_error", code);
    m_out = "HTTP/1.1 " + std::to_string(status) + " " +
            std::string(view(http::obsolete_reason(static_cast<http::status>(status)))) +
            "\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nContent-Length: " +
            std::to_string(body.size()) + "\r\n" + (m_keep_alive ? "" : "Connection: close\r\n") + "\r\n" + body;
    m_error_answer = true;
    write_out(true);
  }

  // The upstream's answer is read whole: its connection goes back to the
  // pool now, before the last bytes go to the caller (who may send its next
  // request the moment it has them), or is closed.
  void release_upstream() {
    stop_timer();
    const auto keep_alive = m_parser->get().find(http::field::keep_alive);
    if (m_upstream && m_upstream->is_open() && m_parser->keep_alive() && m_upstream_buffer.size() == 0) {
      const auto window = keep_alive_reuse_window(
          keep_alive == m_parser->get().end() ? std::nullopt : std::optional<std::string_view>(view(keep_alive->value())),
          k_default_reuse_window);
      m_runtime->give_back(std::move(*m_upstream), Clock::now() + window);
    }
    close_upstream();
  }

  void finish() {
    report(true);
    end(m_keep_alive);
  }

  void abort() {
    stop_timer();
    close_upstream();
    report(false);
    end(false);
  }

  void end(bool keep_alive) {
    if (m_ended) {
      return;
    }
    m_ended = true;
    stop_timer();
    beast::error_code ignored;
    m_client.socket().cancel(ignored);  // the close watch
    // m_done is kept (not moved out): it owns the caller's connection, which
    // a write or wait of ours still in flight refers to until it completes.
    m_done(keep_alive);
  }

  // Hands the exchange to the observer's pool: the reply is assembled there.
  void report(bool complete) {
    if (m_reported) {
      return;
    }
    if (m_call_pending) {
      m_report_when_read = complete;  // on_call_read reports it
      return;
    }
    m_reported = true;
    if (!m_observing || !options().observer.finished || (m_call_read && !m_call)) {
      return;
    }
    const bool observe = complete && m_observe_reply && !m_reply_overflow;
    // Not read yet (no gate): the job reads the body. After a complete answer
    // the upstream write is long over and the body can move; an exchange cut
    // short may still have that write in flight, so it gets a copy.
    std::string body;
    if (!m_call_read) {
      body = complete ? std::move(m_request.body()) : m_request.body();
    }
    asio::post(m_runtime->observers,
               [runtime = m_runtime, call = std::move(m_call), body = std::move(body), caller = m_caller,
                conversation_id = m_conversation_id, status = m_status, complete, observe,
                stream_reply = std::move(m_stream_reply), reply_bytes = std::move(m_reply_bytes),
                overflow = m_reply_overflow]() mutable {
                 if (!call) {
                   call = read_call(body, caller, conversation_id);
                   if (!call) {
                     return;
                   }
                 }
                 ProxyOutcome outcome;
                 outcome.status = status;
                 outcome.complete = complete;
                 if (observe) {
                   Result<core::ChatReply> reply =
                       stream_reply ? stream_reply->finish() : core::parse_chat_reply(reply_bytes);
                   if (reply) {
                     outcome.reply = std::move(*reply);
                   } else {
                     outcome.reply_error = reply.error().message;
                   }
                 } else if (complete && overflow) {
                   outcome.reply_error = "the reply is larger than the observer reads";
                 }
                 try {
                   runtime->options.observer.finished(std::move(*call), std::move(outcome));
                 } catch (const std::exception& error) {
                   std::fprintf(stderr, "skillrt serve: proxy observer failed: %s\n", error.what());
                 }
               });
  }

  std::shared_ptr<ProxyRuntime> m_runtime;
  beast::tcp_stream& m_client;
  beast::tcp_stream::executor_type m_executor;  // the caller's connection strand
  // Read by the observer's pool while the gate is closed; the strand only
  // moves its body out once the exchange is over.
  ClientRequest m_request;
  const mcp::Caller m_caller;
  bool m_keep_alive;
  const std::chrono::milliseconds m_write_timeout;
  const std::function<void(bool)> m_done;
  std::string m_conversation_id;
  bool m_is_chat = false;

  // The upstream side.
  tcp::resolver m_resolver;
  asio::steady_timer m_timer;
  std::uint64_t m_timer_generation = 0;
  Phase m_phase = Phase::connecting;
  bool m_timed_out = false;
  std::optional<tcp::socket> m_upstream;
  bool m_reused = false;   // taken from the pool (it may have been closed meanwhile)
  bool m_retried = false;
  std::string m_upstream_head;
  beast::flat_buffer m_upstream_buffer;
  std::optional<UpstreamParser> m_parser;
  std::unique_ptr<char[]> m_piece;  // the body piece being read (k_piece_bytes)
  unsigned m_status = 0;

  // The caller side.
  std::string m_out;        // the bytes of the write in flight
  bool m_chunked = false;   // the answer is re-framed as chunks (the upstream's length unknown)
  bool m_error_answer = false;  // m_out is the proxy's own error answer
  bool m_last_write = false;
  bool m_writing = false;       // a write to the caller is in flight
  bool m_ended = false;     // done was called: the connection is no longer ours

  // The observation.
  bool m_observing = false;     // a chat completion the observer hears of
  bool m_call_pending = false;  // read_proxy_call has not come back yet (the gate is closed)
  bool m_call_read = false;     // it came back (m_call null: not a readable chat request)
  bool m_head_waiting = false;  // the answer's head waits for it
  std::optional<bool> m_report_when_read;
  bool m_reported = false;
  std::shared_ptr<ProxyCall> m_call;
  bool m_observe_reply = false;
  std::optional<core::ChatStreamAccumulator> m_stream_reply;
  std::string m_reply_bytes;
  bool m_reply_overflow = false;
};

}  // namespace

Result<std::shared_ptr<ProxyRuntime>> start_proxy_runtime(asio::io_context& ioc, ProxyOptions options) {
  SKILLRT_TRY_ASSIGN(UpstreamUrl upstream, parse_upstream_url(options.upstream_url));
  // The key goes into a header line as it is.
  const bool key_ok = std::all_of(options.api_key.begin(), options.api_key.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 0x20 && c != 0x7f;
  });
  if (!key_ok) {
    return fail(ErrorCode::invalid_argument, "the upstream API key contains control characters");
  }
  return std::make_shared<ProxyRuntime>(ioc, std::move(options), std::move(upstream));
}

void stop_proxy_runtime(ProxyRuntime& runtime) { runtime.stop(); }

void relay_to_upstream(const std::shared_ptr<ProxyRuntime>& runtime, beast::tcp_stream& client, ClientRequest request,
                       mcp::Caller caller, bool keep_alive, std::chrono::milliseconds write_timeout,
                       std::function<void(bool keep_alive)> done) {
  std::make_shared<ProxyRelay>(runtime, client, std::move(request), std::move(caller), keep_alive, write_timeout,
                               std::move(done))
      ->start();
}

}  // namespace skillrt::net
