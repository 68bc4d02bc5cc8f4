// memory.json: {"version":1,"memory":[...],"user":[...]}, one entry per string.
#include <nlohmann/json.hpp>

#include "core/limits.hpp"
#include "core/memory/memory.hpp"
#include "core/util/strict_json.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

constexpr std::uint64_t k_memory_file_version = 1;

Result<std::vector<std::string>> decode_entries(const nlohmann::json& document, MemoryTarget target) {
  std::vector<std::string> entries;
  const auto list = document.find(memory_target_name(target));
  if (list == document.end()) {
    return entries; // a store never written to
  }
  if (!list->is_array()) {
    return fail(ErrorCode::parse_error, std::string("\"") + memory_target_name(target) + "\" is not a list");
  }
  if (list->size() > limits::k_max_memory_entries) {
    return fail(ErrorCode::parse_error, std::string("\"") + memory_target_name(target) + "\" holds more than " +
                                            std::to_string(limits::k_max_memory_entries) + " entries");
  }
  for (const nlohmann::json& item : *list) {
    if (!item.is_string()) {
      return fail(ErrorCode::parse_error,
                  std::string("an entry of \"") + memory_target_name(target) + "\" is not a string");
    }
    entries.push_back(item.get<std::string>());
  }
  return entries;
}

void encode_entries(std::string& out, const std::vector<std::string>& entries) {
  if (entries.empty()) {
    out += "[]";
    return;
  }
  out += "[\n";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    out += "    ";
    out += json_quoted(entries[i]);
    out += i + 1 < entries.size() ? ",\n" : "\n";
  }
  out += "  ]";
}

} // namespace

Result<MemoryStores> decode_memory_file(std::string_view text) {
  SKILLRT_TRY(check_strict_json(text, limits::k_max_state_json_depth));
  const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  if (!document.is_object()) {
    return fail(ErrorCode::parse_error, "the document is not a JSON object");
  }
  const auto version = document.find("version");
  if (version == document.end() || !version->is_number_unsigned() ||
      version->get<std::uint64_t>() != k_memory_file_version) {
    return fail(ErrorCode::parse_error, "unknown or missing \"version\" (expected 1)");
  }
  MemoryStores stores;
  for (const MemoryTarget target : {MemoryTarget::memory, MemoryTarget::user}) {
    auto entries = decode_entries(document, target);
    if (!entries) {
      return tl::unexpected(entries.error());
    }
    stores.entries(target) = std::move(*entries);
  }
  return stores;
}

std::string encode_memory_file(const MemoryStores& stores) {
  std::string out = "{\n  \"version\": 1,\n  \"memory\": ";
  encode_entries(out, stores.memory);
  out += ",\n  \"user\": ";
  encode_entries(out, stores.user);
  out += "\n}\n";
  return out;
}

} // namespace skillrt::core
