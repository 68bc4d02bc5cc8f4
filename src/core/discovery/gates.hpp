// Offer-time gates shared by the catalog (spec §2.4 rules 1-2).
#pragma once

#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/discovery/string_arena.hpp"
#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {

// What this process is running in, probed once per catalog build.
struct HostEnvironment {
  bool docker = false;  // /.dockerenv, or /proc/1/cgroup names docker, containerd or kubepods
  bool s6 = false;      // /run/s6 or /package/admin/s6-overlay
  bool kanban = false;  // HERMES_KANBAN_TASK or HERMES_KANBAN_BOARD set (non-empty)
};

// Probes the real host; the env lookup comes from ctx.
HostEnvironment probe_host_environment(const Context& ctx);

// `platforms:` / `environments:` value → lower-cased, trimmed tags. Null,
// missing or empty → []; a scalar is one tag; a list gives one tag per item.
std::vector<std::string> gate_tags(const YamlNode* node);

// matches_environment against an already probed host.
bool matches_host_environment(const std::vector<std::string>& environments, const HostEnvironment& host);
bool matches_host_environment_tags(const ViewList& environments, const HostEnvironment& host);
// matches_platform (catalog.hpp) for a record's tags (not an overload: `{}` would be ambiguous).
bool matches_platform_tags(const ViewList& platforms, const std::string& os);

}  // namespace skillrt::core
