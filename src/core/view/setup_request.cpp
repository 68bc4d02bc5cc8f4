#include "core/view/setup_request.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/files/atomic_file.hpp"
#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/util/random_hex.hpp"
#include "core/util/strict_json.hpp"
#include "core/view/dotenv_write.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr std::string_view k_unknown = "This setup link is unknown, already used or expired.";

fs::path requests_dir(const Context& ctx) { return ctx.home / "setup-requests"; }

bool is_request_id(std::string_view id) {
  return id.size() == 64 && std::all_of(id.begin(), id.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::int64_t to_ms(std::chrono::system_clock::time_point at) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
}

Result<void> ensure_private_dir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot create " + dir.string() + ": " + ec.message());
  }
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return fail(ErrorCode::refused, dir.string() + " is not a directory (a symlink?)");
  }
  if ((st.st_mode & 077) != 0 && ::chmod(dir.c_str(), 0700) != 0) {
    return fail(ErrorCode::io_error, "cannot make " + dir.string() + " private");
  }
  return {};
}

std::string render(const SetupRequest& request) {
  Json variables = Json::array();
  for (const EnvRequirement& variable : request.variables) {
    Json item = Json::object();
    item["name"] = variable.name;
    item["prompt"] = variable.prompt;
    item["help"] = variable.help ? Json(*variable.help) : Json(nullptr);
    variables.push_back(std::move(item));
  }
  Json out = Json::object();
  out["version"] = 1;
  out["user"] = request.user_id ? Json(*request.user_id) : Json(nullptr);
  out["org"] = request.org_id;
  out["skill"] = request.skill;
  out["variables"] = std::move(variables);
  out["expires_ms"] = to_ms(request.expires_at);
  return out.dump(2) + "\n";
}

Result<SetupRequest> parse(std::string_view id, const std::string& text) {
  if (auto ok = check_strict_json(text, 8); !ok) {
    return tl::unexpected(ok.error());
  }
  const Json doc = Json::parse(text, nullptr, false);
  const auto fail_shape = [] { return fail(ErrorCode::parse_error, "a setup request record is malformed"); };
  if (!doc.is_object() || !doc.contains("skill") || !doc["skill"].is_string() || !doc.contains("variables") ||
      !doc["variables"].is_array() || !doc.contains("expires_ms") || !doc["expires_ms"].is_number_integer()) {
    return fail_shape();
  }
  SetupRequest out;
  out.id = std::string(id);
  if (doc.contains("user") && doc["user"].is_string()) {
    out.user_id = doc["user"].get<std::string>();
  }
  out.org_id = doc.value("org", std::string());
  out.skill = doc["skill"].get<std::string>();
  for (const Json& item : doc["variables"]) {
    if (!item.is_object() || !item.contains("name") || !item["name"].is_string()) {
      return fail_shape();
    }
    EnvRequirement variable;
    variable.name = item["name"].get<std::string>();
    variable.prompt = item.value("prompt", std::string());
    if (item.contains("help") && item["help"].is_string()) {
      variable.help = item["help"].get<std::string>();
    }
    out.variables.push_back(std::move(variable));
  }
  out.expires_at = std::chrono::system_clock::time_point(std::chrono::milliseconds(doc["expires_ms"].get<std::int64_t>()));
  return out;
}

// Reads a record; an expired one is removed and reads as unknown.
Result<SetupRequest> read_request(const fs::path& file, std::string_view id) {
  auto text = read_regular_file(file, limits::k_max_config_bytes);
  if (!text) {
    return fail(ErrorCode::not_found, std::string(k_unknown));
  }
  auto request = parse(id, *text);
  if (!request || request->expires_at <= std::chrono::system_clock::now()) {
    std::error_code ec;
    fs::remove(file, ec);
    return fail(ErrorCode::not_found, std::string(k_unknown));
  }
  return request;
}

