#include "core/discovery/gates.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <system_error>
#include <filesystem>

#include "core/discovery/catalog.hpp"
#include "core/files/unique_fd.hpp"

namespace skillrt::core {

namespace {

std::string lower_trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\n' || text.front() == '\r')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

bool path_exists(const char* path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

// /proc/1/cgroup is small; read at most this much of it.
constexpr std::size_t k_cgroup_read_limit = 64 * 1024;

bool cgroup_names_container() {
  const files::UniqueFd fd(::open("/proc/1/cgroup", O_RDONLY | O_CLOEXEC));
  if (!fd) {
    return false;
  }
  std::string content;
  std::array<char, 4096> buffer{};
  while (content.size() < k_cgroup_read_limit) {
    ssize_t got = ::read(fd.get(), buffer.data(), buffer.size());
    if (got <= 0) {
      break;
    }
    content.append(buffer.data(), static_cast<std::size_t>(got));
  }
  return content.find("docker") != std::string::npos || content.find("containerd") != std::string::npos ||
         content.find("kubepods") != std::string::npos;
}

bool env_set(const Context& ctx, std::string_view name) {
  std::optional<std::string> value = ctx.env(name);
  return value && !value->empty();
}

}  // namespace

const char* hidden_name(Hidden hidden) {
  switch (hidden) {
    case Hidden::none:
      return "none";
    case Hidden::platform:
      return "platform";
    case Hidden::environment:
      return "environment";
    case Hidden::disabled:
      return "disabled";
    case Hidden::shadowed:
      return "shadowed";
  }
  return "unknown";
}

HostEnvironment probe_host_environment(const Context& ctx) {
  HostEnvironment host;
  host.docker = path_exists("/.dockerenv") || cgroup_names_container();
  host.s6 = path_exists("/run/s6") || path_exists("/package/admin/s6-overlay");
  host.kanban = env_set(ctx, "HERMES_KANBAN_TASK") || env_set(ctx, "HERMES_KANBAN_BOARD");
  return host;
}

std::vector<std::string> gate_tags(const YamlNode* node) {
  std::vector<std::string> tags;
  if (node == nullptr || !node->truthy()) {
    return tags;
  }
  if (node->is_sequence()) {
    for (const auto& item : node->items()) {
      tags.push_back(lower_trim(item.to_string()));
    }
    return tags;
  }
  tags.push_back(lower_trim(node->to_string()));
  return tags;
}

namespace {

template <typename Tags>
bool platform_tags_match(const Tags& platforms, const std::string& os) {
  if (platforms.empty()) {
    return true;
  }
  for (const auto& raw : platforms) {
    std::string tag = lower_trim(raw);
    if (tag == "macos") {
      tag = "darwin";
    } else if (tag == "windows") {
      tag = "win32";
    }
    if (os.starts_with(tag)) {
      return true;
    }
  }
  return false;
}

template <typename Tags>
bool environment_tags_match(const Tags& environments, const HostEnvironment& host) {
  if (environments.empty()) {
    return true;
  }
  bool any = false;
  for (const auto& raw : environments) {
    std::string tag = lower_trim(raw);
    if (tag == "docker") {
      any = any || host.docker;
    } else if (tag == "s6") {
      any = any || host.s6;
    } else if (tag == "kanban") {
      any = any || host.kanban;
    } else {
      return true;  // fail open on a tag we do not know
    }
  }
  return any;
}

}  // namespace

bool matches_platform(const std::vector<std::string>& platforms, const std::string& os) {
  return platform_tags_match(platforms, os);
}

bool matches_platform_tags(const ViewList& platforms, const std::string& os) { return platform_tags_match(platforms, os); }

bool matches_host_environment(const std::vector<std::string>& environments, const HostEnvironment& host) {
  return environment_tags_match(environments, host);
}

bool matches_host_environment_tags(const ViewList& environments, const HostEnvironment& host) {
  return environment_tags_match(environments, host);
}

bool matches_environment(const std::vector<std::string>& environments, const Context& ctx) {
  if (environments.empty()) {
    return true;
  }
  return matches_host_environment(environments, probe_host_environment(ctx));
}

}  // namespace skillrt::core
