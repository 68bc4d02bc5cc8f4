// What the OpenAI-compatible proxy of `skillrt serve --upstream` adds to a
// request (bench/README.md "OpenAI-compatible proxy"). The bench runs its own
// tiny keep-alive upstream (one thread per connection, a fixed small
// chat.completion with one tool call, as an agent's tool loop gets), starts
// `skillrt serve --upstream` in front of it, then sends the same small
// non-streamed chat completion at a fixed rate (open loop: request i is due
// at start + i / rate, whatever the answers before it did), alternately
// straight to the upstream and through the proxy, and reports the latency
// percentiles of both and their difference.
//
//   proxy_bench --skillrt PATH --home DIR --token T [--rate 1000] [--seconds 5]
//               [--rounds 4] [--connections 4] [--threads 2]
//
// Prints one JSON object. Plain POSIX sockets and no Boost, so the client and
// the upstream cost as little CPU as possible and share nothing with the
// server under test.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string skillrt;
  std::string home;
  std::string token;
  double rate = 1000;
  double seconds = 5;
  unsigned rounds = 4;
  unsigned connections = 4;
  unsigned threads = 2;
};

[[noreturn]] void die(const std::string& message) {
  std::cerr << "proxy_bench: " << message << '\n';
  std::exit(1);
}

constexpr const char* k_request_body =
    R"({"model":"bench-model","messages":[{"role":"system","content":"You are a deployment agent."},)"
    R"({"role":"user","content":"Deploy the service to staging."}],"tools":[{"type":"function","function":)"
    R"({"name":"terminal","description":"Run a command","parameters":{"type":"object","properties":)"
    R"({"command":{"type":"string"}},"required":["command"]}}}]})";

constexpr const char* k_reply_body =
    R"({"id":"chatcmpl-bench","object":"chat.completion","created":1700000000,"model":"bench-model",)"
    R"("choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1",)"
    R"("type":"function","function":{"name":"terminal","arguments":"{\"command\":\"make deploy\"}"}}]},)"
    R"("finish_reason":"tool_calls"}],"usage":{"prompt_tokens":60,"completion_tokens":12,"total_tokens":72}})";

bool send_all(int fd, const std::string& data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      return false;
    }
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// The value of a header in `head` (case-insensitive name), "" when absent.
std::string header_value(const std::string& head, const char* lower_name) {
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

// Reads one Content-Length-framed message (request or response) from `fd`;
// nullopt when the peer closed. `buffer` keeps bytes of the next one.
std::optional<std::string> read_message(int fd, std::string& buffer, std::string* head_out = nullptr) {
  std::size_t head_end;
  while ((head_end = buffer.find("\r\n\r\n")) == std::string::npos) {
    char chunk[16384];
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) {
      return std::nullopt;
    }
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
  const std::string head = buffer.substr(0, head_end);
  const std::string length = header_value(head, "content-length");
  const std::size_t total = head_end + 4 + (length.empty() ? 0 : std::strtoull(length.c_str(), nullptr, 10));
  while (buffer.size() < total) {
    char chunk[16384];
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) {
      return std::nullopt;
    }
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
  std::string body = buffer.substr(head_end + 4, total - head_end - 4);
  if (head_out != nullptr) {
    *head_out = head;
  }
  buffer.erase(0, total);
  return body;
}

int listen_loopback(std::uint16_t& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 128) != 0) {
    die("cannot listen: " + std::string(std::strerror(errno)));
  }
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  port = ntohs(address.sin_port);
  return fd;
}

