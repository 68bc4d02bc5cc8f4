#include "core/usage/usage_book.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>

#include <nlohmann/json.hpp>

#include "core/files/atomic_file.hpp"
#include "core/files/file_lock.hpp"
#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/tenancy/user_home.hpp"
#include "core/util/strict_json.hpp"
#include "core/util/text.hpp"
#include "core/util/utc_time.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr int k_book_version = 1;

Result<UsageRecord> record_from_json(const std::string& name, const Json& item) {
  auto bad = [&](const char* what) {
    return fail(ErrorCode::parse_error, "usage record of '" + name + "': " + what);
  };
  if (!item.is_object()) {
    return bad("not an object");
  }
  UsageRecord record;
  for (const auto& [key, value] : item.items()) {
    if (key == "views" || key == "uses" || key == "patches") {
      if (!value.is_number_unsigned()) {
        return bad("a count is not a non-negative integer");
      }
      (key == "views" ? record.views : key == "uses" ? record.uses : record.patches) = value.get<std::uint64_t>();
    } else if (key == "created_at" || key == "last_used" || key == "state_since") {
      if (!value.is_string()) {
        return bad("a time is not a string");
      }
      std::string text = value.get<std::string>();
      if (!text.empty() && !parse_iso8601_utc(text)) {
        return bad("a time is not ISO-8601 UTC");
      }
      (key == "created_at" ? record.created_at : key == "last_used" ? record.last_used : record.state_since) =
          std::move(text);
    } else if (key == "created_by") {
      const auto author = value.is_string() ? skill_author_from_name(value.get<std::string>()) : std::nullopt;
      if (!author) {
        return bad("created_by is not one of unknown, agent, user, hub, bundled");
      }
      record.created_by = *author;
    } else if (key == "pinned") {
      if (!value.is_boolean()) {
        return bad("pinned is not a boolean");
      }
      record.pinned = value.get<bool>();
    } else if (key == "state") {
      const auto state = value.is_string() ? skill_lifecycle_from_name(value.get<std::string>()) : std::nullopt;
      if (!state) {
        return bad("state is not one of active, stale, archived");
      }
      record.state = *state;
    }
    // Unknown keys: a newer writer's fields, kept out of our model but harmless.
  }
  return record;
}

Json record_to_json(const UsageRecord& record) {
  return Json{{"views", record.views},
              {"uses", record.uses},
              {"patches", record.patches},
              {"created_at", record.created_at},
              {"last_used", record.last_used},
              {"created_by", skill_author_name(record.created_by)},
              {"pinned", record.pinned},
              {"state", skill_lifecycle_name(record.state)},
              {"state_since", record.state_since}};
}

Result<void> read_section(const Json& doc, const char* key, std::map<std::string, UsageRecord>& out) {
  const auto found = doc.find(key);
  if (found == doc.end()) {
    return {};
  }
  if (!found->is_object()) {
    return fail(ErrorCode::parse_error, std::string("usage book: `") + key + "` is not an object");
  }
  for (const auto& [name, item] : found->items()) {
    SKILLRT_TRY_ASSIGN(UsageRecord record, record_from_json(name, item));
    out.emplace(name, std::move(record));
  }
  return {};
}

std::string render_book(const UsageBook& book) {
  Json files = Json::object();
  for (const auto& [name, record] : book.files) {
    files[name] = record_to_json(record);
  }
  Json database = Json::object();
  for (const auto& [name, record] : book.database) {
    database[name] = record_to_json(record);
  }
  Json doc{{"version", k_book_version}, {"skills", std::move(files)}, {"database_skills", std::move(database)}};
  return doc.dump(2) + "\n";
}

Result<FileLock> lock_book(const fs::path& path) {
  return FileLock::acquire(fs::path(path.string() + ".lock"),
                           std::chrono::milliseconds(limits::k_user_state_lock_timeout_ms),
                           {"cannot open the lock file", "cannot lock",
                            "another writer has held the usage records " + path.string() + " for over " +
                                std::to_string(limits::k_user_state_lock_timeout_ms / 1000) + " s; try again later"});
}

// A symlink or anything but a regular file at the book's path is refused: a
// planted link must not redirect the write.
Result<void> refuse_non_regular(const fs::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) {
      return {};
    }
    const int err = errno;
    return fail(ErrorCode::io_error, "cannot inspect " + path.string() + ": " + errno_text(err));
  }
  if (!S_ISREG(info.st_mode)) {
    return fail(ErrorCode::refused, path.string() + " is not a regular file; refusing to use it");
  }
  return {};
}

