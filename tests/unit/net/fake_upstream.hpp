// A keep-alive HTTP/1.1 upstream for the proxy's tests, on plain POSIX
// sockets: every accepted connection gets a thread that reads requests
// (Content-Length bodies) and hands each to the test's handler, which writes
// whatever bytes it likes to the socket — a whole answer, a stream in pieces
// with pauses in between, or nothing at all. It counts connections and keeps
// every request, so a test can assert what the proxy sent and how often it
// connected.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cctype>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace skillrt::test {

struct UpstreamRequest {
  std::string method;
  std::string target;
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;

  std::string header(std::string_view name) const {
    for (const auto& [key, value] : headers) {
      if (key == name) {
        return value;
      }
    }
    return {};
  }
  bool has_header(std::string_view name) const {
    return std::any_of(headers.begin(), headers.end(), [&](const auto& header) { return header.first == name; });
  }
};

// Writes all of `bytes` to `fd`; false when the peer is gone.
inline bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent <= 0) {
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

// True when the peer of `fd` closed its side within `timeout` (what the
// upstream sees when the proxy cancels a request); bytes that arrive are dropped.
inline bool peer_closed_within(int fd, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd probe{fd, POLLIN, 0};
    if (::poll(&probe, 1, 20) > 0) {
      char scratch[4096];
      if (::recv(fd, scratch, sizeof scratch, 0) <= 0) {
        return true;
      }
    }
  }
  return false;
}

// A whole answer with Content-Length.
inline std::string http_answer(int status, std::string_view content_type, std::string_view body,
                               std::string_view extra_headers = {}) {
  return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: " + std::string(content_type) +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + std::string(extra_headers) + "\r\n" +
         std::string(body);
}

class FakeUpstream {
 public:
  // `handler(fd, request)` answers one request by writing to fd; returning
  // false closes the connection.
  using Handler = std::function<bool(int fd, const UpstreamRequest& request)>;

  explicit FakeUpstream(Handler handler) : m_handler(std::move(handler)) {
    m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    ::bind(m_listen, reinterpret_cast<const sockaddr*>(&address), sizeof address);
    ::listen(m_listen, 64);
    socklen_t length = sizeof address;
    ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&address), &length);
    m_port = ntohs(address.sin_port);
    m_acceptor = std::thread([this] { accept_loop(); });
  }

  ~FakeUpstream() {
    m_stopping = true;
    ::shutdown(m_listen, SHUT_RDWR);
    m_acceptor.join();
    ::close(m_listen);
    {
      std::lock_guard lock(m_mutex);
      for (const int fd : m_open) {
        ::shutdown(fd, SHUT_RDWR);
      }
    }
    for (std::thread& thread : m_connections) {
      thread.join();
    }
  }

  FakeUpstream(const FakeUpstream&) = delete;
  FakeUpstream& operator=(const FakeUpstream&) = delete;

  std::uint16_t port() const { return m_port; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/v1"; }

  int connections() const { return m_accepted.load(); }
  // Connections the proxy has closed (the upstream saw end of stream).
  int closed_by_client() const { return m_closed_by_client.load(); }

  std::vector<UpstreamRequest> requests() const {
    std::lock_guard lock(m_mutex);
    return m_requests;
  }
  std::size_t request_count() const {
    std::lock_guard lock(m_mutex);
    return m_requests.size();
  }

 private:
  void accept_loop() {
    while (!m_stopping) {
      const int fd = ::accept(m_listen, nullptr, nullptr);
      if (fd < 0) {
        if (m_stopping) {
          return;
        }
        continue;
      }
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      ++m_accepted;
      std::lock_guard lock(m_mutex);
      m_open.push_back(fd);
      m_connections.emplace_back([this, fd] { serve(fd); });
    }
  }

  void serve(int fd) {
    std::string buffer;
    while (true) {
      std::optional<UpstreamRequest> request = read_request(fd, buffer);
      if (!request) {
        break;
      }
      {
        std::lock_guard lock(m_mutex);
        m_requests.push_back(*request);
      }
      if (!m_handler(fd, *request)) {
        break;
      }
    }
    std::lock_guard lock(m_mutex);
    m_open.erase(std::remove(m_open.begin(), m_open.end(), fd), m_open.end());
    ::close(fd);
  }

  std::optional<UpstreamRequest> read_request(int fd, std::string& buffer) {
    std::size_t head_end;
    while ((head_end = buffer.find("\r\n\r\n")) == std::string::npos) {
      if (!fill(fd, buffer)) {
        return std::nullopt;
      }
    }
    UpstreamRequest request;
    const std::string head = buffer.substr(0, head_end);
    buffer.erase(0, head_end + 4);
    std::size_t line_end = head.find("\r\n");
    const std::string first = head.substr(0, line_end);
    const std::size_t space = first.find(' ');
    request.method = first.substr(0, space);
    request.target = first.substr(space + 1, first.rfind(' ') - space - 1);
    std::size_t length = 0;
    while (line_end != std::string::npos) {
      const std::size_t start = line_end + 2;
      line_end = head.find("\r\n", start);
      const std::string line = head.substr(start, line_end == std::string::npos ? std::string::npos : line_end - start);
      const std::size_t colon = line.find(':');
      if (colon == std::string::npos) {
        continue;
      }
      std::string name = line.substr(0, colon);
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      if (name == "content-length") {
        length = std::stoul(value);
      }
      request.headers.emplace_back(std::move(name), std::move(value));
    }
    while (buffer.size() < length) {
      if (!fill(fd, buffer)) {
        return std::nullopt;
      }
    }
    request.body = buffer.substr(0, length);
    buffer.erase(0, length);
    return request;
  }

  bool fill(int fd, std::string& buffer) {
    char scratch[16384];
    const ssize_t got = ::recv(fd, scratch, sizeof scratch, 0);
    if (got == 0 && !m_stopping) {
      ++m_closed_by_client;
    }
    if (got <= 0) {
      return false;
    }
    buffer.append(scratch, static_cast<std::size_t>(got));
    return true;
  }

  Handler m_handler;
  int m_listen = -1;
  std::uint16_t m_port = 0;
  std::atomic<bool> m_stopping{false};
  std::atomic<int> m_accepted{0};
  std::atomic<int> m_closed_by_client{0};
  std::thread m_acceptor;
  mutable std::mutex m_mutex;
  std::vector<int> m_open;
  std::vector<std::thread> m_connections;
  std::vector<UpstreamRequest> m_requests;
};

// A one-shot latch a handler waits on (a stream held until the test says go).
class Latch {
 public:
  void open() {
    std::lock_guard lock(m_mutex);
    m_open = true;
    m_changed.notify_all();
  }
  // False when `timeout` passed first.
  bool wait(std::chrono::milliseconds timeout) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [&] { return m_open; });
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  bool m_open = false;
};

}  // namespace skillrt::test
