// `skillrt sign DIR [--key PATH]`: signs a skill bundle (a skill folder) with
// an ed25519 secret key (default HOME/keys/skillrt-signing.key, made by
// `skillrt keygen`), writing DIR/.skillrt-signature over the bundle's canonical
// manifest (core/hub/signature.hpp, docs/signatures.md).
// `skillrt sign --check DIR`: verifies DIR against config.yaml's
// skills.trusted_keys and prints the status; exit 0 only when it is valid.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "command.hpp"
#include "core/hub/bundle_manifest.hpp"
#include "core/hub/signature.hpp"
#include "protocol/error_json.hpp"

namespace skillrt::app {
namespace {

namespace fs = std::filesystem;

// The same default as cmd_keygen.cpp.
fs::path default_signing_key_path(const fs::path& home) {
  return home / "keys" / "skillrt-signing.key";
}

class SignCommand final : public Command {
public:
  const char* name() const override { return "sign"; }
  const char* summary() const override {
    return "Sign a skill folder with an ed25519 key (--check: verify it against skills.trusted_keys)";
  }

  void configure(CLI::App& sub) override {
    sub.add_option("dir", m_dir, "Skill folder (bundle) to sign or check")->required();
    sub.add_option("--key", m_key, "Secret key file (default: HOME/keys/skillrt-signing.key, from `skillrt keygen`)");
    sub.add_flag("--check", m_check,
                 "Verify DIR's signature against skills.trusted_keys instead of signing; exit 0 only when valid");
  }

  Outcome run(const Invocation& inv) override {
    if (m_check) {
      if (!m_key.empty()) {
        return finish_usage(inv.json, "--key is for signing; --check verifies against skills.trusted_keys", "sign");
      }
      return check(inv);
    }
    return sign(inv);
  }

private:
  Outcome sign(const Invocation& inv) const {
    const bool default_key = m_key.empty();
    const fs::path key_path = default_key ? default_signing_key_path(inv.ctx.home) : fs::path(m_key);
    auto signer = core::hub::sign_bundle(m_dir, key_path);
    if (!signer) {
      Json failed = protocol::error_result_json(signer.error());
      if (signer.error().code == ErrorCode::not_found && default_key) {
        failed["hint"] = "create a key with `skillrt keygen`, or name one with --key PATH";
      }
      return finish_result(inv.json, failed, "");
    }
    // The manifest again, for the count and hash the user sees (cheap next to
    // signing, and it is what a verifier will compute).
    auto manifest = core::hub::build_bundle_manifest(m_dir);
    if (!manifest) {
      return finish_result(inv.json, protocol::error_result_json(manifest.error()), "");
    }
    const fs::path signature_path = fs::path(m_dir) / std::string(core::hub::k_signature_file_name);
    Json result = Json::object();
    result["success"] = true;
    result["bundle"] = m_dir;
    result["key"] = *signer;
    result["files"] = manifest->entries.size();
    result["content_hash"] = manifest->content_hash;
    result["signature_file"] = signature_path.string();
    const std::size_t files = manifest->entries.size();
    std::string text = "Signed " + m_dir + " with " + *signer + " (" + std::to_string(files) +
                       (files == 1 ? " file" : " files") + " covered).\n";
    text += "  signature:    " + signature_path.string() + "\n";
    text += "  content hash: " + manifest->content_hash + "\n";
    // Every install source drops a top-level .git (docs/sources.md), so a
    // signature that covers one can never verify on an installed copy.
    const bool covers_git =
        std::any_of(manifest->entries.begin(), manifest->entries.end(),
                    [](const core::hub::ManifestEntry& entry) { return entry.path.rfind(".git/", 0) == 0; });
    if (covers_git) {
      const std::string warning = "the signature covers " + (fs::path(m_dir) / ".git").string() +
                                  ", but installs leave .git out, so installed copies will not verify: sign a "
                                  "copy without .git (e.g. from `git archive`)";
      result["warnings"] = Json::array({warning});
      if (!inv.json) {
        std::cerr << "warning: " << warning << '\n';
      }
    }
    return finish_result(inv.json, result, text);
  }

  Outcome check(const Invocation& inv) const {
    auto checked = core::hub::verify_bundle_signature(m_dir, inv.config.skills.trusted_keys);
    if (!checked) {
      return finish_result(inv.json, protocol::error_result_json(checked.error()), "");
    }
    const bool valid = checked->status == core::hub::SignatureStatus::valid;
    const char* status = core::hub::signature_status_name(checked->status);
    Json result = Json::object();
    result["success"] = valid;
    if (!valid) {
      result["error"] = checked->message;
    }
    result["status"] = status;
    result["key"] = checked->key.empty() ? Json(nullptr) : Json(checked->key);
    result["message"] = checked->message;
    result["bundle"] = m_dir;
    if (inv.json) {
      print_json(result);
    } else {
      // The status goes to stdout whatever it is, so scripts and people read it in one place.
      std::cout << status << ": " << checked->message << '\n';
      if (checked->status == core::hub::SignatureStatus::untrusted_key) {
        std::cerr << "hint: to trust this key, add \"" << checked->key << "\" to skills.trusted_keys in "
                  << inv.config.path.string() << '\n';
      } else if (checked->status == core::hub::SignatureStatus::unsigned_bundle) {
        std::cerr << "hint: sign it with `skillrt sign " << m_dir << "`\n";
      }
    }
    return valid ? Outcome::ok : Outcome::failed;
  }

  std::string m_dir;
  std::string m_key;
  bool m_check = false;
};

} // namespace

std::unique_ptr<Command> make_sign_command() {
  return std::make_unique<SignCommand>();
}

} // namespace skillrt::app