Result<UsageBook> locked_update(const Context& ctx, Layer layer, const std::function<bool(UsageBook&)>& change) {
  SKILLRT_TRY_ASSIGN(fs::path path, usage_book_path(ctx, layer));
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) {
    return fail(ErrorCode::io_error, "cannot create " + path.parent_path().string() + ": " + ec.message());
  }
  SKILLRT_TRY(refuse_non_regular(path));
  SKILLRT_TRY_ASSIGN(FileLock lock, lock_book(path));
  SKILLRT_TRY_ASSIGN(UsageBook book, read_usage_book(path));
  if (change(book)) {
    SKILLRT_TRY(write_file_atomic(path, render_book(book)));
  }
  return book;
}

}  // namespace

Result<fs::path> usage_book_path(const Context& ctx, Layer layer) {
  if (layer == Layer::shared) {
    return ctx.skills_dir() / ".usage.json";
  }
  SKILLRT_TRY_ASSIGN(UserHome home, ensure_user_home(ctx));
  return home.root / "usage.json";
}

Result<UsageBook> read_usage_book(const fs::path& path) {
  SKILLRT_TRY(refuse_non_regular(path));
  Result<std::string> text = read_regular_file(path, limits::k_max_user_state_file_bytes);
  if (!text) {
    if (text.error().code == ErrorCode::not_found) {
      return UsageBook{};
    }
    return tl::unexpected(text.error());
  }
  if (trim_ascii_space(*text).empty()) {
    return UsageBook{};
  }
  auto prefix = [&](Error error) {
    error.message = path.string() + ": " + error.message;
    return tl::unexpected(std::move(error));
  };
  if (auto strict = check_strict_json(*text, limits::k_max_json_depth); !strict) {
    return prefix(strict.error());
  }
  const Json doc = Json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return prefix(Error{ErrorCode::parse_error, "not a JSON object"});
  }
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || version->get<int>() != k_book_version) {
    return prefix(Error{ErrorCode::parse_error, "not a version-1 usage book"});
  }
  UsageBook book;
  if (auto read = read_section(doc, "skills", book.files); !read) {
    return prefix(read.error());
  }
  if (auto read = read_section(doc, "database_skills", book.database); !read) {
    return prefix(read.error());
  }
  return book;
}

Result<std::optional<UsageRecord>> find_usage(const Context& ctx, Layer layer, const std::string& name) {
  SKILLRT_TRY_ASSIGN(fs::path path, usage_book_path(ctx, layer));
  SKILLRT_TRY_ASSIGN(UsageBook book, read_usage_book(path));
  const auto& section = book.of(layer);
  if (const auto found = section.find(name); found != section.end()) {
    return std::optional<UsageRecord>(found->second);
  }
  return std::optional<UsageRecord>{};
}

Result<UsageRecord> update_usage(const Context& ctx, Layer layer, const std::string& name,
                                 const std::function<void(UsageRecord&)>& change) {
  UsageRecord result;
  SKILLRT_TRY(locked_update(ctx, layer, [&](UsageBook& book) {
    auto [at, added] = book.of(layer).try_emplace(name);
    if (added) {
      at->second.created_at = utc_now_iso8601();
      at->second.state_since = at->second.created_at;
    }
    change(at->second);
    result = at->second;
    return true;
  }));
  return result;
}

Result<UsageBook> update_usage_book(const Context& ctx, Layer layer, const std::function<bool(UsageBook&)>& change) {
  return locked_update(ctx, layer, change);
}

Result<void> forget_usage(const Context& ctx, Layer layer, const std::string& name) {
  SKILLRT_TRY(locked_update(ctx, layer, [&](UsageBook& book) { return book.of(layer).erase(name) != 0; }));
  return {};
}

Result<UsageRecord> record_view(const Context& ctx, Layer layer, const std::string& name) {
  return update_usage(ctx, layer, name, [](UsageRecord& record) {
    ++record.views;
    record.last_used = utc_now_iso8601();
  });
}

Result<UsageRecord> record_use(const Context& ctx, Layer layer, const std::string& name) {
  return update_usage(ctx, layer, name, [](UsageRecord& record) {
    ++record.uses;
    record.last_used = utc_now_iso8601();
  });
}

}  // namespace skillrt::core
