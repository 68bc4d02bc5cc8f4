// The web UI's files as the server hands them out: `/` is index.html and
// `/ui/<file>` any other file of src/web/assets. Built in by default (no
// network, no files needed at run time); `serve --web-root DIR` reads them
// from DIR on each request instead, so the UI can be worked on without a
// rebuild.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::web {

struct WebAsset {
  std::string body;
  std::string content_type;
  std::string etag;  // quoted strong validator over the bytes
};

// The file name a request path names: "/" → "index.html", "/ui/app.js" →
// "app.js"; nullopt for any other path, and for a name that is not a plain
// file name (a slash, a leading dot, a character outside [A-Za-z0-9._-]).
std::optional<std::string> web_asset_name(std::string_view path);

// The Content-Type for a file name, from its extension.
std::string_view web_content_type(std::string_view name);

// The asset `name` from the built-in copy, or from `root` when it is set.
// Not found (or unreadable, or over 8 MiB under root) is an error with code "not_found".
Result<WebAsset> load_web_asset(std::string_view name, const std::optional<std::filesystem::path>& root);

// The headers every UI answer carries (the page's CSP among them).
inline constexpr std::string_view k_web_csp =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

}  // namespace skillrt::web