// How many records wait in `dir`. Only when that reaches the limit are they
// read, and the expired and unreadable ones removed: a create costs one
// listing, not a read of every record.
std::size_t count_waiting(const fs::path& dir) {
  std::vector<fs::path> records;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".json" && is_request_id(it->path().stem().string())) {
      records.push_back(it->path());
    }
  }
  if (records.size() < limits::k_max_setup_requests) {
    return records.size();
  }
  return static_cast<std::size_t>(std::count_if(records.begin(), records.end(), [](const fs::path& file) {
    return read_request(file, file.stem().string()).has_value();
  }));
}

}  // namespace

Result<SetupRequest> create_setup_request(const Context& ctx, const std::string& skill,
                                          std::vector<EnvRequirement> variables) {
  if (variables.empty()) {
    return fail(ErrorCode::invalid_argument, "a setup request needs at least one variable");
  }
  const fs::path dir = requests_dir(ctx);
  if (auto ok = ensure_private_dir(dir); !ok) {
    return tl::unexpected(ok.error());
  }
  if (count_waiting(dir) >= limits::k_max_setup_requests) {
    return fail(ErrorCode::refused, "too many setup requests are waiting; try again in a few minutes");
  }
  std::optional<std::string> id = random_hex(32);
  if (!id) {
    return fail(ErrorCode::io_error, "no random bytes for a setup request id");
  }
  SetupRequest request;
  request.id = std::move(*id);
  request.user_id = ctx.user_id;
  request.org_id = ctx.org_id;
  request.skill = skill;
  request.variables = std::move(variables);
  request.expires_at = std::chrono::system_clock::now() + std::chrono::seconds(limits::k_setup_request_ttl_s);
  if (auto written = write_file_atomic(dir / (request.id + ".json"), render(request)); !written) {
    return tl::unexpected(written.error());
  }
  return request;
}

Result<SetupRequest> find_setup_request(const Context& ctx, std::string_view id) {
  if (!is_request_id(id)) {
    return fail(ErrorCode::not_found, std::string(k_unknown));
  }
  return read_request(requests_dir(ctx) / (std::string(id) + ".json"), id);
}

Result<SetupOutcome> complete_setup_request(const Context& ctx, std::string_view id,
                                            const std::vector<std::pair<std::string, std::string>>& values) {
  auto request = find_setup_request(ctx, id);
  if (!request) {
    return tl::unexpected(request.error());
  }
  if (values.empty()) {
    return fail(ErrorCode::invalid_argument, "no value was given");
  }
  for (const auto& entry : values) {
    const std::string& name = entry.first;
    const std::string& value = entry.second;
    const bool asked = std::any_of(request->variables.begin(), request->variables.end(),
                                   [&name](const EnvRequirement& variable) { return variable.name == name; });
    if (!asked) {
      return fail(ErrorCode::invalid_argument, "'" + name + "' is not a variable this setup asks for");
    }
    if (value.empty()) {
      return fail(ErrorCode::invalid_argument, "the value of " + name + " is empty");
    }
    if (auto ok = check_storable_secret(name, value); !ok) {
      return tl::unexpected(ok.error());
    }
  }
  // Claim the request first (one rename): two submissions of one link never both write.
  const fs::path file = requests_dir(ctx) / (std::string(id) + ".json");
  const fs::path claimed = requests_dir(ctx) / ("." + std::string(id) + ".taken");
  std::error_code ec;
  fs::rename(file, claimed, ec);
  if (ec) {
    return fail(ErrorCode::not_found, std::string(k_unknown));
  }
  Context owner = ctx;
  owner.user_id = request->user_id;
  owner.org_id = request->org_id;
  owner.anonymous = false;  // the page's caller is nobody; the request names the owner
  auto target = dotenv_file_for_writes(owner);
  Result<void> stored = target ? store_dotenv_values(*target, values, !owner.user_id.has_value())
                               : Result<void>(tl::unexpected(target.error()));
  if (!stored) {
    fs::rename(claimed, file, ec);  // the link still works for another try
    return tl::unexpected(stored.error());
  }
  fs::remove(claimed, ec);
  SetupOutcome out;
  out.request = std::move(*request);
  out.file = *target;
  for (const auto& value : values) {
    out.stored.push_back(value.first);
  }
  return out;
}

}  // namespace skillrt::core
