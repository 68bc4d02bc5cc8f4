// The chat-completions client over libcurl (the only file of src/llm that
// includes curl/curl.h); see openai_chat_client.hpp.
//
// Each attempt runs on curl's multi interface rather than curl_easy_perform:
// the easy loop polls its sockets for up to a second between progress
// callbacks, so a stop request could wait that long; here a stop_callback
// calls curl_multi_wakeup, which ends the poll at once.
#include "llm/openai_chat_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>

#include "core/chat/chat_wire.hpp"
#include "core/util/utf8.hpp"
#include "core/util/utf8_prefix.hpp"

namespace skillrt::llm {

namespace {

using std::chrono::milliseconds;

// libcurl's global state, set up once on first use (a function-local static
// is initialised once even when several threads call complete() at once).
struct CurlLibrary {
  CurlLibrary() { curl_global_init(CURL_GLOBAL_DEFAULT); }
  ~CurlLibrary() { curl_global_cleanup(); }
  CurlLibrary(const CurlLibrary&) = delete;
  CurlLibrary& operator=(const CurlLibrary&) = delete;
};

void ensure_library() {
  static const CurlLibrary library;
}

struct CurlEasyFree {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
struct CurlMultiFree {
  void operator()(CURLM* handle) const { curl_multi_cleanup(handle); }
};
struct CurlListFree {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
struct CurlUrlFree {
  void operator()(CURLU* url) const { curl_url_cleanup(url); }
};
using CurlEasy = std::unique_ptr<CURL, CurlEasyFree>;
using CurlMulti = std::unique_ptr<CURLM, CurlMultiFree>;
using CurlList = std::unique_ptr<curl_slist, CurlListFree>;
using CurlUrl = std::unique_ptr<CURLU, CurlUrlFree>;

template <typename T> void set(CURL* handle, CURLoption option, T value) {
  curl_easy_setopt(handle, option, value);
}

// Where the requests go, and how that place is named in a message.
struct Endpoint {
  std::string url;    // base_url + "/chat/completions" (its query kept)
  std::string shown;  // the same without user name or password
  std::string scheme; // "http" | "https"
  bool loopback = false;
};

std::optional<std::string> url_part(CURLU* url, CURLUPart part) {
  char* text = nullptr;
  if (curl_url_get(url, part, &text, 0) != CURLUE_OK || text == nullptr) {
    return std::nullopt;
  }
  std::string out(text);
  curl_free(text);
  return out;
}

bool is_loopback(const std::string& host) {
  if (host == "localhost" || host == "[::1]") {
    return true;
  }
  // 127.0.0.0/8 as a dotted quad.
  return host.starts_with("127.") && host.find_first_not_of("0123456789.") == std::string::npos;
}

// A URL as a message may show it: a user name and password before '@' are
// starred out (the URL may be too broken for curl to take them out).
std::string redacted(const std::string& url) {
  std::string out = core::utf8_prefix(core::sanitize_utf8(url), 200);
  const std::size_t start = out.find("://");
  const std::size_t from = start == std::string::npos ? 0 : start + 3;
  const std::size_t at = out.find('@', from);
  if (at != std::string::npos && out.find('/', from) > at) {
    out.replace(from, at - from, "***");
  }
  return out;
}

Result<Endpoint> endpoint(const std::string& base_url) {
  const std::string shown_base = redacted(base_url);
  CurlUrl url(curl_url());
  if (!url) {
    return fail(ErrorCode::internal, "libcurl could not allocate a URL handle");
  }
  if (base_url.empty() || curl_url_set(url.get(), CURLUPART_URL, base_url.c_str(), 0) != CURLUE_OK) {
    return fail(ErrorCode::invalid_argument, "the model server URL \"" + shown_base + "\" is not a valid URL");
  }
  Endpoint out;
  out.scheme = url_part(url.get(), CURLUPART_SCHEME).value_or("");
  if (out.scheme != "http" && out.scheme != "https") {
    return fail(ErrorCode::invalid_argument,
                "the model server URL must be http:// or https://, not " + out.scheme + "://");
  }
  out.loopback = is_loopback(url_part(url.get(), CURLUPART_HOST).value_or(""));
  std::string path = url_part(url.get(), CURLUPART_PATH).value_or("/");
  while (!path.empty() && path.back() == '/') {
    path.pop_back();
  }
  path += "/chat/completions";
  curl_url_set(url.get(), CURLUPART_PATH, path.c_str(), 0);
  curl_url_set(url.get(), CURLUPART_FRAGMENT, nullptr, 0);
  out.url = url_part(url.get(), CURLUPART_URL).value_or("");
  curl_url_set(url.get(), CURLUPART_USER, nullptr, 0);
  curl_url_set(url.get(), CURLUPART_PASSWORD, nullptr, 0);
  out.shown = url_part(url.get(), CURLUPART_URL).value_or(shown_base);
  if (out.url.empty()) {
    return fail(ErrorCode::invalid_argument, "the model server URL \"" + shown_base + "\" is not a valid URL");
  }
  return out;
}

// What one attempt brought back.
struct Attempt {
  CURLcode code = CURLE_OK;
  std::string curl_error;
  long status = 0;
  bool connected = false;
  bool cancelled = false;
  bool too_large = false;
  std::string body;
  std::size_t max_body = 0;
  // Of the last response head (an interim "100 Continue" head resets them).
  std::optional<std::string> retry_after;
  std::optional<std::string> retry_after_ms;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* attempt = static_cast<Attempt*>(user);
  const std::size_t bytes = size * count;
  if (bytes > attempt->max_body - attempt->body.size()) {
    attempt->too_large = true;
    return 0; // a short count makes curl stop with CURLE_WRITE_ERROR
  }
  attempt->body.append(data, bytes);
  return bytes;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' || text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* attempt = static_cast<Attempt*>(user);
  const std::size_t bytes = size * count;
  const std::string_view line(data, bytes);
  if (line.starts_with("HTTP/")) {
    attempt->retry_after.reset();
    attempt->retry_after_ms.reset();
    return bytes;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) {
    return bytes;
  }
  const std::string_view name = line.substr(0, colon);
  const std::string value(trim(line.substr(colon + 1)).substr(0, 200));
  if (iequals(name, "retry-after")) {
    attempt->retry_after = value;
  } else if (iequals(name, "retry-after-ms")) {
    attempt->retry_after_ms = value;
  }
  return bytes;
}

Attempt perform(const Endpoint& where, const std::string& body, curl_slist* headers, const OpenAiChatOptions& options,
                const std::stop_token& stop) {
  Attempt attempt;
  attempt.max_body = options.max_response_bytes;
  CurlEasy easy(curl_easy_init());
  CurlMulti multi(curl_multi_init());
  if (!easy || !multi) {
    attempt.code = CURLE_OUT_OF_MEMORY;
    attempt.curl_error = "libcurl could not allocate a handle";
    return attempt;
  }
  char error_text[CURL_ERROR_SIZE] = {};
  CURL* h = easy.get();
  set(h, CURLOPT_URL, where.url.c_str());
  set(h, CURLOPT_PROTOCOLS_STR, where.scheme.c_str());
  set(h, CURLOPT_FOLLOWLOCATION, 0L);
  set(h, CURLOPT_POST, 1L);
  set(h, CURLOPT_POSTFIELDS, body.data());
  set(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  set(h, CURLOPT_HTTPHEADER, headers);
  set(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout_ms));
  set(h, CURLOPT_TIMEOUT_MS, static_cast<long>(options.request_timeout_ms));
  set(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.max_response_bytes));
  // Compressed replies are welcome; the size cap holds on the decoded bytes.
  set(h, CURLOPT_ACCEPT_ENCODING, "");
  set(h, CURLOPT_SSL_VERIFYPEER, 1L);
  set(h, CURLOPT_SSL_VERIFYHOST, 2L);
  set(h, CURLOPT_NOSIGNAL, 1L);
  set(h, CURLOPT_USERAGENT, options.user_agent.empty() ? "skillrt" : options.user_agent.c_str());
  set(h, CURLOPT_ERRORBUFFER, error_text);
  set(h, CURLOPT_WRITEFUNCTION, on_body);
  set(h, CURLOPT_WRITEDATA, &attempt);
  set(h, CURLOPT_HEADERFUNCTION, on_header);
  set(h, CURLOPT_HEADERDATA, &attempt);
  if (where.loopback) {
    // A local model server is never reached through a proxy.
    set(h, CURLOPT_NOPROXY, "*");
  }
  if (curl_multi_add_handle(multi.get(), h) != CURLM_OK) {
    attempt.code = CURLE_FAILED_INIT;
    attempt.curl_error = "libcurl could not start the transfer";
    return attempt;
  }
  {
    // Declared after `multi`, so it is gone (and not running) before the
    // multi handle is cleaned up.
    CURLM* m = multi.get();
    const std::stop_callback wake(stop, [m] { curl_multi_wakeup(m); });
    int running = 1;
    for (;;) {
      if (curl_multi_perform(m, &running) != CURLM_OK) {
        attempt.code = CURLE_FAILED_INIT;
        break;
      }
      if (running == 0) {
        break;
      }
      if (stop.stop_requested()) {
        attempt.cancelled = true;
        break;
      }
      curl_multi_poll(m, nullptr, 0, 100, nullptr);
    }
  }
  if (!attempt.cancelled) {
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(multi.get(), &queued)) {
      if (message->msg == CURLMSG_DONE && message->easy_handle == h) {
        attempt.code = message->data.result;
      }
    }
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &attempt.status);
  curl_off_t connect_us = 0;
  curl_easy_getinfo(h, CURLINFO_CONNECT_TIME_T, &connect_us);
  attempt.connected = connect_us > 0;
  attempt.curl_error = error_text[0] != '\0' ? std::string(error_text) : curl_easy_strerror(attempt.code);
  curl_multi_remove_handle(multi.get(), h);
  return attempt;
}

// Waits `delay` or until `stop` is requested; false when stopped.
bool wait_unless_stopped(const std::stop_token& stop, milliseconds delay) {
  std::mutex mutex;
  std::condition_variable_any wake;
  std::unique_lock lock(mutex);
  wake.wait_for(lock, stop, delay, [] { return false; });
  return !stop.stop_requested();
}

// The wait a 429/503 asks for: retry-after-ms (OpenAI's own header), else
// Retry-After as delta-seconds or an HTTP-date. nullopt when it sent none
// that can be read.
std::optional<milliseconds> server_wait(const Attempt& attempt) {
  constexpr std::uint64_t k_never = std::uint64_t{1} << 40; // ms: "longer than any cap"
  if (attempt.retry_after_ms) {
    std::uint64_t ms = 0;
    const std::string& text = *attempt.retry_after_ms;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), ms);
    if (error == std::errc() && (end == text.data() + text.size() || *end == '.')) {
      return milliseconds(std::min(ms, k_never));
    }
    if (error == std::errc::result_out_of_range) {
      return milliseconds(k_never);
    }
  }
  if (attempt.retry_after) {
    const std::string& text = *attempt.retry_after;
    if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
      if (text.size() > 9) {
        return milliseconds(k_never);
      }
      return milliseconds(std::stoull(text) * 1000);
    }
    const std::time_t when = curl_getdate(text.c_str(), nullptr);
    if (when != -1) {
      const auto at = std::chrono::system_clock::from_time_t(when);
      const auto left = std::chrono::duration_cast<milliseconds>(at - std::chrono::system_clock::now());
      return std::max(left, milliseconds(0));
    }
  }
  return std::nullopt;
}

