// The usage records of one owner, in one JSON file: the shared layer's at
// HOME/skills/.usage.json, a user's (their file skills and their database
// skills) at HOME/users/<uid>/usage.json. Each update is a read-modify-write
// under an flock with an atomic replace, so two processes never lose each
// other's counts, and a reader sees the old or the new file.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "core/context.hpp"
#include "core/tenancy/layer.hpp"
#include "core/usage/usage_record.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct UsageBook {
  std::map<std::string, UsageRecord> files;     // the owner's file skills, by name
  std::map<std::string, UsageRecord> database;  // a user's database skills, by name
  std::map<std::string, UsageRecord>& of(Layer layer) { return layer == Layer::database ? database : files; }
  const std::map<std::string, UsageRecord>& of(Layer layer) const {
    return layer == Layer::database ? database : files;
  }
};

// The file holding the records of `layer` as ctx sees it: the shared layer's,
// or ctx's user's for the user and database layers (fails without a user).
Result<std::filesystem::path> usage_book_path(const Context& ctx, Layer layer);

// The book at `path`; empty when the file does not exist. A file that is not
// a record book this version wrote is a parse error, never guessed at.
Result<UsageBook> read_usage_book(const std::filesystem::path& path);

// The record of `name` in `layer`; nullopt when there is none.
Result<std::optional<UsageRecord>> find_usage(const Context& ctx, Layer layer, const std::string& name);

// Locks the book of `layer`, lets `change` edit the record of `name` (created
// empty when missing), and writes the book back atomically.
Result<UsageRecord> update_usage(const Context& ctx, Layer layer, const std::string& name,
                                 const std::function<void(UsageRecord&)>& change);

// Locks the book and lets `change` edit every record of every layer in it
// (the curator's pass). Writes only when `change` returns true.
Result<UsageBook> update_usage_book(const Context& ctx, Layer layer, const std::function<bool(UsageBook&)>& change);

// Drops the record of `name` (a deleted skill). Missing is fine.
Result<void> forget_usage(const Context& ctx, Layer layer, const std::string& name);

// Convenience for the common events; each stamps last_used with now.
Result<UsageRecord> record_view(const Context& ctx, Layer layer, const std::string& name);
Result<UsageRecord> record_use(const Context& ctx, Layer layer, const std::string& name);

}  // namespace skillrt::core
