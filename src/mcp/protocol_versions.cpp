// The MCP protocol revisions skillrt speaks.
#include "mcp/server.hpp"

namespace skillrt::mcp {

const std::vector<std::string>& supported_protocol_versions() {
  // Newest first: initialize answers with the client's version when it is
  // listed, else with the newest. 2025-03-26 stays because clients still send
  // it in the MCP-Protocol-Version header (the conformance suite does).
  static const std::vector<std::string> k_versions{"2025-11-25", "2025-06-18", "2025-03-26"};
  return k_versions;
}

const std::vector<std::string>& all_protocol_versions() {
  static const std::vector<std::string> k_versions{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"};
  return k_versions;
}

bool is_stateless_protocol_version(std::string_view version) { return version == "2026-07-28"; }

}  // namespace skillrt::mcp
