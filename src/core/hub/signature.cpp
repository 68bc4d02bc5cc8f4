// Key files, `sign` and signature verification (signature.hpp). The text
// formats and what exactly is signed (a domain tag, then the bundle's
// canonical manifest) are in signature_format.cpp. Key and signature files are
// read with a size cap and never block (a fifo is refused), so a garbage or
// hostile file is a clear message, never a crash or a hang.
#include "core/hub/signature.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <optional>
#include <string_view>
#include <system_error>

#include "core/files/fsync_dir.hpp"
#include "core/files/unique_fd.hpp"
#include "core/hub/bundle_manifest.hpp"
#include "core/hub/ed25519.hpp"
#include "core/limits.hpp"
#include "core/hub/signature_format.hpp"
#include "core/files/atomic_file.hpp"
#include "core/util/text.hpp"

namespace skillrt::core::hub {

namespace {

namespace fs = std::filesystem;

// A file's bytes and mode, read with a cap. O_NONBLOCK: a fifo never blocks
// the open; it is refused as not a regular file.
struct SmallFile {
  std::string bytes;
  mode_t mode = 0;
};

enum class Links : unsigned char { follow, refuse };

Result<SmallFile> read_small_file(const fs::path& path, std::size_t cap, Links links, std::string_view what) {
  int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  if (links == Links::refuse) {
    flags |= O_NOFOLLOW;
  }
  const files::UniqueFd fd(::open(path.c_str(), flags));
  if (!fd) {
    const int err = errno;
    if (err == ENOENT) {
      return fail(ErrorCode::not_found, std::string(what) + " " + path.string() + " does not exist");
    }
    if (err == ELOOP && links == Links::refuse) {
      return fail(ErrorCode::refused, std::string(what) + " " + path.string() + " is a symlink");
    }
    return fail(ErrorCode::io_error, "cannot open " + std::string(what) + " " + path.string() + ": " + errno_text(err));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return fail(ErrorCode::io_error, "cannot stat " + path.string() + ": " + errno_text(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return fail(ErrorCode::invalid_argument, std::string(what) + " " + path.string() + " is not a regular file");
  }
  const auto too_big = [&] {
    return fail(ErrorCode::limit_exceeded, std::string(what) + " " + path.string() + " is larger than " +
                                               std::to_string(cap) + " bytes, so it cannot be one");
  };
  if (static_cast<std::uint64_t>(st.st_size) > cap) {
    return too_big();
  }
  SmallFile file;
  file.mode = st.st_mode;
  std::array<char, 1024> buffer{};
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      const int err = errno;
      ed25519::wipe(file.bytes);
      return fail(ErrorCode::io_error, "cannot read " + path.string() + ": " + errno_text(err));
    }
    if (n == 0) {
      break;
    }
    if (file.bytes.size() + static_cast<std::size_t>(n) > cap) {
      ed25519::wipe(file.bytes);
      std::fill(buffer.begin(), buffer.end(), '\0');
      return too_big();
    }
    file.bytes.append(buffer.data(), static_cast<std::size_t>(n));
  }
  // The buffer may hold part of a secret key.
  std::fill(buffer.begin(), buffer.end(), '\0');
  return file;
}

// Reads and parses a secret key file; refuses one other users could read.
Result<std::string> read_secret_key_file(const fs::path& path) {
  auto file = read_small_file(path, limits::k_max_key_file_bytes, Links::follow, "secret key file");
  if (!file) {
    return tl::unexpected(file.error());
  }
  if ((file->mode & 077) != 0) {
    ed25519::wipe(file->bytes);
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%04o", static_cast<unsigned>(file->mode & 07777));
    return fail(ErrorCode::refused, "permissions " + std::string(mode) + " for secret key file " + path.string() +
                                        " are too open: other users could read it. Run: chmod 600 " + path.string());
  }
  auto raw = parse_secret_key(without_final_newline(file->bytes));
  ed25519::wipe(file->bytes);
  if (!raw) {
    return fail(ErrorCode::invalid_argument,
                path.string() + " is not a skillrt secret key file: " + raw.error().message);
  }
  return raw;
}

// Creates `path` (refusing to replace anything) with `mode` and `content`, durably.
Result<void> create_exclusive(const fs::path& path, std::string_view content, mode_t mode) {
  files::UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
  if (!fd) {
    const int err = errno;
    if (err == EEXIST) {
      return fail(ErrorCode::refused, path.string() + " already exists; refusing to overwrite a key (choose another "
                                                      "path, or move the old key away first)");
    }
    if (err == ENOENT) {
      return fail(ErrorCode::not_found, "the folder of " + path.string() + " does not exist");
    }
    return fail(ErrorCode::io_error, "cannot create " + path.string() + ": " + errno_text(err));
  }
  std::string problem;
  // The umask may have removed bits from `mode`, never added any; set it exactly.
  if (::fchmod(fd.get(), mode) != 0) {
    problem = "cannot set permissions on " + path.string() + ": " + errno_text(errno);
  }
  while (problem.empty() && !content.empty()) {
    const ssize_t n = ::write(fd.get(), content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      problem = "cannot write " + path.string() + ": " + errno_text(errno);
      break;
    }
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  if (problem.empty() && ::fsync(fd.get()) != 0) {
    problem = "cannot fsync " + path.string() + ": " + errno_text(errno);
  }
  if (fd.close() != 0 && problem.empty()) {
    problem = "cannot close " + path.string() + ": " + errno_text(errno);
  }
  if (!problem.empty()) {
    ::unlink(path.c_str());
    return fail(ErrorCode::io_error, problem);
  }
  return {};
}

} // namespace

const char* signature_status_name(SignatureStatus status) {
  switch (status) {
  case SignatureStatus::unsigned_bundle:
    return "unsigned";
  case SignatureStatus::valid:
    return "valid";
  case SignatureStatus::untrusted_key:
    return "untrusted-key";
  case SignatureStatus::invalid:
    return "invalid";
  }
  return "invalid";
}

std::optional<SignatureStatus> parse_signature_status(std::string_view name) {
  for (const SignatureStatus status : {SignatureStatus::unsigned_bundle, SignatureStatus::valid,
                                       SignatureStatus::untrusted_key, SignatureStatus::invalid}) {
    if (name == signature_status_name(status)) {
      return status;
    }
  }
  return std::nullopt;
}

Result<KeyPair> generate_key_pair() {
  auto raw = ed25519::generate();
  if (!raw) {
    return tl::unexpected(raw.error());
  }
  KeyPair keys;
  keys.public_key = public_key_text(raw->public_key);
  keys.secret_key = secret_key_text(raw->secret_key);
  ed25519::wipe(raw->secret_key);
  return keys;
}

Result<void> write_key_pair(const KeyPair& keys, const fs::path& secret_path) {
  auto public_raw = parse_public_key(keys.public_key);
  if (!public_raw) {
    return tl::unexpected(public_raw.error());
  }
  auto secret_raw = parse_secret_key(keys.secret_key);
  if (!secret_raw) {
    return tl::unexpected(secret_raw.error());
  }
  const std::optional<std::string> derived = ed25519::public_key_of(*secret_raw);
  ed25519::wipe(*secret_raw);
  if (!derived || *derived != *public_raw) {
    return fail(ErrorCode::invalid_argument, "the public key does not belong to the secret key");
  }

  const fs::path public_path = secret_path.string() + ".pub";
  // Checked first so a refusal leaves nothing behind; O_EXCL below still
  // guarantees neither file is ever overwritten.
  for (const fs::path& path : {secret_path, public_path}) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
      return fail(ErrorCode::refused, path.string() + " already exists; refusing to overwrite a key (choose "
                                                      "another path, or move the old key away first)");
    }
  }
  std::string secret_text = keys.secret_key + "\n";
  auto secret_written = create_exclusive(secret_path, secret_text, 0600);
  ed25519::wipe(secret_text);
  if (!secret_written) {
    return secret_written;
  }
  if (auto public_written = create_exclusive(public_path, keys.public_key + "\n", 0644); !public_written) {
    ::unlink(secret_path.c_str()); // ours: created just above
    return public_written;
  }
  (void)files::fsync_dir(secret_path.parent_path());
  return {};
}

