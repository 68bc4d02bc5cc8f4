// The WebSocket of /api/v1/events (event_socket.hpp): the third and last
// Beast translation unit of src/net, and the only one with Beast's
// WebSocket headers, so their compile cost stays here.
#include "net/event_socket.hpp"

#include <deque>
#include <mutex>
#include <utility>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace skillrt::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

// A close frame with one of our own codes (event_socket.hpp).
websocket::close_reason close_with(std::uint16_t code, const char* why) {
  websocket::close_reason reason(static_cast<websocket::close_code>(code));
  reason.reason = why;
  return reason;
}

// Largest message a client may send: it has nothing to say but control frames.
constexpr std::size_t k_client_message_limit = 4096;

class EventSocket final : public std::enable_shared_from_this<EventSocket> {
 public:
  EventSocket(beast::tcp_stream stream, api::EventFeed& feed, EventSocketOptions options)
      : m_ws(std::move(stream)), m_executor(m_ws.get_executor()), m_tick(m_executor), m_feed(feed),
        m_options(std::move(options)) {}

  ~EventSocket() {
    m_subscription.reset();
    if (m_options.on_closed) {
      m_options.on_closed();
    }
  }

  EventSocket(const EventSocket&) = delete;
  EventSocket& operator=(const EventSocket&) = delete;

