#include "store/postgres/postgres_change_log.hpp"

#include <charconv>
#include <utility>

#include "core/tenancy/layer.hpp"
#include "store/postgres/pg_connection.hpp"
#include "skillrt/try.hpp"
#include "store/postgres/pg_migrations.hpp"

namespace skillrt::store {
namespace {

using pg::Connection;
using pg::Param;

// An arbitrary constant naming "skillrt change-log append" among advisory
// locks. Held from taking a sequence number to the commit, so numbers become
// visible in order: a reader at N never later sees a row below N appear.
// Appends are rare (skill writes), so serializing them costs nothing.
constexpr const char* k_append_lock = "7310594215637262";

// How long a row is kept: a replica that was away longer resyncs its clients.
constexpr const char* k_retention = "7 days";
// Old rows are dropped on every this-many appends of a process.
constexpr unsigned k_prune_every = 512;

std::uint64_t to_u64(std::string_view text) {
  std::uint64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

class PostgresChangeLog final : public core::ChangeLog {
 public:
  explicit PostgresChangeLog(Connection connection) : m_db(std::move(connection)) {}

  Result<std::uint64_t> append(const core::SkillEvent& event, std::string_view dedupe_key) override {
    auto run = [&]() -> Result<std::uint64_t> {
      SKILLRT_TRY(m_db.exec("BEGIN"));
      SKILLRT_TRY(m_db.exec("SELECT pg_advisory_xact_lock($1::bigint)", {k_append_lock}));
      // The NOTIFY is sent on commit, in commit order, and only when a row was added.
      auto rows = m_db.exec(
          "WITH added AS ("
          " INSERT INTO skill_changes (subject, kind, layer, owner, name, location, detail, dedupe_key)"
          " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
          " ON CONFLICT (dedupe_key) DO NOTHING RETURNING seq)"
          " SELECT seq, pg_notify($9, seq::text) FROM added",
          {core::event_subject_name(event.subject), core::change_kind_name(event.kind), core::layer_name(event.layer),
           event.owner, event.name, event.location, event.detail,
           dedupe_key.empty() ? Param() : Param(std::string(dedupe_key)), k_change_channel});
      if (!rows) {
        return tl::unexpected(rows.error());
      }
      const std::uint64_t sequence = rows->count() == 1 ? to_u64(rows->text(0, 0)) : 0;
      if (++m_appends % k_prune_every == 0) {
        SKILLRT_TRY(m_db.exec(
            (std::string("DELETE FROM skill_changes WHERE at < now() - interval '") + k_retention + "'").c_str()));
      }
      SKILLRT_TRY(m_db.exec("COMMIT"));
      return sequence;
    };
    auto result = run();
    if (!result) {
      m_db.rollback_quietly();
    }
    return result;
  }

  Result<std::vector<core::SkillEvent>> read_after(std::uint64_t sequence, std::size_t limit) override {
    auto rows = m_db.exec(
        "SELECT seq, subject, kind, layer, owner, name, location, detail FROM skill_changes"
        " WHERE seq > $1::bigint ORDER BY seq LIMIT $2::bigint",
        {std::to_string(sequence), std::to_string(limit)});
    if (!rows) {
      return tl::unexpected(rows.error());
    }
    std::vector<core::SkillEvent> events;
    events.reserve(static_cast<std::size_t>(rows->count()));
    for (int row = 0; row < rows->count(); ++row) {
      core::SkillEvent event;
      event.sequence = to_u64(rows->text(row, 0));
      // A row written by a newer skillrt with a subject or layer this one does
      // not know still tells every client that something changed.
      event.subject = core::event_subject_from_name(rows->text(row, 1)).value_or(core::EventSubject::files);
      event.kind = core::change_kind_from_name(rows->text(row, 2)).value_or(core::ChangeKind::updated);
      event.layer = core::layer_from_name(rows->text(row, 3)).value_or(core::Layer::shared);
      event.owner = rows->text(row, 4);
      event.name = rows->text(row, 5);
      event.location = rows->text(row, 6);
      event.detail = rows->text(row, 7);
      if (event.layer != core::Layer::shared && event.owner.empty()) {
        event.layer = core::Layer::shared;  // owner-less: nobody's private event
      }
      events.push_back(std::move(event));
    }
    return events;
  }

  Result<std::uint64_t> last_sequence() override {
    auto rows = m_db.exec("SELECT coalesce(max(seq), 0) FROM skill_changes");
    if (!rows) {
      return tl::unexpected(rows.error());
    }
    return to_u64(rows->text(0, 0));
  }

 private:
  Connection m_db;
  unsigned m_appends = 0;
};

}  // namespace

Result<std::unique_ptr<core::ChangeLog>> open_postgres_change_log(const std::string& url) {
  auto connection = Connection::open(url);
  if (!connection) {
    return tl::unexpected(connection.error());
  }
  if (auto migrated = pg::migrate(*connection); !migrated) {
    return tl::unexpected(migrated.error());
  }
  return std::unique_ptr<core::ChangeLog>(std::make_unique<PostgresChangeLog>(std::move(*connection)));
}

}  // namespace skillrt::store
