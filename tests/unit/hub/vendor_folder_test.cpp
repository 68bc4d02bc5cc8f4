// Where install puts a bundle by default: 3rd/<vendor>/, one safe folder name.
#include <gtest/gtest.h>

#include <cctype>

#include "core/hub/vendor_folder.hpp"

namespace skillrt::core::hub {
namespace {

TEST(VendorFolder, NamesTheOwnerTheHostOrTheFolder) {
  EXPECT_EQ(vendor_folder(SourceKind::git, "https://github.com/Acme-Corp/agent-skills.git"), "acme-corp");
  EXPECT_EQ(vendor_folder(SourceKind::git, "https://token@gitlab.example.com:8443/tools/skills"), "tools");
  EXPECT_EQ(vendor_folder(SourceKind::git, "git@github.com:acme/skills.git"), "acme");
  EXPECT_EQ(vendor_folder(SourceKind::git, "file:///srv/repos/team-skills.git"), "team-skills");
  EXPECT_EQ(vendor_folder(SourceKind::git, "/srv/repos/team-skills.git"), "team-skills");
  EXPECT_EQ(vendor_folder(SourceKind::url, "https://user:pw@Downloads.Example.org/x/pack.tar.gz"),
            "downloads.example.org");
  EXPECT_EQ(vendor_folder(SourceKind::archive, "/tmp/Vendor Pack v2.tar.gz"), "vendor-pack-v2");
  EXPECT_EQ(vendor_folder(SourceKind::archive, "/tmp/bundle.zip"), "bundle");
  EXPECT_EQ(vendor_folder(SourceKind::folder, "/home/me/skills/ops/"), "ops");
}

TEST(VendorFolder, IsAlwaysOneSafeFolderName) {
  for (const char* hostile : {"", "/", "../..", "/tmp/..", "https://", "https:///", "\x1b[2J", "...", "-_-", "a/./.."}) {
    const std::string vendor = vendor_folder(SourceKind::folder, hostile);
    EXPECT_FALSE(vendor.empty()) << hostile;
    EXPECT_NE(vendor, ".");
    EXPECT_NE(vendor, "..");
    EXPECT_EQ(vendor.find('/'), std::string::npos) << vendor;
    EXPECT_TRUE(vendor == "unknown" || std::isalnum(static_cast<unsigned char>(vendor.front()))) << vendor;
  }
  EXPECT_EQ(vendor_folder(SourceKind::folder, "../.."), "unknown");
  EXPECT_LE(vendor_folder(SourceKind::folder, std::string(300, 'x')).size(), 64U);
  EXPECT_EQ(default_install_category(SourceKind::git, "https://github.com/acme/skills"), "3rd/acme");
}

}  // namespace
}  // namespace skillrt::core::hub
