// `skillrt keygen [--out PATH]`: creates an ed25519 key pair for signing
// skill bundles (core/hub/signature.hpp). The secret key goes to PATH (default
// HOME/keys/skillrt-signing.key, mode 0600, never overwritten), the public key
// to PATH.pub. Prints the public key, where both files are, and the
// config.yaml lines that make skillrt trust bundles signed with it. The secret
// key itself is never printed.
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "command.hpp"
#include "core/hub/signature.hpp"
#include "protocol/error_json.hpp"

namespace skillrt::app {
namespace {

namespace fs = std::filesystem;

// Where `keygen` puts a key and `sign` looks for one when no path is given
// (the same rule lives in cmd_sign.cpp).
fs::path default_signing_key_path(const fs::path& home) {
  return home / "keys" / "skillrt-signing.key";
}

// Overwrites a secret before its memory is released; volatile so the stores
// are not optimised away as dead.
void forget(std::string& secret) {
  volatile char* bytes = secret.data();
  for (std::size_t i = 0; i < secret.size(); ++i) {
    bytes[i] = '\0';
  }
  secret.clear();
}

// mkdir with `mode` unless the folder is already there.
Result<void> ensure_private_folder(const fs::path& folder) {
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
    return fail(ErrorCode::io_error,
                "cannot create " + folder.string() + ": " + std::generic_category().message(errno));
  }
  return {};
}

std::string config_snippet(const std::string& public_key) {
  return "skills:\n  trusted_keys:\n    - \"" + public_key + "\"\n";
}

class KeygenCommand final : public Command {
public:
  const char* name() const override { return "keygen"; }
  const char* summary() const override { return "Create an ed25519 key pair for signing skill bundles"; }

  void configure(CLI::App& sub) override {
    sub.add_option("--out", m_out,
                   "Secret key file to create (default: HOME/keys/skillrt-signing.key); the public key goes to "
                   "PATH.pub. Existing files are never overwritten");
  }

  Outcome run(const Invocation& inv) override {
    fs::path secret_path;
    if (m_out.empty()) {
      secret_path = default_signing_key_path(inv.ctx.home);
      // HOME/keys is private like the key in it (the home itself may not exist yet).
      for (const fs::path& folder : {inv.ctx.home, secret_path.parent_path()}) {
        if (auto made = ensure_private_folder(folder); !made) {
          return finish_result(inv.json, protocol::error_result_json(made.error()), "");
        }
      }
    } else {
      std::error_code ec;
      secret_path = fs::absolute(m_out, ec);
      if (ec || m_out.back() == '/') {
        return finish_usage(inv.json, "--out must name a file, not a folder: " + m_out, "keygen");
      }
    }

    auto keys = core::hub::generate_key_pair();
    if (!keys) {
      return finish_result(inv.json, protocol::error_result_json(keys.error()), "");
    }
    auto written = core::hub::write_key_pair(*keys, secret_path);
    forget(keys->secret_key);
    if (!written) {
      Json failed = protocol::error_result_json(written.error());
      if (written.error().code == ErrorCode::refused) {
        failed["hint"] = "choose another file with --out PATH";
      }
      return finish_result(inv.json, failed, "");
    }

    const std::string public_path = secret_path.string() + ".pub";
    Json result = Json::object();
    result["success"] = true;
    result["public_key"] = keys->public_key;
    result["secret_key_file"] = secret_path.string();
    result["public_key_file"] = public_path;
    result["config_snippet"] = config_snippet(keys->public_key);

    std::string text = "Created an ed25519 signing key pair.\n";
    text += "  secret key: " + secret_path.string() + "  (mode 0600; keep it private, never commit it)\n";
    text += "  public key: " + public_path + "\n\n";
    text += keys->public_key + "\n\n";
    text += "Sign a skill folder with:  skillrt sign DIR" +
            (m_out.empty() ? std::string() : " --key " + secret_path.string()) + "\n";
    text += "To trust bundles signed with this key, add it to " + inv.config.path.string() + ":\n";
    std::string snippet = config_snippet(keys->public_key);
    for (std::size_t start = 0; start < snippet.size();) {
      const std::size_t end = snippet.find('\n', start);
      text += "  " + snippet.substr(start, end - start + 1);
      start = end + 1;
    }
    return finish_result(inv.json, result, text);
  }

private:
  std::string m_out;
};

} // namespace

std::unique_ptr<Command> make_keygen_command() {
  return std::make_unique<KeygenCommand>();
}

} // namespace skillrt::app
