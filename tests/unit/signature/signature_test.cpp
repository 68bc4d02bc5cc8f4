// Keys, sign and verify on real temp trees: key and signature formats, key
// file permissions and O_EXCL, every change after signing caught, a tampered
// or garbage signature file reported as invalid (never a crash), trust.
#include "core/hub/signature.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/hub/bundle_manifest.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core::hub {
namespace {

namespace fs = std::filesystem;
using test::TempTree;

const std::string k_sig = std::string(k_signature_file_name);

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void spit(const fs::path& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
}

mode_t mode_of(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

// A key pair written under `tree`/keys/NAME.key.
struct KeyFiles {
  KeyPair keys;
  fs::path secret_path;
};

KeyFiles make_key(const TempTree& tree, const std::string& name = "signing") {
  auto keys = generate_key_pair();
  EXPECT_TRUE(keys.has_value());
  tree.mkdir("keys");
  KeyFiles files{*keys, tree.path() / "keys" / (name + ".key")};
  auto written = write_key_pair(files.keys, files.secret_path);
  EXPECT_TRUE(written.has_value()) << (written ? "" : written.error().message);
  return files;
}

void make_bundle(const TempTree& tree, const std::string& dir = "bundle") {
  tree.write(dir + "/SKILL.md", "---\nname: demo\ndescription: A demo skill.\n---\n\n# Demo\n");
  tree.write(dir + "/references/api.md", "API notes\n");
  tree.write(dir + "/scripts/run.sh", "#!/bin/sh\necho hi\n");
  tree.write(dir + "/.hidden", "");
}

SignatureCheck verify_ok(const fs::path& bundle, const std::vector<std::string>& trusted) {
  auto check = verify_bundle_signature(bundle, trusted);
  EXPECT_TRUE(check.has_value()) << (check ? "" : check.error().message);
  return check ? *check : SignatureCheck{};
}

// ---- keys ----

TEST(Keygen, TextFormats) {
  auto keys = generate_key_pair();
  ASSERT_TRUE(keys);
  EXPECT_TRUE(std::regex_match(keys->public_key, std::regex("ed25519:[A-Za-z0-9+/]{43}="))) << keys->public_key;
  EXPECT_TRUE(std::regex_match(keys->secret_key, std::regex("ed25519-secret:[A-Za-z0-9+/]{86}==")));
  auto again = generate_key_pair();
  ASSERT_TRUE(again);
  EXPECT_NE(again->public_key, keys->public_key);
  EXPECT_NE(again->secret_key, keys->secret_key);
}

TEST(Keygen, WritesSecret0600AndPublic0644BesideIt) {
  TempTree tree;
  const KeyFiles key = make_key(tree);
  EXPECT_EQ(slurp(key.secret_path), key.keys.secret_key + "\n");
  EXPECT_EQ(mode_of(key.secret_path), 0600u);
  const fs::path public_path = key.secret_path.string() + ".pub";
  EXPECT_EQ(slurp(public_path), key.keys.public_key + "\n");
  EXPECT_EQ(mode_of(public_path), 0644u);
}

TEST(Keygen, NeverOverwritesAKey) {
  TempTree tree;
  const KeyFiles key = make_key(tree);
  auto other = generate_key_pair();
  ASSERT_TRUE(other);
  auto again = write_key_pair(*other, key.secret_path);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::refused);
  EXPECT_NE(again.error().message.find(key.secret_path.string() + " already exists"), std::string::npos)
      << again.error().message;
  EXPECT_EQ(slurp(key.secret_path), key.keys.secret_key + "\n") << "the old secret key is untouched";
  EXPECT_EQ(slurp(key.secret_path.string() + ".pub"), key.keys.public_key + "\n");

  // Only the .pub exists: refused before anything is created.
  const fs::path lonely = tree.path() / "keys" / "lonely.key";
  spit(lonely.string() + ".pub", "keep me\n");
  ASSERT_FALSE(write_key_pair(*other, lonely));
  EXPECT_FALSE(fs::exists(lonely));
  EXPECT_EQ(slurp(lonely.string() + ".pub"), "keep me\n");

  // A symlink at the secret path is not followed (O_EXCL | O_NOFOLLOW).
  const fs::path target = tree.path() / "target";
  tree.symlink(target, "keys/linked.key");
  ASSERT_FALSE(write_key_pair(*other, tree.path() / "keys" / "linked.key"));
  EXPECT_FALSE(fs::exists(target));
}

TEST(Keygen, RefusesMalformedOrMismatchedPairs) {
  TempTree tree;
  auto a = generate_key_pair();
  auto b = generate_key_pair();
  ASSERT_TRUE(a && b);
  const fs::path path = tree.path() / "k.key";
  EXPECT_FALSE(write_key_pair(KeyPair{b->public_key, a->secret_key}, path));
  EXPECT_FALSE(write_key_pair(KeyPair{"ed25519:short", a->secret_key}, path));
  EXPECT_FALSE(write_key_pair(KeyPair{a->public_key, "ed25519-secret:" + a->public_key}, path));
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path.string() + ".pub"));
  EXPECT_FALSE(write_key_pair(*a, tree.path() / "no-such-folder" / "k.key"));
}

