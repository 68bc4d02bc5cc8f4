// The test HTTP server (see http_fixture_server.hpp).
#include "support/http_fixture_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace skillrt::test {

namespace {

constexpr std::size_t k_max_request_bytes = 64 * 1024;
constexpr std::size_t k_max_body_bytes = 16 * 1024 * 1024;
constexpr std::size_t k_chunk_bytes = 64 * 1024;

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

const char* reason(int status) {
  switch (status) {
  case 200:
    return "OK";
  case 301:
    return "Moved Permanently";
  case 302:
    return "Found";
  case 303:
    return "See Other";
  case 307:
    return "Temporary Redirect";
  case 308:
    return "Permanent Redirect";
  case 400:
    return "Bad Request";
  case 404:
    return "Not Found";
  case 500:
    return "Internal Server Error";
  default:
    return "Status";
  }
}

// Sends all of `data`; false when the client went away or the server stops.
bool send_all(int fd, std::string_view data, const std::atomic<bool>& stop) {
  while (!data.empty()) {
    if (stop.load()) {
      return false;
    }
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) {
        continue;
      }
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Appends what the socket has to `raw`; false at EOF or error.
bool receive_more(int fd, std::string& raw) {
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    raw.append(buffer, static_cast<std::size_t>(n));
    return true;
  }
}

// De-chunks `in` into `out`; false while the final chunk has not arrived.
bool decode_chunked(std::string_view in, std::string& out) {
  out.clear();
  for (;;) {
    const std::size_t line_end = in.find("\r\n");
    if (line_end == std::string_view::npos) {
      return false;
    }
    const std::size_t size = std::stoul(std::string(in.substr(0, line_end)), nullptr, 16);
    in.remove_prefix(line_end + 2);
    if (size == 0) {
      return in.find("\r\n") != std::string_view::npos;
    }
    if (in.size() < size + 2) {
      return false;
    }
    out.append(in.substr(0, size));
    in.remove_prefix(size + 2);
  }
}

std::optional<HttpRequest> read_request(int fd) {
  std::string raw;
  while (raw.find("\r\n\r\n") == std::string::npos) {
    if (raw.size() > k_max_request_bytes || !receive_more(fd, raw)) {
      return std::nullopt;
    }
  }
  std::istringstream lines(raw.substr(0, raw.find("\r\n\r\n")));
  std::string line;
  HttpRequest request;
  if (!std::getline(lines, line)) {
    return std::nullopt;
  }
  std::istringstream first(line);
  first >> request.method >> request.target;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) {
      continue;
    }
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    request.headers.emplace_back(line.substr(0, colon), value);
  }
  std::string rest = raw.substr(raw.find("\r\n\r\n") + 4);
  if (const std::string length = request.header("Content-Length"); !length.empty()) {
    const std::size_t wanted = std::stoul(length);
    while (rest.size() < wanted) {
      if (rest.size() > k_max_body_bytes || !receive_more(fd, rest)) {
        return std::nullopt;
      }
    }
    request.body = rest.substr(0, wanted);
  } else if (iequals(request.header("Transfer-Encoding"), "chunked")) {
    while (!decode_chunked(rest, request.body)) {
      if (rest.size() > k_max_body_bytes || !receive_more(fd, rest)) {
        return std::nullopt;
      }
    }
  }
  return request;
}

} // namespace

std::string HttpRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (iequals(key, name)) {
      return value;
    }
  }
  return {};
}

