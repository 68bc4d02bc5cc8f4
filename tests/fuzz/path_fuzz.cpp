// Fuzzes the caller-supplied path checks of skill_view: the skill name check,
// the `ns:skill` alias and the linked-file path check, then serves the file
// path from a real skill directory. Input: "<name>\n<file path>". A crash, a
// sanitizer report or a broken invariant (abort) is a finding.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/limits.hpp"
#include "core/view/file_serving.hpp"
#include "core/view/name_check.hpp"

namespace {

namespace fs = std::filesystem;
using namespace skillrt::core;

void check(bool condition) {
  if (!condition) {
    std::abort();
  }
}

// A skill with one file inside and a secret beside it, created once and
// removed when the fuzzer exits.
class Fixture {
public:
  Fixture() {
    std::string pattern = (fs::temp_directory_path() / "skillrt-path-fuzz-XXXXXX").string();
    check(::mkdtemp(pattern.data()) != nullptr);
    m_root = fs::canonical(pattern);
    fs::create_directories(m_root / "skill" / "references");
    std::ofstream(m_root / "skill" / "SKILL.md") << "---\nname: s\n---\n";
    std::ofstream(m_root / "skill" / "references" / "a.md") << "ok";
    std::ofstream(m_root / "secret.txt") << "secret";
  }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;
  ~Fixture() {
    std::error_code ec;
    fs::remove_all(m_root, ec);
  }
  fs::path skill() const { return m_root / "skill"; }

private:
  fs::path m_root;
};

const fs::path& skill_dir() {
  static const Fixture fixture;
  static const fs::path dir = fixture.skill();
  return dir;
}

bool within(const fs::path& inner, const fs::path& outer) {
  const std::string a = inner.string();
  const std::string b = outer.string();
  return a == b || (a.size() > b.size() && a.compare(0, b.size(), b) == 0 && a[b.size()] == '/');
}

void fuzz_name(std::string_view name) {
  const auto checked = checked_lookup_name(name);
  if (!checked) {
    check(!checked.error().error.empty());
    return;
  }
  const std::string& value = *checked;
  check(!value.empty());
  check(value.size() <= skillrt::limits::k_max_path_length);
  check(value.find('\0') == std::string::npos);
  check(!is_absolute_or_drive(value));
  check(!has_traversal_component(value));
  const auto alias = namespace_alias(value);
  if (alias && alias->has_value()) {
    check(!has_traversal_component(**alias));
    check(!is_absolute_or_drive(**alias));
  }
}

void fuzz_file(std::string_view file_path) {
  const auto checked = check_file_path(file_path);
  if (checked) {
    check(!has_traversal_component(*checked));
    check(!is_absolute_or_drive(*checked));
  }
  const auto served = serve_skill_file(skill_dir(), file_path, "s");
  if (served) {
    // Whatever was served lies inside the skill once every link is resolved.
    std::error_code ec;
    const fs::path resolved = fs::weakly_canonical(served->source_path, ec);
    check(!ec && within(resolved, skill_dir()));
    check(served->content != "secret");
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string_view name = input.substr(0, newline);
  fuzz_name(name);
  fuzz_name(input);
  if (newline != std::string_view::npos) {
    fuzz_file(input.substr(newline + 1));
  }
  return 0;
}
