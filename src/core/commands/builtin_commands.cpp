#include "core/commands/builtin_commands.hpp"

#include <algorithm>
#include <array>

namespace skillrt::core {
namespace {

// The commands an agent host built on skillrt reserves (sorted). A fixed list
// of our own, covering the session, model and skills controls every chat
// front end has, plus their short aliases.
constexpr std::array<std::string_view, 42> k_builtin{
    "approve", "background", "bg",      "clear",     "commands", "compress",    "config", "deny",      "exit",
    "h",       "help",       "history", "model",     "new",      "personality", "plan",   "platforms", "provider",
    "q",       "queue",      "quit",    "reasoning", "reload",   "reset",       "resume", "retry",     "rollback",
    "save",    "sessions",   "skill",   "skills",    "status",   "stop",        "title",  "tools",     "toolsets",
    "undo",    "usage",      "verbose", "version",   "voice",    "yolo"};

} // namespace

std::span<const std::string_view> builtin_commands() {
  return k_builtin;
}

bool is_builtin_command(std::string_view slug) {
  return std::binary_search(k_builtin.begin(), k_builtin.end(), slug);
}

} // namespace skillrt::core
