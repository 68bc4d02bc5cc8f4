// The small part of URL syntax the sources need: split scheme, credentials,
// host, port and path; tell loopback hosts apart; decide whether a URL may be
// fetched at all (https anywhere, http only on loopback).
#pragma once

#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::sources {

struct UrlParts {
  std::string scheme;   // lower case, without "://"
  std::string userinfo; // "user:password" before '@', "" when none
  std::string host;     // lower case; an IPv6 literal keeps its brackets
  std::string port;     // digits, "" when none
  std::string path;     // from the first '/' (or '?') to the end, fragment dropped; may be ""

  // scheme://[userinfo@]host[:port]path: what is fetched.
  std::string full() const;
  // The same without userinfo: what is shown and recorded.
  std::string without_credentials() const;
  // The path without its query string.
  std::string_view path_only() const;
};

// Splits `url` (scheme://authority[/path][?query][#fragment]). Fails
// (invalid_argument) on a missing scheme or host, spaces or control bytes, and
// hosts with characters outside [A-Za-z0-9.-_] (or a bracketed IPv6 literal).
Result<UrlParts> parse_url(std::string_view url);

// "localhost", 127.0.0.0/8 written as a dotted quad, or [::1].
bool is_loopback_host(std::string_view host);

// Allowed to download from: https, or http to a loopback host. Otherwise
// refused with a message naming the rule.
Result<void> check_fetchable(const UrlParts& url);

} // namespace skillrt::sources