int connect_loopback(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    die("connect: " + std::string(std::strerror(errno)));
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

// The upstream: every connection on its own detached thread, answering each
// request with the fixed reply until the peer closes.
void run_upstream(int listen_fd) {
  const std::string answer = std::string("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n") +
                             "Keep-Alive: timeout=60\r\nContent-Length: " + std::to_string(std::strlen(k_reply_body)) +
                             "\r\n\r\n" + k_reply_body;
  while (true) {
    const int fd = ::accept(listen_fd, nullptr, nullptr);
    if (fd < 0) {
      continue;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::thread([fd, &answer] {
      std::string buffer;
      while (read_message(fd, buffer) && send_all(fd, answer)) {
      }
      ::close(fd);
    }).detach();
  }
}

// `skillrt serve --upstream` in a child process; its port from the listening line.
struct Server {
  pid_t pid = -1;
  std::uint16_t port = 0;
};

Server start_skillrt(const Options& options, std::uint16_t upstream_port) {
  int out[2];
  if (::pipe(out) != 0) {
    die("pipe");
  }
  const std::string upstream = "http://127.0.0.1:" + std::to_string(upstream_port) + "/v1";
  const std::string threads = std::to_string(options.threads);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    ::close(out[0]);
    ::close(out[1]);
    ::setenv("PROXY_BENCH_KEY", "sk-bench", 1);
    ::execl(options.skillrt.c_str(), options.skillrt.c_str(), "--home", options.home.c_str(), "serve", "--listen",
            "127.0.0.1:0", "--threads", threads.c_str(), "--upstream", upstream.c_str(), "--upstream-key-env",
            "PROXY_BENCH_KEY", static_cast<char*>(nullptr));
    std::perror("exec skillrt");
    std::_Exit(127);
  }
  ::close(out[1]);
  std::string line;
  char c = 0;
  while (::read(out[0], &c, 1) == 1 && c != '\n') {
    line += c;
  }
  ::close(out[0]);
  std::smatch match;
  if (!std::regex_match(line, match, std::regex(R"(listening http://127\.0\.0\.1:(\d+)/mcp)"))) {
    die("skillrt serve did not start: [" + line + "]");
  }
  return Server{pid, static_cast<std::uint16_t>(std::stoul(match[1]))};
}

struct Run {
  std::vector<std::uint32_t> latencies_us;  // from the send to the whole answer
  std::uint64_t errors = 0;
  std::uint64_t late = 0;  // sent more than 1 ms after it was due (the load was not kept)
};

// `count` requests at `rate` over `connections` keep-alive connections.
Run run_at_rate(std::uint16_t port, const std::string& headers, const Options& options, std::size_t count) {
  const std::string request = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              "Content-Type: application/json\r\nAccept: application/json\r\n" +
                              headers + "Content-Length: " + std::to_string(std::strlen(k_request_body)) +
                              "\r\n\r\n" + k_request_body;
  const auto period = std::chrono::duration<double>(1.0 / options.rate);
  const Clock::time_point start = Clock::now() + std::chrono::milliseconds(50);
  std::atomic<std::size_t> next{0};
  std::mutex merge;
  Run total;
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < options.connections; ++w) {
    workers.emplace_back([&] {
      const int fd = connect_loopback(port);
      std::string buffer;
      Run mine;
      mine.latencies_us.reserve(count / options.connections + 16);
      for (std::size_t i = next++; i < count; i = next++) {
        const auto due = start + std::chrono::duration_cast<Clock::duration>(period * static_cast<double>(i));
        std::this_thread::sleep_until(due);
        const Clock::time_point sent = Clock::now();
        if (sent - due > std::chrono::milliseconds(1)) {
          ++mine.late;
        }
        std::string head;
        if (!send_all(fd, request)) {
          die("connection lost");
        }
        const std::optional<std::string> body = read_message(fd, buffer, &head);
        const auto elapsed = Clock::now() - sent;
        if (!body) {
          die("connection lost");
        }
        if (head.compare(0, 12, "HTTP/1.1 200") != 0 || *body != k_reply_body) {
          ++mine.errors;
        }
        mine.latencies_us.push_back(
            static_cast<std::uint32_t>(std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count()));
      }
      ::close(fd);
      std::lock_guard lock(merge);
      total.latencies_us.insert(total.latencies_us.end(), mine.latencies_us.begin(), mine.latencies_us.end());
      total.errors += mine.errors;
      total.late += mine.late;
    });
  }
  for (std::thread& worker : workers) {
    worker.join();
  }
  return total;
}

// The server's CPU time so far (user + system), in clock ticks.
long cpu_ticks(pid_t pid) {
  std::FILE* stat = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
  if (stat == nullptr) {
    return 0;
  }
  char text[1024] = {};
  const std::size_t got = std::fread(text, 1, sizeof text - 1, stat);
  std::fclose(stat);
  // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
  const char* after = std::strrchr(text, ')');
  if (got == 0 || after == nullptr) {
    return 0;
  }
  long utime = 0;
  long stime = 0;
  std::sscanf(after + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &utime, &stime);
  return utime + stime;
}

std::uint32_t percentile(const std::vector<std::uint32_t>& sorted, double p) {
  if (sorted.empty()) {
    return 0;
  }
  return sorted[static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1))];
}

