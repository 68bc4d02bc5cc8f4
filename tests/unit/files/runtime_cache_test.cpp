// The one runtime-cache rule: which names and paths are caches, and which
// look alike but are content.
#include "core/files/runtime_cache.hpp"

#include <gtest/gtest.h>

namespace skillrt::core::files {
namespace {

TEST(RuntimeCache, CacheFoldersByName) {
  for (const char* name : {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}) {
    EXPECT_TRUE(is_runtime_cache_dir(name)) << name;
    EXPECT_TRUE(is_runtime_cache(name, true)) << name;
    // A file of that name is content: only folders are caches by these names.
    EXPECT_FALSE(is_runtime_cache(name, false)) << name;
  }
  for (const char* name : {"pycache", "__pycache", "cache", "scripts", ".git", "", "__PYCACHE__"}) {
    EXPECT_FALSE(is_runtime_cache_dir(name)) << name;
  }
}

TEST(RuntimeCache, CacheFilesByName) {
  for (const char* name : {".DS_Store", "tool.pyc", "tool.pyo", "tool.cpython-311.pyc", ".pyc",
                           ".SKILL.md.tmp.a1B2c3", ".lock.json.tmp.XXXXXX"}) {
    EXPECT_TRUE(is_runtime_cache_file(name)) << name;
    EXPECT_TRUE(is_runtime_cache(name, false)) << name;
  }
  for (const char* name : {"tool.py", "tool.pyi", "pyc", "notes.pyc.md", "DS_Store", ".DS_Store.bak", "",
                           // not an interrupted write's temp: no leading dot, a short or odd suffix, nothing before it
                           "SKILL.md.tmp.a1B2c3", ".SKILL.md.tmp.a1B2", ".SKILL.md.tmp.a1-2c3", "..tmp.abcdef",
                           "notes.tmp.md"}) {
    EXPECT_FALSE(is_runtime_cache_file(name)) << name;
  }
}

TEST(RuntimeCache, PathsInsideACacheFolderAreCaches) {
  EXPECT_TRUE(is_runtime_cache_path("scripts/__pycache__/run.cpython-311.pyc", false));
  EXPECT_TRUE(is_runtime_cache_path("scripts/__pycache__/notes.txt", false)); // whatever a cache folder holds
  EXPECT_TRUE(is_runtime_cache_path("__pycache__", true));
  EXPECT_TRUE(is_runtime_cache_path("a/.pytest_cache/v/cache/nodeids", false));
  EXPECT_TRUE(is_runtime_cache_path("scripts/old.pyc", false));
  EXPECT_TRUE(is_runtime_cache_path(".DS_Store", false));
  EXPECT_FALSE(is_runtime_cache_path("scripts/run.py", false));
  EXPECT_FALSE(is_runtime_cache_path("SKILL.md", false));
  EXPECT_FALSE(is_runtime_cache_path("references/__pycache__.md", false));
  // The last segment is judged by what it is: a folder named x.pyc is not a cache folder.
  EXPECT_FALSE(is_runtime_cache_path("assets/x.pyc", true));
  EXPECT_TRUE(is_runtime_cache_path("assets/x.pyc", false));
  EXPECT_FALSE(is_runtime_cache_path("", false));
}

} // namespace
} // namespace skillrt::core::files
