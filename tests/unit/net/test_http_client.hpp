// A tiny blocking HTTP/1.1 client on plain POSIX sockets, for driving the
// real server in tests byte by byte (malformed requests, slow senders,
// half-read streams) — things a real client library would refuse to do.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillrt::test {

struct HttpReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;                            // de-chunked

  std::string header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? std::string{} : it->second;
  }
};

class HttpTestClient {
 public:
  // `receive_buffer` > 0 shrinks the socket's receive buffer before
  // connecting, so the advertised window stays small (a slow reader).
  explicit HttpTestClient(std::uint16_t port, int receive_buffer = 0) {
    m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (receive_buffer > 0) {
      ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(m_fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
      ::close(m_fd);
      m_fd = -1;
    }
    const int one = 1;
    if (m_fd >= 0) {
      ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
  }
  ~HttpTestClient() { close(); }
  HttpTestClient(const HttpTestClient&) = delete;
  HttpTestClient& operator=(const HttpTestClient&) = delete;

  bool connected() const { return m_fd >= 0; }

  void close() {
    if (m_fd >= 0) {
      ::close(m_fd);
      m_fd = -1;
    }
  }

  bool send_raw(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t sent = ::send(m_fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (sent <= 0) {
        return false;
      }
      bytes.remove_prefix(static_cast<std::size_t>(sent));
    }
    return true;
  }

  // Sends one request; `headers` are written as given (Host defaults to 127.0.0.1).
  bool send_request(std::string_view method, std::string_view target,
                    const std::vector<std::pair<std::string, std::string>>& headers, std::string_view body = {}) {
    std::string text;
    text.append(method).append(" ").append(target).append(" HTTP/1.1\r\n");
    bool has_host = false;
    for (const auto& [name, value] : headers) {
      has_host = has_host || lower(name) == "host";
      text.append(name).append(": ").append(value).append("\r\n");
    }
    if (!has_host) {
      text += "Host: 127.0.0.1\r\n";
    }
    if (!body.empty() || method == "POST") {
      text += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    }
    text += "\r\n";
    text.append(body);
    return send_raw(text);
  }

  // Reads one whole response (Content-Length, chunked, or until close).
  std::optional<HttpReply> read_reply(int timeout_ms = 10'000) {
    std::optional<HttpReply> reply = read_head(timeout_ms);
    if (!reply) {
      return std::nullopt;
    }
    const std::string length = reply->header("content-length");
    if (lower(reply->header("transfer-encoding")) == "chunked") {
      while (true) {
        std::optional<std::string> chunk = read_chunk(timeout_ms);
        if (!chunk) {
          return std::nullopt;
        }
        if (chunk->empty()) {
          break;
        }
        reply->body += *chunk;
      }
    } else if (!length.empty()) {
      const std::size_t size = std::stoul(length);
      if (!fill(size, timeout_ms)) {
        return std::nullopt;
      }
      reply->body = m_buffer.substr(0, size);
      m_buffer.erase(0, size);
    } else if (reply->status != 204 && reply->status != 304 && reply->status >= 200) {
      while (fill(m_buffer.size() + 1, timeout_ms)) {
      }
      reply->body = std::move(m_buffer);
      m_buffer.clear();
    }
    return reply;
  }

  // Reads the status line and headers only (for event streams).
  std::optional<HttpReply> read_head(int timeout_ms = 10'000) {
    std::size_t end = std::string::npos;
    while ((end = m_buffer.find("\r\n\r\n")) == std::string::npos) {
      if (!fill(m_buffer.size() + 1, timeout_ms)) {
        return std::nullopt;
      }
    }
    const std::string head = m_buffer.substr(0, end);
    m_buffer.erase(0, end + 4);
    HttpReply reply;
    std::size_t line_end = head.find("\r\n");
    const std::string status_line = head.substr(0, line_end);
    if (status_line.size() < 12 || status_line.rfind("HTTP/1.", 0) != 0) {
      return std::nullopt;
    }
    reply.status = std::stoi(status_line.substr(9, 3));
    while (line_end != std::string::npos) {
      const std::size_t start = line_end + 2;
      line_end = head.find("\r\n", start);
      const std::string line = head.substr(start, line_end == std::string::npos ? std::string::npos : line_end - start);
      const std::size_t colon = line.find(':');
      if (colon == std::string::npos) {
        continue;
      }
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      reply.headers[lower(line.substr(0, colon))] = value;
    }
    if (reply.status == 100) {
      return read_head(timeout_ms);  // interim response: the real one follows
    }
    return reply;
  }

  // Reads one chunk of a chunked body; "" for the terminal chunk.
  std::optional<std::string> read_chunk(int timeout_ms = 10'000) {
    std::size_t line_end = std::string::npos;
    while ((line_end = m_buffer.find("\r\n")) == std::string::npos) {
      if (!fill(m_buffer.size() + 1, timeout_ms)) {
        return std::nullopt;
      }
    }
    const std::size_t size = std::stoul(m_buffer.substr(0, line_end), nullptr, 16);
    m_buffer.erase(0, line_end + 2);
    if (!fill(size + 2, timeout_ms)) {
      return std::nullopt;
    }
    std::string chunk = m_buffer.substr(0, size);
    m_buffer.erase(0, size + 2);
    return chunk;
  }

  // Reads chunks until their concatenation contains `needle`; returns it all.
  std::optional<std::string> read_stream_until(std::string_view needle, int timeout_ms = 10'000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (m_stream_text.find(needle) == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        return std::nullopt;
      }
      std::optional<std::string> chunk = read_chunk(static_cast<int>(left.count()));
      if (!chunk || chunk->empty()) {
        return std::nullopt;
      }
      m_stream_text += *chunk;
    }
    std::string text = std::move(m_stream_text);
    m_stream_text.clear();
    return text;
  }

