// lock.json: round trip, exact text shape, corrupt / huge / missing files,
// name and install_path validation; audit.log line format.
#include <gtest/gtest.h>

#include <fstream>

#include "core/validate/skill_name.hpp"
#include "core/hub/audit_log.hpp"
#include "core/hub/lock_file.hpp"
#include "core/limits.hpp"
#include "core/files/read_file.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core::hub {
namespace {

using test::TempTree;

LockEntry sample_entry(const std::string& name) {
  LockEntry e;
  e.source = SourceKind::git;
  e.identifier = "file:///srv/repo.git";
  e.source_spec = "file:///srv/repo.git//skills#v1";
  e.ref = "v1";
  e.revision = std::string(40, 'a');
  e.subdir = "skills";
  e.trust_level = TrustLevel::community;
  e.scan_verdict = Verdict::caution;
  e.scanner_version = "guard-1";
  e.findings = {3, 0, 1, 1, 1};
  e.content_hash = "sha256:" + std::string(64, 'b');
  e.install_path = "tools/" + name;
  e.files = {"SKILL.md", "scripts/run \"x\".sh", "ünïcode.md"};
  e.signature_status = SignatureStatus::valid;
  e.signature_key = "ed25519:AAAA";
  e.installed_at = "2026-01-02T03:04:05Z";
  e.updated_at = "2026-02-02T03:04:05Z";
  return e;
}

TEST(LockFile, RoundTripKeepsEveryField) {
  TempTree tree;
  LockFile lock;
  lock.installed["alpha"] = sample_entry("alpha");
  lock.installed["beta"] = sample_entry("beta");
  lock.installed["beta"].files.clear();
  const auto path = tree.path() / "lock.json";
  ASSERT_TRUE(write_lock_file(path, lock));
  auto back = read_lock_file(path);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, lock);
}

TEST(LockFile, TextIsIndentedTwoWithTrailingNewline) {
  LockFile lock;
  EXPECT_EQ(render_lock_json(lock), "{\n  \"version\": 1,\n  \"installed\": {}\n}\n");
  lock.installed["alpha"] = sample_entry("alpha");
  const std::string text = render_lock_json(lock);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_NE(text.find("\n  \"installed\": {\n    \"alpha\": {\n      \"source\": \"git\",\n"), std::string::npos);
  EXPECT_NE(text.find("      \"findings\": {\n        \"total\": 3,"), std::string::npos);
}

TEST(LockFile, RecordedNamesBecomeEnumsAndUnknownNamesAreCorruption) {
  // Every name the writer can produce reads back as its enum.
  for (const TrustLevel trust : {TrustLevel::builtin, TrustLevel::trusted, TrustLevel::community,
                                 TrustLevel::agent_created, TrustLevel::project_local}) {
    LockFile lock;
    lock.installed["alpha"] = sample_entry("alpha");
    lock.installed["alpha"].trust_level = trust;
    auto back = parse_lock_json(render_lock_json(lock), "lock.json");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->installed.at("alpha").trust_level, trust);
  }
  // Not recorded: written as "" and read back as nothing.
  LockFile bare;
  bare.installed["alpha"] = sample_entry("alpha");
  bare.installed["alpha"].trust_level.reset();
  bare.installed["alpha"].scan_verdict.reset();
  bare.installed["alpha"].signature_status.reset();
  const std::string bare_text = render_lock_json(bare);
  EXPECT_NE(bare_text.find("\"trust_level\": \"\","), std::string::npos);
  auto back = parse_lock_json(bare_text, "lock.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, bare);
  // A name no version wrote is never guessed at: the error names entry, member and value.
  for (const auto& [member, text] :
       {std::pair<std::string, std::string>{"trust_level", R"({"trust_level": "trustworthy"})"},
        {"scan_verdict", R"({"scan_verdict": "SAFE"})"},
        {"source", R"({"source": "ftp"})"},
        {"status", R"({"signature": {"status": "maybe"}})"}}) {
    auto lock = parse_lock_json(R"({"version": 1, "installed": {"a": )" + text + "}}", "lock.json");
    ASSERT_FALSE(lock) << text;
    EXPECT_EQ(lock.error().code, ErrorCode::parse_error);
    EXPECT_NE(lock.error().message.find(member), std::string::npos) << lock.error().message;
    EXPECT_NE(lock.error().message.find("unknown value"), std::string::npos) << lock.error().message;
  }
}

TEST(LockFile, MissingFileReadsEmpty) {
  TempTree tree;
  auto lock = read_lock_file(tree.path() / "nope.json");
  ASSERT_TRUE(lock);
  EXPECT_TRUE(lock->installed.empty());
}

TEST(LockFile, CorruptFileIsAnErrorNamingIt) {
  TempTree tree;
  for (const std::string text : {"{", "[]", "{\"version\": 2, \"installed\": {}}", "{\"version\": 1}",
                                 "{\"version\": 1, \"installed\": {\"a\": {\"files\": \"x\"}}}",
                                 "{\"version\": 1, \"installed\": {\"a\": {\"findings\": {\"total\": -1}}}}",
                                 "{\"version\": 1, \"installed\": {}, \"installed\": {}}"}) {
    const auto path = tree.write("lock.json", text);
    auto lock = read_lock_file(path);
    ASSERT_FALSE(lock) << text;
    EXPECT_EQ(lock.error().code, ErrorCode::parse_error) << text;
    EXPECT_NE(lock.error().message.find(path.string()), std::string::npos) << lock.error().message;
    EXPECT_NE(lock.error().message.find("never overwritten"), std::string::npos);
  }
}