std::string summary(std::vector<std::uint32_t>& all, const Run& totals) {
  std::sort(all.begin(), all.end());
  char text[256];
  std::snprintf(text, sizeof text,
                "{\"requests\": %zu, \"errors\": %llu, \"late\": %llu, \"p50_us\": %u, \"p90_us\": %u, "
                "\"p99_us\": %u, \"p999_us\": %u, \"max_us\": %u}",
                all.size(), static_cast<unsigned long long>(totals.errors),
                static_cast<unsigned long long>(totals.late), percentile(all, 0.50), percentile(all, 0.90),
                percentile(all, 0.99), percentile(all, 0.999), all.empty() ? 0u : all.back());
  return text;
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
    if (arg == "--skillrt") {
      options.skillrt = value();
    } else if (arg == "--home") {
      options.home = value();
    } else if (arg == "--token") {
      options.token = value();
    } else if (arg == "--rate") {
      options.rate = std::stod(value());
    } else if (arg == "--seconds") {
      options.seconds = std::stod(value());
    } else if (arg == "--rounds") {
      options.rounds = static_cast<unsigned>(std::stoul(value()));
    } else if (arg == "--connections") {
      options.connections = static_cast<unsigned>(std::stoul(value()));
    } else if (arg == "--threads") {
      options.threads = static_cast<unsigned>(std::stoul(value()));
    } else {
      die("unknown argument " + arg);
    }
  }
  if (options.skillrt.empty() || options.home.empty() || options.token.empty()) {
    die("--skillrt, --home and --token are required");
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  ::prctl(PR_SET_TIMERSLACK, 1UL);  // sleep_until wakes within microseconds, not the default 50
  std::uint16_t upstream_port = 0;
  const int listen_fd = listen_loopback(upstream_port);
  std::thread(run_upstream, listen_fd).detach();
  const Server server = start_skillrt(options, upstream_port);

  const std::string proxy_headers = "Authorization: Bearer " + options.token + "\r\n";
  const auto per_run = static_cast<std::size_t>(options.rate * options.seconds);
  // Warm-up: connections, the token cache, the upstream pool, the allocator.
  run_at_rate(upstream_port, "", options, static_cast<std::size_t>(options.rate));
  run_at_rate(server.port, proxy_headers, options, static_cast<std::size_t>(options.rate));

  std::vector<std::uint32_t> direct;
  std::vector<std::uint32_t> proxied;
  Run direct_totals;
  Run proxy_totals;
  long proxy_ticks = 0;  // the server's CPU during the proxied legs
  for (unsigned round = 0; round < options.rounds; ++round) {
    // Alternate the order, so drift in the machine's load hits both alike.
    for (int leg = 0; leg < 2; ++leg) {
      const bool through_proxy = (round % 2 == 0) == (leg == 1);
      const long ticks_before = cpu_ticks(server.pid);
      Run run = through_proxy ? run_at_rate(server.port, proxy_headers, options, per_run)
                              : run_at_rate(upstream_port, "", options, per_run);
      if (through_proxy) {
        proxy_ticks += cpu_ticks(server.pid) - ticks_before;
      }
      std::vector<std::uint32_t>& into = through_proxy ? proxied : direct;
      Run& totals = through_proxy ? proxy_totals : direct_totals;
      into.insert(into.end(), run.latencies_us.begin(), run.latencies_us.end());
      totals.errors += run.errors;
      totals.late += run.late;
    }
  }
  ::kill(server.pid, SIGTERM);
  int status = 0;
  ::waitpid(server.pid, &status, 0);

  const std::string direct_text = summary(direct, direct_totals);
  const std::string proxy_text = summary(proxied, proxy_totals);
  std::printf("{\"rate\": %.0f, \"seconds_per_leg\": %.1f, \"rounds\": %u, \"connections\": %u, \"server_threads\": %u,\n"
              " \"direct\": %s,\n \"proxy\": %s,\n \"added_p50_us\": %d, \"added_p99_us\": %d, "
              "\"server_cpu_us_per_request\": %.0f}\n",
              options.rate, options.seconds, options.rounds, options.connections, options.threads,
              direct_text.c_str(), proxy_text.c_str(),
              static_cast<int>(percentile(proxied, 0.50)) - static_cast<int>(percentile(direct, 0.50)),
              static_cast<int>(percentile(proxied, 0.99)) - static_cast<int>(percentile(direct, 0.99)),
              proxied.empty() ? 0.0
                              : static_cast<double>(proxy_ticks) * 1e6 / static_cast<double>(::sysconf(_SC_CLK_TCK)) /
                                    static_cast<double>(proxied.size()));
  return direct_totals.errors + proxy_totals.errors == 0 ? 0 : 1;
}
