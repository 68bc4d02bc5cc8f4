// SOURCE parsing: every kind, //subdir and #ref, and hostile input.
#include "sources/source_spec.hpp"

#include <gtest/gtest.h>

#include <string>

namespace skillrt::sources {
namespace {

const std::filesystem::path k_cwd = "/work/here";

SourceSpec parse_ok(std::string_view source) {
  auto spec = parse_source_spec(source, k_cwd);
  EXPECT_TRUE(spec.has_value()) << source << ": " << (spec ? "" : spec.error().message);
  return spec ? *spec : SourceSpec{};
}

std::string parse_error(std::string_view source) {
  auto spec = parse_source_spec(source, k_cwd);
  EXPECT_FALSE(spec.has_value()) << source << " parsed as " << (spec ? spec->location : "");
  return spec ? std::string() : spec.error().message;
}

struct KindCase {
  const char* source;
  SpecKind kind;
  const char* location;
  const char* identifier;
  const char* subdir;
  const char* ref;
};

TEST(SourceSpec, KindsLocationsSubdirsAndRefs) {
  const KindCase cases[] = {
      {"/abs/skills", SpecKind::folder, "/abs/skills", "/abs/skills", "", ""},
      {"rel/skill/", SpecKind::folder, "/work/here/rel/skill", "/work/here/rel/skill", "", ""},
      {"./a/../b", SpecKind::folder, "/work/here/b", "/work/here/b", "", ""},
      {"/abs/repo//skills/one", SpecKind::folder, "/abs/repo", "/abs/repo", "skills/one", ""},
      {"/b/x.tar.gz", SpecKind::archive, "/b/x.tar.gz", "/b/x.tar.gz", "", ""},
      {"/b/x.TGZ", SpecKind::archive, "/b/x.TGZ", "/b/x.TGZ", "", ""},
      {"b.zip//inner/dir", SpecKind::archive, "/work/here/b.zip", "/work/here/b.zip", "inner/dir", ""},
      {"/repos/r.git", SpecKind::git, "/repos/r.git", "/repos/r.git", "", ""},
      {"/repos/worktree#main", SpecKind::git, "/repos/worktree", "/repos/worktree", "", "main"},
      {"/repos/r.git//skills#v1.2", SpecKind::git, "/repos/r.git", "/repos/r.git", "skills", "v1.2"},
      {"file:///repos/r", SpecKind::git, "file:///repos/r", "file:///repos/r", "", ""},
      {"file://localhost/repos/r//s#feature/x", SpecKind::git, "file:///repos/r", "file:///repos/r", "s", "feature/x"},
      {"git+file:///repos/r", SpecKind::git, "file:///repos/r", "file:///repos/r", "", ""},
      {"https://example.com/org/repo", SpecKind::git, "https://example.com/org/repo", "https://example.com/org/repo",
       "", ""},
      {"https://example.com/org/repo.git//skills/a#0123abc", SpecKind::git, "https://example.com/org/repo.git",
       "https://example.com/org/repo.git", "skills/a", "0123abc"},
      {"git+https://example.com/dl/b.zip", SpecKind::git, "https://example.com/dl/b.zip",
       "https://example.com/dl/b.zip", "", ""},
      {"https://example.com/dl/b.tar.gz", SpecKind::url_archive, "https://example.com/dl/b.tar.gz",
       "https://example.com/dl/b.tar.gz", "", ""},
      {"HTTPS://Example.COM/dl/b.ZIP?x=1", SpecKind::url_archive, "https://example.com/dl/b.ZIP?x=1",
       "https://example.com/dl/b.ZIP?x=1", "", ""},
      {"https://example.com/dl/b.tgz//pkg", SpecKind::url_archive, "https://example.com/dl/b.tgz",
       "https://example.com/dl/b.tgz", "pkg", ""},
      {"https://example.com/raw/deploy/SKILL.md", SpecKind::url_skill_file, "https://example.com/raw/deploy/SKILL.md",
       "https://example.com/raw/deploy/SKILL.md", "", ""},
      {"http://127.0.0.1:8080/b.zip", SpecKind::url_archive, "http://127.0.0.1:8080/b.zip",
       "http://127.0.0.1:8080/b.zip", "", ""},
      {"http://localhost/r.git", SpecKind::git, "http://localhost/r.git", "http://localhost/r.git", "", ""},
      {"http://[::1]:9/SKILL.md", SpecKind::url_skill_file, "http://[::1]:9/SKILL.md", "http://[::1]:9/SKILL.md", "",
       ""},
  };
  for (const KindCase& c : cases) {
    const SourceSpec spec = parse_ok(c.source);
    EXPECT_EQ(spec.kind, c.kind) << c.source << " is " << spec_kind_name(spec.kind);
    EXPECT_EQ(spec.location, c.location) << c.source;
    EXPECT_EQ(spec.identifier, c.identifier) << c.source;
    EXPECT_EQ(spec.subdir, c.subdir) << c.source;
    EXPECT_EQ(spec.ref, c.ref) << c.source;
  }
}

TEST(SourceSpec, SchemeSlashesAreNotASubdirSeparator) {
  const SourceSpec spec = parse_ok("https://example.com/a/b.zip");
  EXPECT_EQ(spec.subdir, "");
  EXPECT_EQ(spec.location, "https://example.com/a/b.zip");
  // A "//" inside a query string is not a separator either.
  const SourceSpec query = parse_ok("https://example.com/get.zip?from=https://other/x");
  EXPECT_EQ(query.subdir, "");
  EXPECT_EQ(query.kind, SpecKind::url_archive);
}

TEST(SourceSpec, CredentialsAreKeptForFetchingButStrippedFromTheIdentifier) {
  const SourceSpec spec = parse_ok("https://user:s3cr%40t@example.com/org/repo.git//skills#main");
  EXPECT_EQ(spec.location, "https://user:s3cr%40t@example.com/org/repo.git");
  EXPECT_EQ(spec.identifier, "https://example.com/org/repo.git");
  const SourceSpec token = parse_ok("https://tok@example.com/b.tar.gz");
  EXPECT_EQ(token.identifier, "https://example.com/b.tar.gz");
}

TEST(SourceSpec, HostileInputIsRefusedWithAClearMessage) {
  EXPECT_EQ(parse_error(""), "SOURCE is empty: give a folder, an archive, a git repository or a URL");
  EXPECT_EQ(parse_error(std::string_view("/a\0b", 4)), "SOURCE holds a NUL byte");
  EXPECT_EQ(parse_error("/a\nb"), "SOURCE holds a control character");
  EXPECT_EQ(parse_error("/repo//../etc"), "invalid //subdir \"../etc\": a \"..\" segment would leave the bundle");
  EXPECT_EQ(parse_error("/repo//a/../../x"), "invalid //subdir \"a/../../x\": a \"..\" segment would leave the bundle");
  EXPECT_EQ(parse_error("/repo///etc"), "invalid //subdir \"/etc\": absolute paths are not allowed");
  EXPECT_EQ(parse_error("/repo//"), "empty //subdir: give a folder after '//'");
  EXPECT_EQ(parse_error("/repo//./"), "empty //subdir: give a folder after '//'");
  EXPECT_EQ(parse_error("/repo//c:x"), "invalid //subdir \"c:x\": a path segment holds ':'");
  EXPECT_EQ(parse_error("/repo//a\\b"), "invalid //subdir \"a\\x5cb\": the path holds a backslash");
  EXPECT_EQ(parse_error("/repo#"), "empty #ref: give a branch, tag or commit id after '#'");
  EXPECT_EQ(parse_error("/repo#--upload-pack=x"),
            "invalid #ref \"--upload-pack=x\": a branch, tag or commit id of letters, digits and . _ / + -");
  EXPECT_EQ(parse_error("/repo#a..b"),
            "invalid #ref \"a..b\": a branch, tag or commit id of letters, digits and . _ / + -");
  EXPECT_EQ(parse_error("/repo#HEAD~1"),
            "invalid #ref \"HEAD~1\": a branch, tag or commit id of letters, digits and . _ / + -");
  EXPECT_EQ(parse_error("#main"), "SOURCE names no folder, archive, repository or URL before //subdir or #ref");
}

TEST(SourceSpec, PlainHttpOnlyForLoopbackHosts) {
  EXPECT_EQ(parse_error("http://example.com/b.zip"),
            "http:// is allowed only for loopback hosts (127.0.0.0/8, ::1, localhost); use https:// for example.com");
  EXPECT_EQ(parse_error("http://127.0.0.1.evil.com/b.zip"),
            "http:// is allowed only for loopback hosts (127.0.0.0/8, ::1, localhost); use https:// for "
            "127.0.0.1.evil.com");
  EXPECT_EQ(parse_error("git+http://10.0.0.1/r.git"),
            "http:// is allowed only for loopback hosts (127.0.0.0/8, ::1, localhost); use https:// for 10.0.0.1");
  EXPECT_EQ(parse_ok("http://127.8.9.10/r").kind, SpecKind::git);
  EXPECT_EQ(parse_ok("http://LOCALHOST:1/b.tgz").kind, SpecKind::url_archive);
}

TEST(SourceSpec, UnsupportedSchemesAndShapes) {
  EXPECT_EQ(parse_error("ssh://host/r.git"), "ssh:// sources are not supported; use https:// or file://");
  EXPECT_EQ(parse_error("git://host/r.git"), "git:// sources are not supported; use https:// or file://");
  EXPECT_EQ(parse_error("git+ssh://host/r.git"), "ssh:// sources are not supported; use https:// or file://");
  EXPECT_EQ(parse_error("git@github.com:org/repo.git"),
            "ssh sources (user@host:path) are not supported; use https:// or file://");
  EXPECT_EQ(parse_error("ftp://host/b.zip"),
            "unsupported URL scheme \"ftp://\" (use a local path, file://, https:// or git+https://)");
  EXPECT_EQ(parse_error("file://otherhost/r"),
            "a file:// URL must name an absolute local path (file:///path): file://otherhost/r");
  EXPECT_EQ(parse_error("https:///path"), "the URL has no host: https:///path");
  EXPECT_EQ(parse_error("https://exa mple.com/b.zip"), "a URL may not contain spaces or control characters");
  EXPECT_EQ(parse_error("https://ex%41mple.com/"), "invalid URL host: ex%41mple.com");
}

TEST(SourceSpec, RefOnlyForGit) {
  EXPECT_EQ(parse_error("/b/x.zip#main"), "#ref applies to git sources only; archive /b/x.zip has no branches or tags");
  EXPECT_EQ(parse_error("https://e.com/x.tar.gz#v1"),
            "#ref applies to git sources only; url-archive https://e.com/x.tar.gz has no branches or tags");
  EXPECT_EQ(parse_error("https://e.com/a/SKILL.md#v1"),
            "#ref applies to git sources only; url-skill-file https://e.com/a/SKILL.md has no branches or tags");
}

TEST(SourceSpec, CanonicalSourceRoundTripsWithoutCredentials) {
  const char* sources[] = {
      "rel/skill/",
      "/abs/repo//skills/one",
      "b.zip//inner/dir",
      "/repos/worktree#main",
      "/repos/r.git//skills#v1.2",
      "file://localhost/repos/r//s#feature/x",
      "https://user:pw@example.com/org/repo.git//skills/a#0123abc",
      "git+https://example.com/dl/b.zip//x",
      "git+https://example.com/raw/SKILL.md",
      "https://tok@example.com/dl/b.tgz//pkg",
      "https://example.com/raw/deploy/SKILL.md",
      "http://127.0.0.1:8080/b.zip",
  };
  for (const char* source : sources) {
    const SourceSpec spec = parse_ok(source);
    const std::string canonical = canonical_source(spec);
    EXPECT_EQ(canonical.find("pw@"), std::string::npos) << canonical;
    EXPECT_EQ(canonical.find("tok@"), std::string::npos) << canonical;
    const SourceSpec again = parse_ok(canonical);
    EXPECT_EQ(again.kind, spec.kind) << source << " -> " << canonical;
    EXPECT_EQ(again.identifier, spec.identifier) << source << " -> " << canonical;
    EXPECT_EQ(again.subdir, spec.subdir) << source << " -> " << canonical;
    EXPECT_EQ(again.ref, spec.ref) << source << " -> " << canonical;
  }
  EXPECT_EQ(canonical_source(parse_ok("rel/skill//sub")), "/work/here/rel/skill//sub");
  EXPECT_EQ(canonical_source(parse_ok("git+https://e.com/b.zip#v1")), "git+https://e.com/b.zip#v1");
}

TEST(SourceSpec, KindNames) {
  EXPECT_STREQ(spec_kind_name(SpecKind::folder), "folder");
  EXPECT_STREQ(spec_kind_name(SpecKind::archive), "archive");
  EXPECT_STREQ(spec_kind_name(SpecKind::git), "git");
  EXPECT_STREQ(spec_kind_name(SpecKind::url_archive), "url-archive");
  EXPECT_STREQ(spec_kind_name(SpecKind::url_skill_file), "url-skill-file");
}

} // namespace
} // namespace skillrt::sources
