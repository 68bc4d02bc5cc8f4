// A real HTTP/1.1 server on 127.0.0.1 for tests (plain POSIX sockets, one
// thread, one request per connection, `Connection: close`). A handler maps
// each request to a response; helpers build a route table, a redirect and a
// directory server. Responses can be slow (delay), huge (bytes generated while
// sending, never held in memory) or lie about their Content-Length.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace skillrt::test {

struct HttpRequest {
  std::string method;
  std::string target; // as sent: path and query
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body; // by Content-Length or chunked (de-chunked here)
  // The value of header `name` (case-insensitive), "" when absent.
  std::string header(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // Sent after `body`: this many bytes of 'x', produced while sending.
  std::uint64_t generated_bytes = 0;
  // The Content-Length header to send instead of the real size (a lying
  // server); with omit_content_length none is sent and the body ends at close.
  std::optional<std::uint64_t> content_length;
  bool omit_content_length = false;
  // Waited before the response is sent (a slow server).
  std::chrono::milliseconds delay{0};
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

// Where the server runs. `process` serves from a forked child so the test
// process keeps its single thread: code under test that forks without exec
// (sources/watched_child) must not fork while another thread may hold a lock
// (a sanitizer's allocator lock, say), which would stay held in the child
// forever. In that mode requests() stays empty: the child records them.
enum class ServeIn { thread, process };

class HttpFixtureServer {
public:
  // Listens on 127.0.0.1 with a port the kernel picks; serves until destroyed.
  explicit HttpFixtureServer(HttpHandler handler, ServeIn where = ServeIn::thread);
  ~HttpFixtureServer();
  HttpFixtureServer(const HttpFixtureServer&) = delete;
  HttpFixtureServer& operator=(const HttpFixtureServer&) = delete;

  std::uint16_t port() const { return m_port; }
  // "http://127.0.0.1:<port>" + path.
  std::string url(std::string_view path) const;
  // Every request served so far, in order.
  std::vector<HttpRequest> requests() const;

  // A handler over a fixed table of target → response; 404 for the rest.
  static HttpHandler routes(std::map<std::string, HttpResponse> table);
  // A handler serving the files below `root` (GET only; `..` → 400; missing → 404).
  static HttpHandler directory(std::filesystem::path root);
  // A redirect response to `location`.
  static HttpResponse redirect(std::string location, int status = 302);

private:
  void serve();
  void handle(int client);

  HttpHandler m_handler;
  int m_listen = -1;
  int m_wake[2] = {-1, -1}; // written to on shutdown: wakes poll()
  std::uint16_t m_port = 0;
  std::atomic<bool> m_stop{false};
  mutable std::mutex m_mutex;
  std::vector<HttpRequest> m_requests;
  std::thread m_thread;
  int m_child = -1; // ServeIn::process: the serving process
};

} // namespace skillrt::test
