// The Beast side of the OpenAI-compatible proxy (openai_proxy.hpp): the pool
// of keep-alive connections to the upstream, and the relay of one request
// from a caller's connection to the upstream and of the answer back.
// Internal to src/net: it names Boost types, so only src/net's .cpp files
// include it (mcp_http_server.cpp hands a request over; proxy_relay.cpp
// implements it); the public headers stay free of Boost.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include <boost/asio/io_context.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "mcp/server.hpp"
#include "net/openai_proxy.hpp"
#include "skillrt/result.hpp"

namespace skillrt::net {

// What every relay of one server shares: the options, the parsed upstream
// URL, the idle upstream connections and the observer's worker pool.
class ProxyRuntime;

// Checks the upstream URL and starts the observer's worker pool. The idle
// connections it keeps belong to `ioc`.
Result<std::shared_ptr<ProxyRuntime>> start_proxy_runtime(boost::asio::io_context& ioc, ProxyOptions options);

// Server shutdown, once no I/O thread runs: waits for the observer calls in
// flight and closes the idle upstream connections.
void stop_proxy_runtime(ProxyRuntime& runtime);

// Relays `request` (a POST /v1/chat/completions or GET /v1/models whose
// caller was authenticated and whose body was read whole) to the upstream
// and the answer back on `client`, then calls `done` on the client's
// executor: `keep_alive` true when the connection may read its next request,
// false when it must be closed. `client` must stay valid until then (`done`
// typically owns it) and is used only from its own executor (a strand).
// `write_timeout`: how long the caller may take to accept each write.
void relay_to_upstream(const std::shared_ptr<ProxyRuntime>& runtime, boost::beast::tcp_stream& client,
                       boost::beast::http::request<boost::beast::http::string_body> request, mcp::Caller caller,
                       bool keep_alive, std::chrono::milliseconds write_timeout,
                       std::function<void(bool keep_alive)> done);

}  // namespace skillrt::net
