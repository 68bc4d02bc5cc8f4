// ed25519 detached signatures over a bundle's canonical manifest
// (bundle_manifest.hpp). Keys and signatures are text, so they fit in
// config.yaml and in review diffs:
//   public key   "ed25519:<base64 of 32 bytes>"
//   secret key   a file holding "ed25519-secret:<base64 of 64 bytes>\n", mode 0600
//   signature    the file k_signature_file_name at the bundle's top:
//                "skillrt-signature v1\nkey ed25519:<b64>\nsig <base64 of 64 bytes>\n"
// libsodium does the cryptography; its header stays in ed25519.cpp.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.hpp"
#include "core/guard/guard.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

struct KeyPair {
  std::string public_key;  // "ed25519:<b64>"
  std::string secret_key;  // "ed25519-secret:<b64>"
};

// A new random key pair.
Result<KeyPair> generate_key_pair();

// Writes `secret` to `secret_path` (0600, refuses to overwrite) and the public
// key to `secret_path` + ".pub" (0644).
Result<void> write_key_pair(const KeyPair& keys, const std::filesystem::path& secret_path);

// Signs the bundle at `bundle_dir` with the secret key stored in
// `secret_key_file`: builds the manifest (without an old signature file) and
// writes k_signature_file_name atomically. Returns the public key used.
Result<std::string> sign_bundle(const std::filesystem::path& bundle_dir, const std::filesystem::path& secret_key_file);

enum class SignatureStatus : unsigned char {
  unsigned_bundle,  // no signature file
  valid,            // signed by a trusted key, manifest matches
  untrusted_key,    // the signature checks out, but its key is not trusted
  invalid,          // malformed file, bad signature, or the bundle changed after signing
};
const char* signature_status_name(SignatureStatus status);  // "unsigned" | "valid" | "untrusted-key" | "invalid"
std::optional<SignatureStatus> parse_signature_status(std::string_view name); // the inverse; nullopt for other text

struct SignatureCheck {
  SignatureStatus status = SignatureStatus::unsigned_bundle;
  std::string key;      // the signer's public key, when the file names one
  std::string message;  // one clear sentence for reports
};

// Verifies the bundle at `bundle_dir` against `trusted_keys` (public keys as
// above). Fails (Result error) only when the bundle cannot be read at all.
Result<SignatureCheck> verify_bundle_signature(const std::filesystem::path& bundle_dir,
                                               const std::vector<std::string>& trusted_keys);

// Must an install (or audit) at `trust` carry a valid signature? True when
// `require_flag` (--require-signature) is set, or config's
// skills.require_signature lists the trust level's name or "all".
bool signature_required(const SkillsConfig& config, TrustLevel trust, bool require_flag);

// The policy every install and audit applies to a check (beyond Hermes):
// `invalid` is always refused (the bundle changed after signing, or the file is
// forged); when required, anything but `valid` is refused; otherwise
// `untrusted-key` and `unsigned` pass with a note. Ok, or ErrorCode::refused
// with the sentence to show.
Result<void> apply_signature_policy(const SignatureCheck& check, bool required);

}  // namespace skillrt::core::hub