// ---- sign and verify ----

TEST(SignBundle, SignsAndVerifiesWithATrustedKey) {
  TempTree tree;
  const KeyFiles key = make_key(tree);
  make_bundle(tree);
  const fs::path bundle = tree.path() / "bundle";
  const std::string before = build_bundle_manifest(bundle)->content_hash;

  auto signer = sign_bundle(bundle, key.secret_path);
  ASSERT_TRUE(signer) << signer.error().message;
  EXPECT_EQ(*signer, key.keys.public_key);

  const std::string text = slurp(bundle / k_sig);
  EXPECT_TRUE(std::regex_match(text, std::regex("skillrt-signature v1\nkey ed25519:[A-Za-z0-9+/]{43}=\nsig "
                                                "[A-Za-z0-9+/]{86}==\n")))
      << text;
  EXPECT_EQ(text.substr(21, 4 + key.keys.public_key.size()), "key " + key.keys.public_key);
  EXPECT_EQ(mode_of(bundle / k_sig), 0644u);
  EXPECT_EQ(build_bundle_manifest(bundle)->content_hash, before) << "the signature file is not covered";

  const SignatureCheck check = verify_ok(bundle, {key.keys.public_key});
  EXPECT_EQ(check.status, SignatureStatus::valid) << check.message;
  EXPECT_EQ(check.key, key.keys.public_key);
  EXPECT_NE(check.message.find(key.keys.public_key), std::string::npos);
}

TEST(SignBundle, ResigningReplacesTheSignature) {
  TempTree tree;
  const KeyFiles first = make_key(tree, "first");
  const KeyFiles second = make_key(tree, "second");
  make_bundle(tree);
  const fs::path bundle = tree.path() / "bundle";
  ASSERT_TRUE(sign_bundle(bundle, first.secret_path));
  tree.write("bundle/new.md", "added");
  EXPECT_EQ(verify_ok(bundle, {first.keys.public_key}).status, SignatureStatus::invalid);
  ASSERT_TRUE(sign_bundle(bundle, second.secret_path));
  EXPECT_EQ(verify_ok(bundle, {first.keys.public_key, second.keys.public_key}).status, SignatureStatus::valid);
  EXPECT_EQ(verify_ok(bundle, {second.keys.public_key}).key, second.keys.public_key);
}

TEST(VerifyBundle, UnsignedBundle) {
  TempTree tree;
  make_bundle(tree);
  const SignatureCheck check = verify_ok(tree.path() / "bundle", {});
  EXPECT_EQ(check.status, SignatureStatus::unsigned_bundle);
  EXPECT_EQ(check.key, "");
  EXPECT_NE(check.message.find("not signed"), std::string::npos);
}

TEST(VerifyBundle, UntrustedKey) {
  TempTree tree;
  const KeyFiles key = make_key(tree, "signer");
  const KeyFiles other = make_key(tree, "other");
  make_bundle(tree);
  const fs::path bundle = tree.path() / "bundle";
  ASSERT_TRUE(sign_bundle(bundle, key.secret_path));
  for (const std::vector<std::string>& trusted :
       {std::vector<std::string>{}, std::vector<std::string>{other.keys.public_key}}) {
    const SignatureCheck check = verify_ok(bundle, trusted);
    EXPECT_EQ(check.status, SignatureStatus::untrusted_key);
    EXPECT_EQ(check.key, key.keys.public_key);
    EXPECT_NE(check.message.find("skills.trusted_keys"), std::string::npos);
  }
}