Result<std::string> sign_bundle(const fs::path& bundle_dir, const fs::path& secret_key_file) {
  auto secret = read_secret_key_file(secret_key_file);
  if (!secret) {
    return tl::unexpected(secret.error());
  }
  // A struct whose destructor wipes, so every return path below forgets the key.
  struct Wiper {
    std::string& secret;
    ~Wiper() { ed25519::wipe(secret); }
  } wiper{*secret};

  const std::optional<std::string> public_raw = ed25519::public_key_of(*secret);
  if (!public_raw) {
    return fail(ErrorCode::invalid_argument, "the secret key in " + secret_key_file.string() + " is corrupt");
  }
  // The manifest leaves an old signature file out and refuses one that is not
  // a regular file (a link there would make the write below land elsewhere).
  auto manifest = build_bundle_manifest(bundle_dir);
  if (!manifest) {
    return tl::unexpected(manifest.error());
  }
  const std::string message = signed_message(manifest->text);
  auto signature = ed25519::sign(message, *secret);
  if (!signature) {
    return tl::unexpected(signature.error());
  }
  if (!ed25519::verify(message, *signature, *public_raw)) {
    return fail(ErrorCode::internal, "the new signature does not verify (corrupt key?)");
  }
  const std::string key_text = public_key_text(*public_raw);
  const fs::path signature_path = bundle_dir / std::string(k_signature_file_name);
  if (auto written = write_file_atomic(signature_path, signature_file_text(key_text, *signature)); !written) {
    return tl::unexpected(written.error());
  }
  // A new file is created 0600; the signature is public and travels with the
  // bundle, so make it readable like the files it covers.
  if (const files::UniqueFd fd(::open(signature_path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)); fd) {
    ::fchmod(fd.get(), 0644);
  }
  return key_text;
}

