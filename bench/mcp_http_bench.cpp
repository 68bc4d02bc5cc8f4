// Load generator for `skillrt serve`: keep-alive HTTP/1.1 clients on plain
// POSIX sockets (no Boost, so the client costs as little CPU as possible and
// shares nothing with the server under test), one MCP session per connection,
// each sending `tools/call skill_view` for skill names drawn from a list.
//
//   mcp_http_bench --port P --names FILE [--token T] [--connections N]
//                  [--seconds S] [--warmup S] [--file PATH]
//   mcp_http_bench --port P --idle-sessions N [--token T] [--hold S]
//
// The first form prints one JSON object: requests, errors, seconds, rps and
// latency percentiles in microseconds. The second opens N initialized
// sessions (one connection each, then closed), prints {"sessions": N} and
// waits `hold` seconds, so bench/mcp_http.sh can read the server's RSS with
// the sessions idle.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::uint16_t port = 0;
  std::string path = "/mcp";
  std::string token;
  std::string names_file;
  std::string file_path;  // optional skill_view file_path argument
  unsigned connections = 4;
  double seconds = 10;
  double warmup = 2;
  unsigned idle_sessions = 0;
  double hold = 5;
};

[[noreturn]] void die(const std::string& message) {
  std::cerr << "mcp_http_bench: " << message << '\n';
  std::exit(1);
}

// One keep-alive HTTP/1.1 connection to 127.0.0.1:port.
class Connection {
 public:
  explicit Connection(std::uint16_t port) {
    m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (m_fd < 0) {
      die("socket: " + std::string(std::strerror(errno)));
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      die("connect: " + std::string(std::strerror(errno)));
    }
    int one = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~Connection() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  struct Response {
    int status = 0;
    std::string session_id;
    std::string body;
  };

  // Sends one POST and reads the whole response (Content-Length framed).
  std::optional<Response> post(const std::string& path, const std::string& headers, const std::string& body) {
    std::string request = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
                          "Accept: application/json, text/event-stream\r\n" + headers +
                          "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    if (!send_all(request)) {
      return std::nullopt;
    }
    return read_response();
  }

 private:
  bool send_all(const std::string& data) {
    std::size_t sent = 0;
    while (sent < data.size()) {
      const ssize_t n = ::send(m_fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) {
        return false;
      }
      sent += static_cast<std::size_t>(n);
    }
    return true;
  }

  bool fill() {
    char chunk[16384];
    const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
    if (n <= 0) {
      return false;
    }
    m_buffer.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  static std::string header_value(const std::string& head, const char* lower_name) {
    std::string lowered = head;
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::string key = std::string("\r\n") + lower_name + ":";
    const std::size_t at = lowered.find(key);
    if (at == std::string::npos) {
      return {};
    }
    std::size_t start = at + key.size();
    const std::size_t end = head.find("\r\n", start);
    while (start < end && head[start] == ' ') {
      ++start;
    }
    return head.substr(start, end - start);
  }

  std::optional<Response> read_response() {
    std::size_t head_end;
    while ((head_end = m_buffer.find("\r\n\r\n")) == std::string::npos) {
      if (!fill()) {
        return std::nullopt;
      }
    }
    const std::string head = m_buffer.substr(0, head_end);
    Response response;
    if (head.size() < 12) {
      return std::nullopt;
    }
    response.status = std::atoi(head.c_str() + 9);
    response.session_id = header_value(head, "mcp-session-id");
    const std::string length = header_value(head, "content-length");
    const std::size_t body_size = length.empty() ? 0 : std::strtoull(length.c_str(), nullptr, 10);
    const std::size_t total = head_end + 4 + body_size;
    while (m_buffer.size() < total) {
      if (!fill()) {
        return std::nullopt;
      }
    }
    response.body = m_buffer.substr(head_end + 4, body_size);
    m_buffer.erase(0, total);
    return response;
  }

  int m_fd = -1;
  std::string m_buffer;
};

std::string json_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

std::string auth_header(const Options& options) {
  return options.token.empty() ? std::string() : "Authorization: Bearer " + options.token + "\r\n";
}

// initialize + notifications/initialized; returns the headers later requests carry.
std::string open_session(Connection& connection, const Options& options) {
  const std::string init =
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
      R"("capabilities":{},"clientInfo":{"name":"mcp_http_bench","version":"1"}}})";
  auto response = connection.post(options.path, auth_header(options), init);
  if (!response || response->status != 200 || response->session_id.empty()) {
    die("initialize failed (status " + std::to_string(response ? response->status : 0) + ")");
  }
  const std::string headers = auth_header(options) + "Mcp-Session-Id: " + response->session_id +
                              "\r\nMCP-Protocol-Version: 2025-11-25\r\n";
  auto ack = connection.post(options.path, headers, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  if (!ack || ack->status != 202) {
    die("notifications/initialized failed");
  }
  return headers;
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        die("missing value for " + arg);
      }
      return argv[++i];
    };
    if (arg == "--port") {
      options.port = static_cast<std::uint16_t>(std::stoul(value()));
    } else if (arg == "--path") {
      options.path = value();
    } else if (arg == "--token") {
      options.token = value();
    } else if (arg == "--names") {
      options.names_file = value();
    } else if (arg == "--file") {
      options.file_path = value();
    } else if (arg == "--connections") {
      options.connections = static_cast<unsigned>(std::stoul(value()));
    } else if (arg == "--seconds") {
      options.seconds = std::stod(value());
    } else if (arg == "--warmup") {
      options.warmup = std::stod(value());
    } else if (arg == "--idle-sessions") {
      options.idle_sessions = static_cast<unsigned>(std::stoul(value()));
    } else if (arg == "--hold") {
      options.hold = std::stod(value());
    } else {
      die("unknown argument " + arg);
    }
  }
  if (options.port == 0) {
    die("--port is required");
  }
  return options;
}

