// Slash commands the host itself owns; a skill whose slug equals one of them
// is not registered as a command (spec §2.15 rule 2) but stays loadable with
// `/skill <name>`.
#pragma once

#include <span>
#include <string_view>

namespace skillrt::core {

// Built-in command names and aliases, without the leading '/', sorted.
std::span<const std::string_view> builtin_commands();

// True when `slug` is a built-in command or alias.
bool is_builtin_command(std::string_view slug);

} // namespace skillrt::core
