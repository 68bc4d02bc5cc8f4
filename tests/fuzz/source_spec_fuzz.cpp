// Fuzzes SOURCE parsing (src/sources/source_spec): whatever the string, the
// parser answers without crashing, and a parsed SOURCE rewritten by
// canonical_source (what lock.json keeps for check and update) parses back
// to the same kind, identifier, subdir and ref, and carries no credentials
// the identifier does not. A crash, a sanitizer report or a broken invariant
// (abort) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sources/source_spec.hpp"

namespace {

void check(bool condition) {
  if (!condition) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace skillrt::sources;
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const auto spec = parse_source_spec(source, "/work/dir");
  if (!spec) {
    check(!spec.error().message.empty());
    return 0;
  }
  check(!spec->identifier.empty());
  const std::string canonical = canonical_source(*spec);
  const auto again = parse_source_spec(canonical, "/elsewhere");
  check(again.has_value());
  check(again->kind == spec->kind);
  check(again->identifier == spec->identifier);
  check(again->subdir == spec->subdir);
  check(again->ref == spec->ref);
  return 0;
}
