// Flows inside one script (issue 19 item 3): a value read from a credentials
// file, a secret environment variable, the whole environment, or the agent's
// memory or shell history, followed through assignments and simple transforms
// to a network send or a network command in the same file. Line patterns see
// one line; this pass sees `p = Path.home() / ".ssh" / "id_rsa"` on line 3,
// `key = p.read_text()` on line 4 and `requests.post(url, data=key)` on line 9
// as one exfiltration, and reports it on line 9 with line 3 as its source.
//
// It is a light pass, not a parser: statements are split per language with
// comments removed and string literals tracked (so a comment or a docstring
// naming ~/.ssh is not a source), names are tracked without scopes, and work
// is linear in the file's size with bounded state. script_flow.cpp documents
// the sources, sinks, propagation and what is deliberately not a leak.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "core/guard/guard.hpp"

namespace skillrt::core {

// The finding ids of this pass (category exfiltration).
inline constexpr std::string_view k_secret_file_flow_id = "secret_file_flow";   // critical
inline constexpr std::string_view k_agent_memory_flow_id = "agent_memory_flow"; // critical
inline constexpr std::string_view k_env_secret_flow_id = "env_secret_flow";     // high

// Appends one finding per sink line that a source reaches in `text` (a file's
// content without its BOM) at `rel_path`: Python (.py .pyw), JavaScript and
// TypeScript (.js .mjs .cjs .ts .tsx .jsx .mts .cts), shell (.sh .bash .zsh
// .ksh, with the code it hands to `python -c`, `node -e` or a here-document),
// an extension-less file by its shebang, and the fenced blocks of those
// languages in Markdown (.md .markdown .mdx), each block on its own. At most
// 1000 findings per file. `out[line_findings_from..]`
// are this file's line-pattern findings: a flow whose source and sink are on one
// line that an exfiltration or execution pattern already reports at the same or
// a higher severity is left out (the line finding says it all).
void find_script_flows(std::string_view rel_path, std::string_view text, std::vector<GuardFinding>& out,
                       std::size_t line_findings_from);

} // namespace skillrt::core