HttpFixtureServer::HttpFixtureServer(HttpHandler handler, ServeIn where) : m_handler(std::move(handler)) {
  m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (m_listen < 0) {
    throw std::runtime_error("socket: " + std::generic_category().message(errno));
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof(address);
  if (::bind(m_listen, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 || ::listen(m_listen, 16) != 0 ||
      ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    const int err = errno;
    ::close(m_listen);
    throw std::runtime_error("bind/listen: " + std::generic_category().message(err));
  }
  m_port = ntohs(address.sin_port);
  if (::pipe2(m_wake, O_CLOEXEC) != 0) {
    ::close(m_listen);
    throw std::runtime_error("pipe: " + std::generic_category().message(errno));
  }
  if (where == ServeIn::thread) {
    m_thread = std::thread([this] { serve(); });
    return;
  }
  const pid_t parent = ::getpid();
  m_child = ::fork();
  if (m_child < 0) {
    const int err = errno;
    ::close(m_listen);
    throw std::runtime_error("fork: " + std::generic_category().message(err));
  }
  if (m_child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL); // a crashed test takes its server along
    if (::getppid() == parent) {
      serve();
    }
    ::_exit(0); // no test-process destructors or atexit handlers in this copy
  }
}

HttpFixtureServer::~HttpFixtureServer() {
  m_stop.store(true);
  const char byte = 'x';
  [[maybe_unused]] const ssize_t written = ::write(m_wake[1], &byte, 1);
  if (m_thread.joinable()) {
    m_thread.join();
  }
  if (m_child > 0) {
    ::kill(m_child, SIGKILL); // it may be inside a handler; nothing of it is needed
    int status = 0;
    while (::waitpid(m_child, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ::close(m_listen);
  ::close(m_wake[0]);
  ::close(m_wake[1]);
}

std::string HttpFixtureServer::url(std::string_view path) const {
  return "http://127.0.0.1:" + std::to_string(m_port) + std::string(path);
}

std::vector<HttpRequest> HttpFixtureServer::requests() const {
  const std::lock_guard<std::mutex> lock(m_mutex);
  return m_requests;
}

void HttpFixtureServer::serve() {
  while (!m_stop.load()) {
    pollfd fds[2] = {{m_listen, POLLIN, 0}, {m_wake[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) {
        continue;
      }
      return;
    }
    if ((fds[1].revents & POLLIN) != 0) {
      return;
    }
    if ((fds[0].revents & POLLIN) == 0) {
      continue;
    }
    const int client = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) {
      continue;
    }
    // Bounded waits: a client that stops reading cannot hold shutdown forever.
    timeval timeout{1, 0};
    ::setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
    timeval read_timeout{5, 0};
    ::setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &read_timeout, sizeof(read_timeout));
    handle(client);
    ::close(client);
  }
}

void HttpFixtureServer::handle(int client) {
  std::optional<HttpRequest> request = read_request(client);
  if (!request) {
    return;
  }
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_requests.push_back(*request);
  }
  const HttpResponse response = m_handler(*request);
  if (response.delay.count() > 0) {
    // Waits on the wake pipe, so shutdown interrupts a slow response.
    pollfd wake{m_wake[0], POLLIN, 0};
    ::poll(&wake, 1, static_cast<int>(response.delay.count()));
    if (m_stop.load()) {
      return;
    }
  }
  const std::uint64_t real_length = response.body.size() + response.generated_bytes;
  std::string head = "HTTP/1.1 " + std::to_string(response.status) + " " + reason(response.status) + "\r\n";
  for (const auto& [key, value] : response.headers) {
    head += key + ": " + value + "\r\n";
  }
  if (!response.omit_content_length) {
    head += "Content-Length: " + std::to_string(response.content_length.value_or(real_length)) + "\r\n";
  }
  head += "Connection: close\r\n\r\n";
  if (!send_all(client, head, m_stop) || !send_all(client, response.body, m_stop)) {
    return;
  }
  const std::string chunk(k_chunk_bytes, 'x');
  std::uint64_t left = response.generated_bytes;
  while (left > 0) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk.size()));
    if (!send_all(client, std::string_view(chunk.data(), n), m_stop)) {
      return;
    }
    left -= n;
  }
}

HttpHandler HttpFixtureServer::routes(std::map<std::string, HttpResponse> table) {
  return [table = std::move(table)](const HttpRequest& request) {
    const auto it = table.find(request.target);
    if (it == table.end()) {
      HttpResponse missing;
      missing.status = 404;
      missing.body = "not found\n";
      return missing;
    }
    return it->second;
  };
}

HttpResponse HttpFixtureServer::redirect(std::string location, int status) {
  HttpResponse response;
  response.status = status;
  response.headers.emplace_back("Location", std::move(location));
  return response;
}

HttpHandler HttpFixtureServer::directory(std::filesystem::path root) {
  return [root = std::move(root)](const HttpRequest& request) {
    HttpResponse response;
    std::string path = request.target.substr(0, request.target.find('?'));
    if (request.method != "GET" || path.empty() || path.front() != '/') {
      response.status = 400;
      return response;
    }
    const std::filesystem::path relative = std::filesystem::path(path.substr(1)).lexically_normal();
    for (const auto& part : relative) {
      if (part == "..") {
        response.status = 400;
        return response;
      }
    }
    const std::filesystem::path file = root / relative;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
      response.status = 404;
      response.body = "not found\n";
      return response;
    }
    std::ifstream in(file, std::ios::binary);
    response.body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return response;
  };
}

} // namespace skillrt::test