TEST(VerifyBundle, JunkEntriesInTrustedKeysAreIgnored) {
  TempTree tree;
  const KeyFiles key = make_key(tree);
  make_bundle(tree);
  const fs::path bundle = tree.path() / "bundle";
  ASSERT_TRUE(sign_bundle(bundle, key.secret_path));
  const std::string& pk = key.keys.public_key;
  const std::vector<std::string> junk = {"",
                                         "junk",
                                         "ed25519:",
                                         "ed25519:!!!!",
                                         pk + " ",
                                         " " + pk,
                                         pk + "\n",
                                         "ED25519:" + pk.substr(8),
                                         pk.substr(0, pk.size() - 1),
                                         key.keys.secret_key,
                                         "ed25519:" + std::string(10000, 'A')};
  EXPECT_EQ(verify_ok(bundle, junk).status, SignatureStatus::untrusted_key) << "junk never matches";
  std::vector<std::string> with_key = junk;
  with_key.insert(with_key.begin() + 3, pk);
  EXPECT_EQ(verify_ok(bundle, with_key).status, SignatureStatus::valid);
}

TEST(VerifyBundle, MissingBundleIsAnError) {
  TempTree tree;
  auto check = verify_bundle_signature(tree.path() / "nope", {});
  ASSERT_FALSE(check);
  EXPECT_EQ(check.error().code, ErrorCode::not_found);
  tree.write("file", "x");
  EXPECT_FALSE(verify_bundle_signature(tree.path() / "file", {}));
}

// ---- any change after signing is caught ----

struct Change {
  const char* name;
  void (*apply)(const TempTree& tree);
};

const Change k_changes[] = {
    {"add a file", [](const TempTree& t) { t.write("bundle/extra.md", "extra"); }},
    {"add an empty file", [](const TempTree& t) { t.write("bundle/empty", ""); }},
    {"add a dot file", [](const TempTree& t) { t.write("bundle/.env", "SECRET=1"); }},
    {"add a nested file", [](const TempTree& t) { t.write("bundle/references/deep/more.md", "x"); }},
    {"add a nested signature file", [](const TempTree& t) { t.write("bundle/scripts/.skillrt-signature", "x"); }},
    {"remove a file", [](const TempTree& t) { fs::remove(t.path() / "bundle/scripts/run.sh"); }},
    {"remove an empty dot file", [](const TempTree& t) { fs::remove(t.path() / "bundle/.hidden"); }},
    {"change a byte, same size", [](const TempTree& t) { t.write("bundle/references/api.md", "API notez\n"); }},
    {"append a byte", [](const TempTree& t) { t.write("bundle/SKILL.md", slurp(t.path() / "bundle/SKILL.md") + " "); }},
    {"truncate a file", [](const TempTree& t) { t.write("bundle/scripts/run.sh", ""); }},
    {"fill an empty file", [](const TempTree& t) { t.write("bundle/.hidden", "now with content"); }},
    {"rename a file",
     [](const TempTree& t) { fs::rename(t.path() / "bundle/references/api.md", t.path() / "bundle/references/b.md"); }},
    {"move a file to another folder",
     [](const TempTree& t) { fs::rename(t.path() / "bundle/scripts/run.sh", t.path() / "bundle/references/run.sh"); }},
    {"rename a folder", [](const TempTree& t) { fs::rename(t.path() / "bundle/scripts", t.path() / "bundle/bin"); }},
    {"swap two files' contents",
     [](const TempTree& t) {
       const std::string a = slurp(t.path() / "bundle/references/api.md");
       const std::string b = slurp(t.path() / "bundle/scripts/run.sh");
       t.write("bundle/references/api.md", b);
       t.write("bundle/scripts/run.sh", a);
     }},
};

TEST(VerifyBundle, AnyChangeAfterSigningIsInvalid) {
  for (const Change& change : k_changes) {
    TempTree tree;
    const KeyFiles key = make_key(tree);
    make_bundle(tree);
    const fs::path bundle = tree.path() / "bundle";
    ASSERT_TRUE(sign_bundle(bundle, key.secret_path));
    ASSERT_EQ(verify_ok(bundle, {key.keys.public_key}).status, SignatureStatus::valid);
    change.apply(tree);
    const SignatureCheck check = verify_ok(bundle, {key.keys.public_key});
    EXPECT_EQ(check.status, SignatureStatus::invalid) << change.name;
    EXPECT_EQ(check.key, key.keys.public_key) << change.name;
    EXPECT_NE(check.message.find("after signing"), std::string::npos) << change.name << ": " << check.message;
    EXPECT_FALSE(apply_signature_policy(check, false)) << change.name << ": invalid is refused even when not required";
  }
}