TEST(LockFile, HugeFileIsRefusedByTheLimit) {
  TempTree tree;
  const auto path = tree.path() / "lock.json";
  {
    std::ofstream out(path, std::ios::binary);
    out << "{\"version\": 1, \"installed\": {}}";
    out << std::string(limits::k_max_hub_state_bytes, ' ');
  }
  auto lock = read_lock_file(path);
  ASSERT_FALSE(lock);
  EXPECT_EQ(lock.error().code, ErrorCode::limit_exceeded);
  EXPECT_NE(lock.error().message.find("k_max_hub_state_bytes"), std::string::npos);
}

TEST(LockFile, SkillNamesMustBeOneSafeSegment) {
  EXPECT_TRUE(check_skill_name("deploy-tool_2.x", SkillNameRule::install));
  for (const std::string& bad :
       {std::string(), std::string("."), std::string(".."), std::string("a/b"), std::string("a\\b"), std::string("c:d"),
        std::string(".hidden"), std::string("a\nb"), std::string(65, 'a')}) {
    EXPECT_FALSE(check_skill_name(bad, SkillNameRule::install)) << bad;
  }
}

TEST(LockFile, CategoriesMayNestButStaySafe) {
  EXPECT_TRUE(validate_hub_category("devops"));
  EXPECT_TRUE(validate_hub_category("devops/cloud"));
  for (const std::string bad : {"", "/abs", "a//b", "a/../b", "a/./b", "x:y", ".hub", "a/"}) {
    EXPECT_FALSE(validate_hub_category(bad)) << bad;
  }
}

TEST(LockFile, InstallPathIsRelativeTraversalFreeAndEndsWithTheName) {
  EXPECT_TRUE(validate_install_path("deploy", "deploy"));
  EXPECT_TRUE(validate_install_path("ops/cloud/deploy", "deploy"));
  EXPECT_FALSE(validate_install_path("", "deploy"));
  EXPECT_FALSE(validate_install_path("/etc/deploy", "deploy"));
  EXPECT_FALSE(validate_install_path("../deploy", "deploy"));
  EXPECT_FALSE(validate_install_path("ops/../deploy", "deploy"));
  EXPECT_FALSE(validate_install_path("c:/deploy", "deploy"));
  EXPECT_FALSE(validate_install_path("ops/other", "deploy"));
  EXPECT_FALSE(validate_install_path("ops\\deploy", "deploy"));
}

TEST(AuditLog, LinesFollowTheHermesShape) {
  EXPECT_EQ(
      format_audit_line({AuditAction::install, "deploy", "/src/x", TrustLevel::community, Verdict::safe, "sha256:ab"}, "2026-01-01T00:00:00Z"),
      "2026-01-01T00:00:00Z INSTALL deploy /src/x:community safe sha256:ab");
  // Spaces inside a field cannot shift the fields; the free tail keeps them.
  EXPECT_EQ(format_audit_line({AuditAction::blocked, "a b", "/my src", TrustLevel::community, Verdict::dangerous, "2 findings\nx"}, "T"),
            "T BLOCKED a_b /my_src:community dangerous 2 findings_x");
}

TEST(AuditLog, AMissingVerdictIsNotApplicableOnlyWhereNoScanBelongs) {
  EXPECT_EQ(format_audit_line({AuditAction::audit, "a", "s", TrustLevel::trusted, std::nullopt, "1_issues"}, "T"),
            "T AUDIT a s:trusted n/a 1_issues");
  EXPECT_EQ(format_audit_line({AuditAction::uninstall, "a", "s", TrustLevel::trusted, Verdict::safe, "user_request"}, "T"),
            "T UNINSTALL a s:trusted n/a user_request");
  EXPECT_EQ(format_audit_line({AuditAction::update, "a", "s", std::nullopt, std::nullopt, ""}, "T"), "T UPDATE a s:- -");
}

TEST(AuditLog, CredentialsNeverReachTheLog) {
  EXPECT_EQ(without_credentials("https://user:token@example.com/repo.git"), "https://example.com/repo.git");
  EXPECT_EQ(without_credentials("https://example.com/a@b"), "https://example.com/a@b");
  EXPECT_EQ(without_credentials("/local/path@x"), "/local/path@x");
  EXPECT_EQ(format_audit_line({AuditAction::blocked, "-", "https://u:p@h.example/x.tgz", std::nullopt, std::nullopt, "e"}, "T"),
            "T BLOCKED - https://h.example/x.tgz:- - e");
}

TEST(AuditLog, AppendsOneLinePerEvent) {
  TempTree tree;
  const auto log = tree.path() / "audit.log";
  ASSERT_TRUE(append_audit_line(log, {AuditAction::install, "a", "s", TrustLevel::community, Verdict::safe, "h"}));
  ASSERT_TRUE(append_audit_line(log, {AuditAction::uninstall, "a", "s", TrustLevel::community, std::nullopt, "user_request"}));
  auto text = read_regular_file(log, 4096);
  ASSERT_TRUE(text);
  EXPECT_EQ(std::count(text->begin(), text->end(), '\n'), 2);
  EXPECT_NE(text->find(" UNINSTALL a s:community n/a user_request\n"), std::string::npos);
}

} // namespace
} // namespace skillrt::core::hub
