// The WebSocket of /api/v1/events (issue 3/6 item 2): after the upgrade
// request was admitted (Host/Origin, the caller's token), the connection's
// socket is handed to one EventSocket, which subscribes to the REST API's
// event feed for that caller and sends each event as a text message.
//
// - Heartbeats: WebSocket pings when the connection is idle; a peer that
//   answers nothing within the idle timeout is dropped.
// - Backpressure: messages wait in a bounded queue; a client that falls
//   further behind is closed with 4008 "slow consumer" instead of growing
//   server memory. The kernel send buffer is bounded as for SSE streams.
// - Revocation: the token is checked again on every tick; once it no longer
//   names the caller, the socket is closed with 4001 "token revoked".
// - Resuming: ?since=N replays what the caller missed after N (api/event_feed.hpp).
// Messages from the client are read (control frames, close) and otherwise
// ignored; a message over 4 KiB closes the socket (1009).
// Internal to src/net (it names Beast types): mcp_http_server.cpp hands
// over the socket; event_socket.cpp is the only file that includes
// Beast's WebSocket headers.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "api/event_feed.hpp"

namespace skillrt::net {

// WebSocket close codes the server sends, besides the standard ones.
inline constexpr std::uint16_t k_close_token_revoked = 4001;
inline constexpr std::uint16_t k_close_slow_consumer = 4008;

struct EventSocketOptions {
  std::optional<std::string> user;      // whose events (nullopt: anonymous, shared only)
  std::optional<std::uint64_t> since;   // ?since=N
  std::chrono::milliseconds tick{1'000};  // token re-check period (pings go out at idle/2)
  std::chrono::milliseconds idle{30'000};  // no frame from the peer this long: dropped
  std::size_t queue_bytes = 1u << 20;      // past it: 4008
  std::size_t socket_buffer_bytes = 64u << 10;
  // True while the token the socket was opened with still names its caller.
  std::function<bool()> still_authorized;
  // True once the server is shutting down: the socket closes with 1001.
  std::function<bool()> going_away;
  // Kept alive while the socket lives (the connection slot it counts in).
  std::shared_ptr<void> keep;
  // Called once when the socket is gone (for the server's open-socket count).
  std::function<void()> on_closed;
};

// Completes the WebSocket handshake of `upgrade` on `stream` and serves
// events from `feed` until either side closes. `feed` must outlive the
// socket (the server stops every socket before its feed goes).
void start_event_socket(boost::beast::tcp_stream stream,
                        boost::beast::http::request<boost::beast::http::string_body> upgrade, api::EventFeed& feed,
                        EventSocketOptions options);

}  // namespace skillrt::net