TEST(VerifyBundle, ALinkOrFifoAddedAfterSigningIsInvalidNotAnError) {
  TempTree tree;
  const KeyFiles key = make_key(tree);
  make_bundle(tree);
  const fs::path bundle = tree.path() / "bundle";
  ASSERT_TRUE(sign_bundle(bundle, key.secret_path));
  tree.symlink("/etc/passwd", "bundle/references/passwd");
  const SignatureCheck check = verify_ok(bundle, {key.keys.public_key});
  EXPECT_EQ(check.status, SignatureStatus::invalid);
  EXPECT_NE(check.message.find("symlinks"), std::string::npos) << check.message;
  fs::remove(bundle / "references/passwd");
  ASSERT_EQ(::mkfifo((bundle / "pipe").c_str(), 0600), 0);
  EXPECT_EQ(verify_ok(bundle, {key.keys.public_key}).status, SignatureStatus::invalid);
}

TEST(VerifyBundle, AnEmptyFolderAddedAfterSigningIsNotAChange) {
  // Folders are implied by their files (docs/signatures.md).
  TempTree tree;
  const KeyFiles key = make_key(tree);
  make_bundle(tree);
  const fs::path bundle = tree.path() / "bundle";
  ASSERT_TRUE(sign_bundle(bundle, key.secret_path));
  tree.mkdir("bundle/empty-folder");
  EXPECT_EQ(verify_ok(bundle, {key.keys.public_key}).status, SignatureStatus::valid);
}

TEST(VerifyBundle, ASignatureCopiedFromAnotherBundleIsInvalid) {
  TempTree tree;
  const KeyFiles key = make_key(tree);
  make_bundle(tree, "one");
  make_bundle(tree, "two");
  tree.write("two/SKILL.md", "different");
  ASSERT_TRUE(sign_bundle(tree.path() / "one", key.secret_path));
  fs::copy_file(tree.path() / "one" / k_sig, tree.path() / "two" / k_sig);
  EXPECT_EQ(verify_ok(tree.path() / "two", {key.keys.public_key}).status, SignatureStatus::invalid);
}

// ---- the signature file itself tampered ----

class TamperedSignatureFile : public ::testing::Test {
protected:
  void SetUp() override {
    m_key = make_key(m_tree);
    make_bundle(m_tree);
    ASSERT_TRUE(sign_bundle(bundle(), m_key.secret_path));
    m_original = slurp(bundle() / k_sig);
  }
  fs::path bundle() const { return m_tree.path() / "bundle"; }
  SignatureCheck check_with(std::string_view content) {
    spit(bundle() / k_sig, content);
    return verify_ok(bundle(), {m_key.keys.public_key});
  }

  TempTree m_tree;
  KeyFiles m_key;
  std::string m_original;
};

TEST_F(TamperedSignatureFile, OriginalIsValidAndTheFinalNewlineIsOptional) {
  EXPECT_EQ(check_with(m_original).status, SignatureStatus::valid);
  EXPECT_EQ(check_with(m_original.substr(0, m_original.size() - 1)).status, SignatureStatus::valid);
}

TEST_F(TamperedSignatureFile, EveryBase64CharacterFlippedIsInvalid) {
  const std::size_t sig_start = m_original.rfind("sig ") + 4;
  const std::size_t key_start = m_original.find("key ed25519:") + 12;
  for (std::size_t at = 0; at < m_original.size(); ++at) {
    const bool in_sig = at >= sig_start && at < m_original.size() - 1;
    const bool in_key = at >= key_start && at < key_start + 44;
    if (!in_sig && !in_key) {
      continue;
    }
    std::string tampered = m_original;
    tampered[at] = tampered[at] == 'A' ? 'B' : 'A';
    const SignatureCheck check = check_with(tampered);
    EXPECT_EQ(check.status, SignatureStatus::invalid) << "flipped byte " << at << ": " << check.message;
  }
}

