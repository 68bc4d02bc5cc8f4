// When a signature is required and what a signature check lets through
// (signature.hpp: signature_required, apply_signature_policy). This is beyond
// Hermes, which verifies no signatures; the rules are ours (docs/signatures.md).
#include <algorithm>
#include <string>
#include <string_view>

#include "core/hub/signature.hpp"

namespace skillrt::core::hub {

namespace {

// Config entries are matched forgivingly (ASCII case, '_' for '-'), because
// a near-miss spelling of a level in skills.require_signature should require
// more, not silently require nothing.
std::string normalised_level(std::string_view entry) {
  std::string out;
  out.reserve(entry.size());
  for (const char c : entry) {
    if (c == '_') {
      out += '-';
    } else if (c >= 'A' && c <= 'Z') {
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

} // namespace

bool signature_required(const SkillsConfig& config, TrustLevel trust, bool require_flag) {
  if (require_flag) {
    return true;
  }
  const std::string level = trust_level_name(trust);
  // Unknown names are ignored: they match no level.
  return std::any_of(config.require_signature.begin(), config.require_signature.end(), [&](const std::string& entry) {
    const std::string name = normalised_level(entry);
    return name == "all" || name == level;
  });
}

Result<void> apply_signature_policy(const SignatureCheck& check, bool required) {
  if (check.status == SignatureStatus::invalid) {
    // Never overridable: the bundle changed after signing, or the file is forged.
    return fail(ErrorCode::refused, "signature check failed: " + check.message);
  }
  if (required && check.status != SignatureStatus::valid) {
    return fail(ErrorCode::refused, "a valid signature by a key in skills.trusted_keys is required "
                                    "(--require-signature or skills.require_signature), but " +
                                        check.message);
  }
  return {};
}

} // namespace skillrt::core::hub
