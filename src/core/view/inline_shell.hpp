// Running one inline-shell snippet (`!`cmd``, spec §2.9 rule 3) under a timeout,
// with bounded output.
#pragma once

#include <filesystem>
#include <string>

namespace skillrt::core {

// Runs `bash -c command` in `cwd` in its own process group, stdin from /dev/null.
// Returns stdout with trailing newlines stripped (stderr when stdout is empty),
// cut to limits::k_inline_shell_max_output characters + "...[truncated]" (the
// process group is killed as soon as stdout passes the cap, so memory stays
// bounded). On timeout the whole group is killed and the result is
// "[inline-shell timeout after Ns: <cmd>]"; without bash it is
// "[inline-shell error: bash not found]"; other failures "[inline-shell error: <why>]".
// An empty command yields "". timeout_s below 1 counts as 1.
std::string run_inline_shell(const std::string& command, const std::filesystem::path& cwd, int timeout_s);

} // namespace skillrt::core