TEST_F(TamperedSignatureFile, MalformedFilesAreInvalidWithAReason) {
  const std::string& o = m_original;
  const std::size_t sig_line = o.rfind("sig ");
  const std::string header_and_key = o.substr(0, sig_line);
  const std::string sig_b64 = o.substr(sig_line + 4, 88);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "empty"},
      {"\n", "first line"},
      {"garbage", "first line"},
      {std::string(300, '\0'), "first line"},
      {"skillrt-signature v2" + o.substr(20), "first line"},
      {"Skillrt-signature v1" + o.substr(20), "first line"},
      {o + "\n", "lines"}, // two trailing newlines
      {o + "extra\n", "more than three lines"},
      {"skillrt-signature v1\n", "three lines"},
      {header_and_key, "three lines"},                            // sig line missing
      {header_and_key + "sig \n", "88"},                          // empty signature
      {header_and_key + "sig " + sig_b64.substr(1) + "\n", "88"}, // one character short
      {header_and_key + "sig " + sig_b64 + "A\n", "88"},          // one character long
      {header_and_key + "sig  " + sig_b64.substr(1) + "\n", "base64"},
      {header_and_key + "signature " + sig_b64 + "\n", "third line"},
      {header_and_key + "SIG " + sig_b64 + "\n", "third line"},
      {header_and_key + "sig " + sig_b64.substr(0, 86) + "=\n=", "more than three lines"},
      {header_and_key + "sig " + sig_b64.substr(0, 84) + "-_==\n", "base64"}, // URL-safe alphabet
      {"skillrt-signature v1\nkey " + m_key.keys.public_key.substr(8) + "\nsig " + sig_b64 + "\n", "key line"},
      {"skillrt-signature v1\nkey ed25519:" + std::string(43, 'A') + "\nsig " + sig_b64 + "\n", "44"},
      {"skillrt-signature v1\nkey  " + m_key.keys.public_key + "\nsig " + sig_b64 + "\n", "key line"},
      {"skillrt-signature v1\r\nkey " + m_key.keys.public_key + "\r\nsig " + sig_b64 + "\r\n", "first line"},
      {"skillrt-signature v1\nsig " + sig_b64 + "\nkey " + m_key.keys.public_key + "\n", "second line"},
  };
  for (const auto& [content, reason] : cases) {
    const SignatureCheck check = check_with(content);
    EXPECT_EQ(check.status, SignatureStatus::invalid) << "case: " << content;
    EXPECT_NE(check.message.find(reason), std::string::npos) << "case: [" << content << "] → " << check.message;
  }
}

TEST_F(TamperedSignatureFile, HugeFileIsInvalidWithoutReadingItAll) {
  const SignatureCheck check = check_with(m_original + std::string(8 * 1024 * 1024, 'A'));
  EXPECT_EQ(check.status, SignatureStatus::invalid);
  EXPECT_NE(check.message.find("larger than"), std::string::npos) << check.message;
}

TEST_F(TamperedSignatureFile, RandomGarbageNeverCrashesNorVerifies) {
  std::mt19937 random(12345);
  for (int round = 0; round < 400; ++round) {
    std::string mutated = m_original;
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = random() % (mutated.size() + 1);
      switch (random() % 3) {
      case 0:
        if (at < mutated.size()) {
          mutated[at] = static_cast<char>(random() & 0xff);
        }
        break;
      case 1:
        mutated.insert(at, 1, static_cast<char>(random() & 0xff));
        break;
      default:
        if (at < mutated.size()) {
          mutated.erase(at, 1);
        }
        break;
      }
    }
    if (mutated == m_original || mutated + "\n" == m_original) {
      continue;
    }
    EXPECT_EQ(check_with(mutated).status, SignatureStatus::invalid) << "round " << round;
  }
}

TEST_F(TamperedSignatureFile, NotARegularFileIsInvalid) {
  fs::remove(bundle() / k_sig);
  m_tree.mkdir("bundle/" + k_sig);
  EXPECT_EQ(verify_ok(bundle(), {m_key.keys.public_key}).status, SignatureStatus::invalid);
  fs::remove(bundle() / k_sig);
  m_tree.symlink("SKILL.md", "bundle/" + k_sig);
  const SignatureCheck linked = verify_ok(bundle(), {m_key.keys.public_key});
  EXPECT_EQ(linked.status, SignatureStatus::invalid);
  EXPECT_NE(linked.message.find("symlink"), std::string::npos) << linked.message;
  fs::remove(bundle() / k_sig);
  // A fifo must not block the check.
  ASSERT_EQ(::mkfifo((bundle() / k_sig).c_str(), 0600), 0);
  EXPECT_EQ(verify_ok(bundle(), {m_key.keys.public_key}).status, SignatureStatus::invalid);
}

