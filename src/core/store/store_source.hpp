// How a long-running server reaches the database without knowing which one it
// is: the composition root (apps/, with store::store_source) says where, the
// server opens it on first use. Opening lazily keeps a home that never uses
// the database free of one.
#pragma once

#include <functional>
#include <memory>

#include "core/store/skill_store.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct SkillStoreSource {
  // Opens the store, creating and migrating the database when needed. Empty:
  // no database (every database operation then fails with a clear message).
  std::function<Result<std::unique_ptr<SkillStore>>()> open;
  // False while opening would create a database that nobody has created yet,
  // so a poller has nothing to compare and must not create it. Empty: it exists.
  std::function<bool()> exists;
};

}  // namespace skillrt::core
