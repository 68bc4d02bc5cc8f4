#include "web_assets.hpp"

#include <algorithm>
#include <fstream>
#include <map>

#include "core/util/sha256.hpp"
#include "embedded_assets.hpp"

namespace skillrt::web {
namespace {

constexpr std::uintmax_t k_max_disk_asset_bytes = 8u << 20;

bool plain_file_name(std::string_view name) {
  if (name.empty() || name.front() == '.' || name.size() > 128) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
  });
}

std::string etag_of(std::string_view bytes) { return "\"" + core::sha256_hex(bytes).substr(0, 32) + "\""; }

// The built-in files with their validators, computed once.
const std::map<std::string, WebAsset, std::less<>>& built_in() {
  static const std::map<std::string, WebAsset, std::less<>> assets = [] {
    std::map<std::string, WebAsset, std::less<>> map;
    for (const EmbeddedFile& file : k_embedded_assets) {
      map[std::string(file.name)] =
          WebAsset{std::string(file.bytes), std::string(web_content_type(file.name)), etag_of(file.bytes)};
    }
    return map;
  }();
  return assets;
}

}  // namespace

std::optional<std::string> web_asset_name(std::string_view path) {
  if (path == "/" || path == "/index.html") {
    return "index.html";
  }
  constexpr std::string_view prefix = "/ui/";
  if (!path.starts_with(prefix)) {
    return std::nullopt;
  }
  const std::string_view name = path.substr(prefix.size());
  if (!plain_file_name(name)) {
    return std::nullopt;
  }
  return std::string(name);
}

std::string_view web_content_type(std::string_view name) {
  const auto ends = [&](std::string_view suffix) { return name.ends_with(suffix); };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js") || ends(".mjs")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".png")) return "image/png";
  if (ends(".json") || ends(".webmanifest")) return "application/json";
  if (ends(".woff2")) return "font/woff2";
  return "application/octet-stream";
}

Result<WebAsset> load_web_asset(std::string_view name, const std::optional<std::filesystem::path>& root) {
  if (!plain_file_name(name)) {
    return fail(ErrorCode::not_found, "Not Found");
  }
  if (!root) {
    const auto& assets = built_in();
    const auto found = assets.find(name);
    if (found == assets.end()) {
      return fail(ErrorCode::not_found, "Not Found");
    }
    return found->second;
  }
  const std::filesystem::path file = *root / std::string(name);
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(file, ec);
  if (ec || !std::filesystem::is_regular_file(status)) {
    return fail(ErrorCode::not_found, "Not Found");
  }
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec || size > k_max_disk_asset_bytes) {
    return fail(ErrorCode::not_found, "Not Found");
  }
  std::ifstream in(file, std::ios::binary);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    return fail(ErrorCode::not_found, "Not Found");
  }
  WebAsset asset{std::move(bytes), std::string(web_content_type(name)), {}};
  asset.etag = etag_of(asset.body);
  return asset;
}

}  // namespace skillrt::web
