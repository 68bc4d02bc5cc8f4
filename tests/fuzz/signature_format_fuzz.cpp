// Fuzzes the key and signature text formats (core/hub/signature_format): the
// strict parsers answer any bytes without crashing, and whatever they accept
// prints back to the same text (so there is exactly one spelling of a valid
// signature file or key). A crash, a sanitizer report or a broken invariant
// (abort) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/hub/signature_format.hpp"

namespace {

void check(bool condition) {
  if (!condition) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace skillrt::core::hub;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  std::string key_text;
  if (const auto parsed = parse_signature_file(text, key_text)) {
    check(parsed->public_key.size() == 32 && parsed->signature.size() == 64);
    check(signature_file_text(parsed->key_text, parsed->signature) == std::string(without_final_newline(text)) + "\n");
  }
  if (const auto key = parse_public_key(text)) {
    check(key->size() == 32);
    check(public_key_text(*key) == text);
  }
  // A secret key only parses when its halves agree, which random bytes never
  // achieve; the parser must still refuse every other input cleanly.
  (void)parse_secret_key(text);
  return 0;
}
