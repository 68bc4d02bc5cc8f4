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

}  // namespace skillrt::mcp