milliseconds backoff(unsigned failed_attempts, std::uint32_t cap_ms) {
  // 500 ms after the first failure, doubling, never past the cap.
  const unsigned shift = std::min(failed_attempts - 1, 20u);
  return milliseconds(std::min<std::uint64_t>(std::uint64_t{500} << shift, cap_ms));
}

std::string seconds_text(milliseconds wait) {
  const auto ms = wait.count();
  return std::to_string((ms + 999) / 1000) + " s";
}

// The server's words for an error status: its error message, else the start
// of the body with control characters turned into spaces.
std::string server_text(const std::string& body) {
  if (auto message = core::chat_error_message(body)) {
    return *message;
  }
  std::string text = core::utf8_prefix(core::sanitize_utf8(body), 200);
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      c = ' ';
    }
  }
  text = std::string(trim(text));
  return text;
}

std::string status_message(const Attempt& attempt, const Endpoint& where) {
  std::string message = "HTTP " + std::to_string(attempt.status) + " from " + where.shown;
  if (std::string text = server_text(attempt.body); !text.empty()) {
    message += ": " + text;
  }
  return message;
}

// The ErrorCode of a status that is not retried.
ErrorCode status_code(long status) {
  switch (status) {
  case 400:
  case 422:
    return ErrorCode::invalid_argument;
  case 401:
  case 403:
    return ErrorCode::refused;
  case 404:
    return ErrorCode::not_found;
  case 413:
    return ErrorCode::limit_exceeded;
  default:
    return ErrorCode::io_error;
  }
}