// ---- secret key files ----

TEST(SecretKeyFile, GroupOrWorldAccessIsRefused) {
  TempTree tree;
  const KeyFiles key = make_key(tree);
  make_bundle(tree);
  for (const mode_t mode : {0640, 0604, 0644, 0660, 0610, 0777}) {
    ASSERT_EQ(::chmod(key.secret_path.c_str(), mode), 0);
    auto signed_bundle = sign_bundle(tree.path() / "bundle", key.secret_path);
    ASSERT_FALSE(signed_bundle) << std::oct << mode;
    EXPECT_EQ(signed_bundle.error().code, ErrorCode::refused);
    EXPECT_NE(signed_bundle.error().message.find("too open"), std::string::npos) << signed_bundle.error().message;
    EXPECT_NE(signed_bundle.error().message.find("chmod 600"), std::string::npos);
    EXPECT_FALSE(fs::exists(tree.path() / "bundle" / k_sig));
  }
  ASSERT_EQ(::chmod(key.secret_path.c_str(), 0400), 0);
  EXPECT_TRUE(sign_bundle(tree.path() / "bundle", key.secret_path));
}

TEST(SecretKeyFile, GarbageMissingHugeOrCorruptKeysAreRefused) {
  TempTree tree;
  const KeyFiles key = make_key(tree);
  make_bundle(tree);
  const fs::path bundle = tree.path() / "bundle";
  const fs::path path = tree.path() / "keys" / "bad.key";
  const auto sign_with = [&](std::string_view content) {
    fs::remove(path);
    spit(path, content);
    ::chmod(path.c_str(), 0600);
    return sign_bundle(bundle, path);
  };
  const std::string& sk = key.keys.secret_key;
  for (const std::string& content : {std::string(), std::string("garbage"), key.keys.public_key + "\n", sk + "\n\n",
                                     sk + "\r\n", " " + sk, sk.substr(1), "ed25519-secret:" + sk.substr(16, 87) + "\n",
                                     std::string(100000, 'x'), "ed25519-secret:" + std::string(88, '=')}) {
    auto result = sign_with(content);
    ASSERT_FALSE(result) << content.substr(0, 100);
    EXPECT_FALSE(fs::exists(bundle / k_sig));
  }
  EXPECT_TRUE(sign_with(sk)) << "the final newline is optional";
  fs::remove(bundle / k_sig);

  // A zero seed with a zero public half: the halves do not match, caught before signing.
  auto corrupt = sign_with("ed25519-secret:" + std::string(86, 'A') + "==\n");
  ASSERT_FALSE(corrupt);
  EXPECT_NE(corrupt.error().message.find("corrupt"), std::string::npos) << corrupt.error().message;

  auto missing = sign_bundle(bundle, tree.path() / "keys" / "missing.key");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  ASSERT_EQ(::mkfifo((tree.path() / "keys" / "fifo.key").c_str(), 0600), 0);
  EXPECT_FALSE(sign_bundle(bundle, tree.path() / "keys" / "fifo.key")) << "a fifo must not block";
}

TEST(SignBundle, RefusesBundlesWithLinksAndLeavesNoSignature) {
  TempTree tree;
  const KeyFiles key = make_key(tree);
  make_bundle(tree);
  tree.symlink("../keys", "bundle/keys");
  auto result = sign_bundle(tree.path() / "bundle", key.secret_path);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::refused);
  EXPECT_FALSE(fs::exists(tree.path() / "bundle" / k_sig));
}

TEST(SignBundle, NeverWritesThroughALinkedSignatureFile) {
  TempTree tree;
  const KeyFiles key = make_key(tree);
  make_bundle(tree);
  tree.write("outside.txt", "keep");
  tree.symlink(tree.path() / "outside.txt", "bundle/" + k_sig);
  ASSERT_FALSE(sign_bundle(tree.path() / "bundle", key.secret_path));
  EXPECT_EQ(slurp(tree.path() / "outside.txt"), "keep");
}

} // namespace
} // namespace skillrt::core::hub