Result<SignatureCheck> verify_bundle_signature(const fs::path& bundle_dir,
                                               const std::vector<std::string>& trusted_keys) {
  struct stat st {};
  if (::stat(bundle_dir.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) {
      return fail(ErrorCode::not_found, "bundle folder " + bundle_dir.string() + " does not exist");
    }
    return fail(ErrorCode::io_error, "cannot stat bundle folder " + bundle_dir.string() + ": " + errno_text(err));
  }
  if (!S_ISDIR(st.st_mode)) {
    return fail(ErrorCode::invalid_argument, bundle_dir.string() + " is not a folder");
  }

  SignatureCheck check;
  const auto invalid = [&check](std::string message) {
    check.status = SignatureStatus::invalid;
    check.message = std::move(message);
    return check;
  };

  const fs::path signature_path = bundle_dir / std::string(k_signature_file_name);
  auto file = read_small_file(signature_path, limits::k_max_signature_file_bytes, Links::refuse, "signature file");
  if (!file) {
    if (file.error().code == ErrorCode::not_found) {
      check.status = SignatureStatus::unsigned_bundle;
      check.message = "the bundle is not signed (no " + std::string(k_signature_file_name) + " file)";
      return check;
    }
    if (file.error().code == ErrorCode::io_error) {
      return tl::unexpected(file.error());
    }
    return invalid(file.error().message);
  }
  auto parsed = parse_signature_file(file->bytes, check.key);
  if (!parsed) {
    return invalid(parsed.error().message);
  }

  auto manifest = build_bundle_manifest(bundle_dir);
  if (!manifest) {
    const ErrorCode code = manifest.error().code;
    if (code == ErrorCode::not_found || code == ErrorCode::io_error) {
      return tl::unexpected(manifest.error());
    }
    // A symlink, a device, a limit: no canonical manifest, nothing to verify.
    return invalid("the bundle cannot be verified: " + manifest.error().message);
  }
  if (!ed25519::verify(signed_message(manifest->text), parsed->signature, parsed->public_key)) {
    return invalid("the signature by " + parsed->key_text +
                   " does not match the bundle: a file was added, removed or changed after signing, or the "
                   "signature is forged");
  }

  const bool trusted = std::any_of(trusted_keys.begin(), trusted_keys.end(), [&](const std::string& entry) {
    // Entries that are not keys cannot match; they are ignored, not fatal.
    auto raw = parse_public_key(entry);
    return raw && *raw == parsed->public_key;
  });
  if (trusted) {
    check.status = SignatureStatus::valid;
    check.message = "signed by trusted key " + parsed->key_text;
  } else {
    check.status = SignatureStatus::untrusted_key;
    check.message = "the signature checks out, but its key " + parsed->key_text + " is not in skills.trusted_keys";
  }
  return check;
}

} // namespace skillrt::core::hub