  void start(http::request<http::string_body> upgrade) {
    beast::error_code ignored;  // a refused size only leaves the kernel's default
    beast::get_lowest_layer(m_ws).socket().set_option(
        asio::socket_base::send_buffer_size(static_cast<int>(m_options.socket_buffer_bytes)), ignored);
    beast::get_lowest_layer(m_ws).expires_never();
    websocket::stream_base::timeout timeout{};
    timeout.handshake_timeout = std::chrono::seconds(10);
    timeout.idle_timeout = m_options.idle;
    timeout.keep_alive_pings = true;  // a ping at idle/2: the heartbeat
    m_ws.set_option(timeout);
    m_ws.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& response) { response.set(http::field::server, "skillrt"); }));
    m_ws.read_message_max(k_client_message_limit);
    m_upgrade = std::move(upgrade);
    m_ws.async_accept(m_upgrade, asio::bind_executor(m_executor, [self = shared_from_this()](beast::error_code ec) {
                        self->on_accept(ec);
                      }));
  }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) {
      return;  // the handshake failed; dropping the last reference closes the socket
    }
    m_ws.text(true);
    // The sink runs under the feed's lock: it only queues. It holds the
    // socket weakly, so the feed never keeps a closed socket alive.
    std::weak_ptr<EventSocket> weak = weak_from_this();
    m_subscription = m_feed.subscribe(m_options.user, m_options.since, [weak](std::string message) {
      if (auto self = weak.lock()) {
        self->enqueue(std::move(message));
      }
    });
    read_next();
    arm_tick();
  }

  // Any thread.
  void enqueue(std::string message) {
    bool start_writing = false;
    {
      std::lock_guard lock(m_mutex);
      if (m_closing) {
        return;
      }
      if (m_queued_bytes + message.size() > m_options.queue_bytes) {
        m_closing = true;
        m_queue.clear();
        m_queued_bytes = 0;
        asio::post(m_executor, [self = shared_from_this()] {
          self->close(close_with(k_close_slow_consumer, "slow consumer"));
        });
        return;
      }
      m_queued_bytes += message.size();
      m_queue.push_back(std::move(message));
      start_writing = !m_writing;
      m_writing = true;
    }
    if (start_writing) {
      asio::post(m_executor, [self = shared_from_this()] { self->write_next(); });
    }
  }

  // Strand.
  void write_next() {
    {
      std::lock_guard lock(m_mutex);
      if (m_closing || m_queue.empty()) {
        m_writing = false;
        if (m_close_after_write) {
          m_close_after_write = false;
          asio::post(m_executor, [self = shared_from_this()] { self->send_close(); });
        }
        return;
      }
      m_out = std::move(m_queue.front());
      m_queue.pop_front();
      m_queued_bytes -= m_out.size();
    }
    m_ws.async_write(asio::buffer(m_out), asio::bind_executor(m_executor, [self = shared_from_this()](
                                                                              beast::error_code ec, std::size_t) {
                       if (ec) {
                         std::lock_guard lock(self->m_mutex);
                         self->m_closing = true;
                         self->m_writing = false;
                         return;
                       }
                       self->write_next();
                     }));
  }

  // Strand: reads (and drops) what the client sends; Beast answers pings
  // and close frames itself. A failed read means the socket is done.
  void read_next() {
    m_ws.async_read(m_in, asio::bind_executor(m_executor, [self = shared_from_this()](beast::error_code ec,
                                                                                           std::size_t) {
                      if (ec) {
                        self->stop(ec == websocket::error::buffer_overflow);
                        return;
                      }
                      self->m_in.consume(self->m_in.size());
                      self->read_next();
                    }));
  }

  void arm_tick() {
    m_tick.expires_after(m_options.tick);
    m_tick.async_wait(asio::bind_executor(m_executor, [self = shared_from_this()](beast::error_code ec) {
      if (ec) {
        return;
      }
      if (self->m_options.going_away && self->m_options.going_away()) {
        self->close(websocket::close_reason(websocket::close_code::going_away, "server shutting down"));
        return;
      }
      if (self->m_options.still_authorized && !self->m_options.still_authorized()) {
        self->close(close_with(k_close_token_revoked, "token revoked"));
        return;
      }
      self->arm_tick();
    }));
  }

  // Strand: ends the subscription and sends a close frame once no write is
  // in flight (Beast allows one write at a time, the close frame included).
  void close(websocket::close_reason reason) {
    m_reason = std::move(reason);
    if (!shut_down(true)) {
      send_close();
    }
  }

  // Strand: no more events, nothing more queued. True while a write is in
  // flight (with `close_after`, its completion then sends the close frame).
  bool shut_down(bool close_after) {
    m_tick.cancel();
    m_subscription.reset();
    std::lock_guard lock(m_mutex);
    m_closing = true;
    m_queue.clear();
    m_queued_bytes = 0;
    m_close_after_write = close_after && m_writing;
    return m_writing;
  }

  void send_close() {
    if (m_close_sent || !m_ws.is_open()) {
      return;
    }
    m_close_sent = true;
    m_ws.async_close(m_reason, asio::bind_executor(m_executor, [self = shared_from_this()](beast::error_code) {
                       // The read loop sees the peer's close and ends.
                     }));
  }

  // Strand: the read side ended (peer closed, timed out, or sent too much).
  void stop(bool oversized) {
    const bool writing = shut_down(false);
    if (oversized && m_ws.is_open() && !writing) {
      m_reason = websocket::close_reason(websocket::close_code::too_big, "message too big");
      send_close();
    }
  }

  websocket::stream<beast::tcp_stream> m_ws;
  beast::tcp_stream::executor_type m_executor;
  asio::steady_timer m_tick;
  api::EventFeed& m_feed;
  EventSocketOptions m_options;
  api::EventFeed::Subscription m_subscription;
  http::request<http::string_body> m_upgrade;
  std::mutex m_mutex;  // guards the queue and the flags below it
  std::deque<std::string> m_queue;
  std::size_t m_queued_bytes = 0;
  bool m_writing = false;
  bool m_closing = false;
  bool m_close_after_write = false;
  // Strand only.
  std::string m_out;
  beast::flat_buffer m_in;
  websocket::close_reason m_reason;
  bool m_close_sent = false;
};

}  // namespace

void start_event_socket(beast::tcp_stream stream, http::request<http::string_body> upgrade, api::EventFeed& feed,
                        EventSocketOptions options) {
  auto socket = std::make_shared<EventSocket>(std::move(stream), feed, std::move(options));
  socket->start(std::move(upgrade));
}

}  // namespace skillrt::net