// curl failures worth another attempt: nothing or a broken answer came back
// from a server that may be restarting or overloaded.
bool is_connection_failure(CURLcode code) {
  switch (code) {
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_CONNECT:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR:
  case CURLE_GOT_NOTHING:
  case CURLE_PARTIAL_FILE:
  case CURLE_HTTP2:
  case CURLE_HTTP2_STREAM:
  case CURLE_SSL_CONNECT_ERROR:
    return true;
  default:
    return false;
  }
}

} // namespace

OpenAiChatClient::OpenAiChatClient(OpenAiChatOptions options) : m_options(std::move(options)) {}

Result<core::ChatReply> OpenAiChatClient::complete(const core::ChatRequest& request, std::stop_token stop) {
  ensure_library();
  if (auto checked = core::check_chat_request(request); !checked) {
    return tl::unexpected(checked.error());
  }
  auto where = endpoint(m_options.base_url);
  if (!where) {
    return tl::unexpected(where.error());
  }
  const std::string body = core::chat_request_json(request, false);
  curl_slist* raw = nullptr;
  raw = curl_slist_append(raw, "Content-Type: application/json");
  raw = curl_slist_append(raw, "Accept: application/json");
  // No "Expect: 100-continue" round trip before a large body.
  raw = curl_slist_append(raw, "Expect:");
  if (!m_options.api_key.empty()) {
    raw = curl_slist_append(raw, ("Authorization: Bearer " + m_options.api_key).c_str());
  }
  const CurlList headers(raw);

  const auto cancelled = [&] { return fail(ErrorCode::io_error, "the request to " + where->shown + " was cancelled"); };
  const unsigned attempts = std::max(1u, m_options.max_attempts);
  Error last{ErrorCode::io_error, "no attempt was made", {}};
  for (unsigned number = 1; number <= attempts; ++number) {
    if (stop.stop_requested()) {
      return cancelled();
    }
    Attempt attempt = perform(*where, body, headers.get(), m_options, stop);
    if (attempt.cancelled) {
      return cancelled();
    }
    std::optional<milliseconds> asked; // what the server asked us to wait
    if (attempt.code == CURLE_FILESIZE_EXCEEDED || (attempt.code == CURLE_WRITE_ERROR && attempt.too_large)) {
      return fail(ErrorCode::limit_exceeded, "the reply of " + where->shown + " is larger than the limit of " +
                                                 std::to_string(m_options.max_response_bytes) + " bytes");
    }
    if (attempt.code == CURLE_OPERATION_TIMEDOUT && attempt.connected) {
      return fail(ErrorCode::io_error, "the request to " + where->shown + " timed out after " +
                                           std::to_string(m_options.request_timeout_ms) + " ms");
    }
    if (attempt.code != CURLE_OK) {
      const std::string message = "cannot reach " + where->shown + ": " + attempt.curl_error;
      if (!is_connection_failure(attempt.code) && attempt.code != CURLE_OPERATION_TIMEDOUT) {
        return fail(ErrorCode::io_error, message);
      }
      last = Error{ErrorCode::io_error, message, {}};
    } else if (attempt.status >= 200 && attempt.status <= 299) {
      auto reply = core::parse_chat_reply(attempt.body);
      if (!reply) {
        const std::string what =
            reply.error().code == ErrorCode::parse_error ? "malformed reply from " : "error reply from ";
        return fail(reply.error().code, what + where->shown + ": " + reply.error().message);
      }
      return reply;
    } else if (attempt.status == 429 || attempt.status == 503) {
      last = Error{ErrorCode::io_error, status_message(attempt, *where), {}};
      asked = server_wait(attempt);
      if (asked && *asked > milliseconds(m_options.max_retry_wait_ms)) {
        return fail(ErrorCode::io_error,
                    last.message + " (the server asked to wait " + seconds_text(*asked) + ", longer than the " +
                        seconds_text(milliseconds(m_options.max_retry_wait_ms)) + " this client waits)");
      }
    } else if (attempt.status >= 500 && attempt.status <= 599) {
      last = Error{ErrorCode::io_error, status_message(attempt, *where), {}};
    } else if (attempt.status >= 300 && attempt.status <= 399) {
      return fail(ErrorCode::io_error, "HTTP " + std::to_string(attempt.status) + " from " + where->shown +
                                           ": a redirect, which this client does not follow");
    } else if (attempt.status >= 400 && attempt.status <= 499) {
      return fail(status_code(attempt.status), status_message(attempt, *where));
    } else {
      return fail(ErrorCode::io_error,
                  "unexpected HTTP status " + std::to_string(attempt.status) + " from " + where->shown);
    }
    if (number == attempts) {
      break;
    }
    const milliseconds wait = asked ? *asked : backoff(number, m_options.max_retry_wait_ms);
    if (!wait_unless_stopped(stop, wait)) {
      return cancelled();
    }
  }
  if (attempts > 1) {
    last.message += " (gave up after " + std::to_string(attempts) + " attempts)";
  }
  return tl::unexpected(last);
}

} // namespace skillrt::llm