int run_idle(const Options& options) {
  for (unsigned i = 0; i < options.idle_sessions; ++i) {
    Connection connection(options.port);
    open_session(connection, options);
  }
  std::cout << "{\"sessions\": " << options.idle_sessions << "}" << std::endl;
  std::this_thread::sleep_for(std::chrono::duration<double>(options.hold));
  return 0;
}

int run_load(const Options& options) {
  std::vector<std::string> names;
  {
    std::ifstream in(options.names_file);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) {
        names.push_back(line);
      }
    }
  }
  if (names.empty()) {
    die("--names FILE with one skill name per line is required");
  }
  std::atomic<bool> measuring{false};
  std::atomic<bool> stop{false};
  std::vector<std::vector<std::uint32_t>> latencies(options.connections);
  std::vector<std::uint64_t> errors(options.connections, 0);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < options.connections; ++t) {
    threads.emplace_back([&, t] {
      Connection connection(options.port);
      const std::string headers = open_session(connection, options);
      std::mt19937 rng(t + 1);
      std::uniform_int_distribution<std::size_t> pick(0, names.size() - 1);
      std::uint64_t id = 1;
      auto& mine = latencies[t];
      mine.reserve(1 << 20);
      while (!stop.load(std::memory_order_relaxed)) {
        std::string body = R"({"jsonrpc":"2.0","id":)" + std::to_string(id++) +
                           R"(,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":")" +
                           json_escape(names[pick(rng)]) + "\"";
        if (!options.file_path.empty()) {
          body += R"(,"file_path":")" + json_escape(options.file_path) + "\"";
        }
        body += "}}}";
        const auto start = Clock::now();
        auto response = connection.post(options.path, headers, body);
        const auto elapsed = Clock::now() - start;
        if (!response) {
          die("connection lost");
        }
        if (!measuring.load(std::memory_order_relaxed)) {
          continue;
        }
        // A served skill_view is a 200 whose result is not an error.
        if (response->status != 200 || response->body.find("\"isError\":true") != std::string::npos ||
            response->body.find("\"error\":{") != std::string::npos) {
          ++errors[t];
        }
        mine.push_back(static_cast<std::uint32_t>(
            std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count()));
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(options.warmup));
  measuring = true;
  const auto begin = Clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(options.seconds));
  measuring = false;
  const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  stop = true;
  for (auto& thread : threads) {
    thread.join();
  }
  std::vector<std::uint32_t> all;
  std::uint64_t error_count = 0;
  for (unsigned t = 0; t < options.connections; ++t) {
    all.insert(all.end(), latencies[t].begin(), latencies[t].end());
    error_count += errors[t];
  }
  std::sort(all.begin(), all.end());
  auto percentile = [&](double p) -> std::uint32_t {
    if (all.empty()) {
      return 0;
    }
    const auto index = static_cast<std::size_t>(p * static_cast<double>(all.size() - 1));
    return all[index];
  };
  std::printf(
      "{\"connections\": %u, \"requests\": %zu, \"errors\": %llu, \"seconds\": %.2f, \"rps\": %.0f, "
      "\"p50_us\": %u, \"p90_us\": %u, \"p99_us\": %u, \"max_us\": %u}\n",
      options.connections, all.size(), static_cast<unsigned long long>(error_count), seconds,
      static_cast<double>(all.size()) / seconds, percentile(0.50), percentile(0.90), percentile(0.99),
      all.empty() ? 0u : all.back());
  return error_count == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  return options.idle_sessions > 0 ? run_idle(options) : run_load(options);
}