  // True when the server closed the connection within `timeout_ms` (any
  // bytes still arriving are discarded).
  bool closed_by_peer(int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd poll_fd{m_fd, POLLIN, 0};
      if (::poll(&poll_fd, 1, 50) > 0) {
        char scratch[4096];
        const ssize_t got = ::recv(m_fd, scratch, sizeof scratch, 0);
        if (got <= 0) {
          return true;
        }
      }
    }
    return false;
  }

  int fd() const { return m_fd; }

  // One WebSocket frame from the server (never masked, RFC 6455 §5.2):
  // {opcode, payload}; nullopt on close, timeout or a malformed header.
  struct WsFrame {
    int opcode = 0;  // 1 text, 8 close, 9 ping, 10 pong
    std::string payload;
  };
  std::optional<WsFrame> read_ws_frame(int timeout_ms = 10'000) {
    if (!fill(2, timeout_ms)) {
      return std::nullopt;
    }
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(m_buffer[i]); };
    WsFrame frame;
    frame.opcode = byte(0) & 0x0f;
    std::uint64_t length = byte(1) & 0x7f;
    std::size_t header = 2;
    if ((byte(1) & 0x80) != 0) {
      return std::nullopt;  // a server never masks
    }
    if (length >= 126) {
      const std::size_t extra = length == 126 ? 2 : 8;
      if (!fill(2 + extra, timeout_ms)) {
        return std::nullopt;
      }
      length = 0;
      for (std::size_t i = 0; i < extra; ++i) {
        length = (length << 8) | byte(2 + i);
      }
      header += extra;
    }
    if (!fill(header + length, timeout_ms)) {
      return std::nullopt;
    }
    frame.payload = m_buffer.substr(header, length);
    m_buffer.erase(0, header + length);
    return frame;
  }

 private:
  static std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
  }

  // Reads until the buffer holds `size` bytes; false on close/timeout/error.
  bool fill(std::size_t size, int timeout_ms) {
    while (m_buffer.size() < size) {
      pollfd poll_fd{m_fd, POLLIN, 0};
      if (::poll(&poll_fd, 1, timeout_ms) <= 0) {
        return false;
      }
      char scratch[65536];
      const ssize_t got = ::recv(m_fd, scratch, sizeof scratch, 0);
      if (got <= 0) {
        return false;
      }
      m_buffer.append(scratch, static_cast<std::size_t>(got));
    }
    return true;
  }

  int m_fd = -1;
  std::string m_buffer;
  std::string m_stream_text;
};

}  // namespace skillrt::test
