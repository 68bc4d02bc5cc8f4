// The shared change log over a real PostgreSQL (issue 4/6): rows numbered in
// commit order, NOTIFY with ids only, the replica's relay delivering every
// row exactly once and in order, across a dropped listener.
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/events/change_relay.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/postgres_change_log.hpp"
#include "support/pg_test_db.hpp"
#include "support/wait_until.hpp"

namespace skillrt {
namespace {

using namespace std::chrono_literals;
using test::PgTestDb;
using test::wait_until;

#define SKILLRT_PG_DB_OR_SKIP(db)            \
  auto db = PgTestDb::create();              \
  if (!db) {                                 \
    GTEST_SKIP() << PgTestDb::skip_reason(); \
  }

core::SkillEvent skill_event(const std::string& owner, const std::string& name) {
  core::SkillEvent event;
  event.subject = core::EventSubject::skill;
  event.kind = core::ChangeKind::created;
  event.layer = owner.empty() ? core::Layer::shared : core::Layer::user;
  event.owner = owner;
  event.name = name;
  event.location = "/home/x/skills/" + name + "/SKILL.md";
  return event;
}

std::unique_ptr<core::ChangeLog> open_log(const PgTestDb& db) {
  auto log = store::open_postgres_change_log(db.url());
  EXPECT_TRUE(log) << log.error().message;
  return log ? std::move(*log) : nullptr;
}

// What a bus subscriber saw, in order.
struct Seen {
  std::mutex mutex;
  std::vector<core::SkillEvent> events;
  void add(const core::SkillEvent& event) {
    std::lock_guard lock(mutex);
    events.push_back(event);
  }
  std::size_t size() {
    std::lock_guard lock(mutex);
    return events.size();
  }
  std::vector<std::uint64_t> sequences() {
    std::lock_guard lock(mutex);
    std::vector<std::uint64_t> out;
    for (const auto& event : events) {
      out.push_back(event.sequence);
    }
    return out;
  }
};

core::ChangeRelay::Options fast() {
  core::ChangeRelay::Options options;
  options.poll = 5s;  // long: the tests must be woken by NOTIFY, not by the poll
  options.backoff_first = 20ms;
  options.backoff_max = 200ms;
  return options;
}

// A bus, what its every-owner subscriber saw, and a relay over `db`'s log.
struct Replica {
  core::EventBus bus;
  Seen seen;
  core::EventBus::Subscription all = bus.subscribe_every_owner([this](const core::SkillEvent& event) { seen.add(event); });
  std::unique_ptr<core::ChangeRelay> relay;

  explicit Replica(const PgTestDb& db) {
    auto signal = store::make_postgres_change_signal(db.url());
    EXPECT_TRUE(signal);
    auto started = core::ChangeRelay::start(bus, open_log(db), signal ? std::move(*signal) : nullptr, fast());
    EXPECT_TRUE(started) << started.error().message;
    if (started) {
      relay = std::move(*started);
    }
  }
};

TEST(ChangeLog, RowsRoundTripAndDedupeKeysLogOnce) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto log = open_log(*db);
  ASSERT_TRUE(log);
  EXPECT_EQ(*log->last_sequence(), 0u);
  core::SkillEvent event = skill_event("alice", "deploy");
  event.detail = "installed";
  auto first = log->append(event, "");
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_GT(*first, 0u);
  auto keyed = log->append(skill_event("", "x"), "files::42");
  ASSERT_TRUE(keyed);
  auto again = log->append(skill_event("", "x"), "files::42");
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, 0u) << "a second replica's identical observation is not logged twice";
  EXPECT_EQ(db->scalar("SELECT count(*) FROM skill_changes"), "2");

  auto rows = log->read_after(0, 10);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].sequence, *first);
  EXPECT_EQ((*rows)[0].layer, core::Layer::user);
  EXPECT_EQ((*rows)[0].owner, "alice");
  EXPECT_EQ((*rows)[0].name, "deploy");
  EXPECT_EQ((*rows)[0].detail, "installed");
  EXPECT_EQ((*rows)[0].kind, core::ChangeKind::created);
  EXPECT_EQ((*rows)[1].layer, core::Layer::shared);
  EXPECT_EQ(*log->last_sequence(), (*rows)[1].sequence);
  EXPECT_TRUE(log->read_after((*rows)[1].sequence, 10)->empty());
}

TEST(ChangeLog, AnOwnerlessPrivateRowIsReadAsNobodysPrivateEvent) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto log = open_log(*db);
  ASSERT_TRUE(log);
  db->scalar("INSERT INTO skill_changes (subject, kind, layer, owner, name, location, detail) "
             "VALUES ('future-subject', 'renamed', 'user', '', 'n', '', '') RETURNING seq");
  auto rows = log->read_after(0, 10);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].subject, core::EventSubject::files) << "unknown subjects still say something changed";
  EXPECT_EQ((*rows)[0].kind, core::ChangeKind::updated);
  EXPECT_EQ((*rows)[0].layer, core::Layer::shared);
}

TEST(ChangeRelay, DeliversOtherWritersRowsWithTheLogsNumbersAndOwnWritesAtOnce) {
  SKILLRT_PG_DB_OR_SKIP(db);
  auto writer = open_log(*db);
  ASSERT_TRUE(writer);
  ASSERT_TRUE(writer->append(skill_event("", "before-start"), ""));  // not replayed: the relay starts at the end

  Replica replica(*db);
  ASSERT_TRUE(replica.relay);
  core::EventBus& bus = replica.bus;
  Seen& seen = replica.seen;
  auto& relay = replica.relay;
  ASSERT_TRUE(wait_until([&] { return relay->status().listening; }, 10s));

  // Another replica's write arrives through NOTIFY, well before the 5 s poll.
  const auto appended = writer->append(skill_event("bob", "remote"), "");
  ASSERT_TRUE(appended);
  ASSERT_TRUE(wait_until([&] { return seen.size() == 1; }, 3s));
  EXPECT_EQ(seen.events[0].name, "remote");
  EXPECT_EQ(seen.events[0].sequence, *appended);

  // Our own publish goes through the log and is delivered before publish returns.
  const std::uint64_t own = bus.publish(skill_event("alice", "local"));
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen.events[1].name, "local");
  EXPECT_EQ(seen.events[1].sequence, own);
  EXPECT_GT(own, *appended);
  EXPECT_EQ(db->scalar("SELECT count(*) FROM skill_changes WHERE name = 'local'"), "1");
  EXPECT_EQ(relay->status().delivered, own);
  EXPECT_TRUE(relay->status().caught_up);

  // The notification of our own row arrives too: it delivers nothing twice.
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(seen.size(), 2u);

  // A handler that publishes while a row is delivered does not deadlock; its
  // event follows in order.
  auto nested = bus.subscribe_every_owner([&](const core::SkillEvent& event) {
    if (event.name == "outer") {
      bus.publish(skill_event("alice", "inner"));
    }
  });
  bus.publish(skill_event("alice", "outer"));
  ASSERT_TRUE(wait_until([&] { return seen.size() == 4; }, 3s));
  EXPECT_EQ(seen.events[2].name, "outer");
  EXPECT_EQ(seen.events[3].name, "inner");
  EXPECT_LT(seen.events[2].sequence, seen.events[3].sequence);
}

TEST(ChangeRelay, ConcurrentWritersAreDeliveredOnceEachInRisingOrder) {
  SKILLRT_PG_DB_OR_SKIP(db);
  Replica replica(*db);
  ASSERT_TRUE(replica.relay);
  core::EventBus& bus = replica.bus;
  Seen& seen = replica.seen;
  constexpr int k_writers = 4;
  constexpr int k_each = 40;
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < k_writers; ++w) {
    writers.emplace_back([&, w] {
      auto log = store::open_postgres_change_log(db->url());
      if (!log) {
        ++failures;
        return;
      }
      for (int i = 0; i < k_each; ++i) {
        if (!(*log)->append(skill_event("u" + std::to_string(w), "s" + std::to_string(i)), "")) {
          ++failures;
        }
      }
    });
  }
  // Meanwhile this replica writes too.
  for (int i = 0; i < k_each; ++i) {
    bus.publish(skill_event("local", "l" + std::to_string(i)));
  }
  for (auto& writer : writers) {
    writer.join();
  }
  ASSERT_EQ(failures.load(), 0);
  constexpr std::size_t k_total = (k_writers + 1) * k_each;
  ASSERT_TRUE(wait_until([&] { return seen.size() >= k_total; }, 10s)) << seen.size();
  std::this_thread::sleep_for(100ms);
  const auto sequences = seen.sequences();
  ASSERT_EQ(sequences.size(), k_total) << "every row exactly once";
  for (std::size_t i = 1; i < sequences.size(); ++i) {
    ASSERT_LT(sequences[i - 1], sequences[i]) << "at " << i;
  }
  EXPECT_EQ(std::to_string(sequences.back()), *db->scalar("SELECT max(seq) FROM skill_changes"));
}

TEST(ChangeRelay, ALostListenerReconnectsAndCatchesUpWhatWasWrittenMeanwhile) {
  SKILLRT_PG_DB_OR_SKIP(db);
  Replica replica(*db);
  ASSERT_TRUE(replica.relay);
  Seen& seen = replica.seen;
  auto& relay = replica.relay;
  ASSERT_TRUE(wait_until([&] { return relay->status().connects == 1; }, 10s));

  // End every other session on the database, the listener's included, and
  // write while it is away: the write's NOTIFY reaches nobody.
  auto writer = open_log(*db);
  ASSERT_TRUE(writer);
  db->scalar("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
             "WHERE datname = current_database() AND pid <> pg_backend_pid() "
             "AND query ILIKE 'LISTEN%'");
  ASSERT_TRUE(writer->append(skill_event("alice", "while-away"), ""));
  ASSERT_TRUE(wait_until([&] { return relay->status().connects >= 2; }, 10s))
      << relay->status().last_error;
  ASSERT_TRUE(wait_until([&] { return seen.size() == 1; }, 3s)) << "caught up from the log after reconnecting";
  EXPECT_EQ(seen.events[0].name, "while-away");
  EXPECT_TRUE(wait_until([&] { return relay->status().caught_up; }, 3s));
}

TEST(ChangeRelay, EventsPublishedWhileTheLogIsUnreachableAreAppendedOnceItIsBack) {
  SKILLRT_PG_DB_OR_SKIP(db);
  Replica replica(*db);
  ASSERT_TRUE(replica.relay);
  core::EventBus& bus = replica.bus;
  Seen& seen = replica.seen;
  auto& relay = replica.relay;
  ASSERT_TRUE(wait_until([&] { return relay->status().listening; }, 10s));
  const std::uint64_t first = bus.publish(skill_event("alice", "before"));
  ASSERT_GT(first, 0u);

  // The database refuses connections and every session to it ends.
  auto admin = store::pg::Connection::open(db->admin_url());
  ASSERT_TRUE(admin) << admin.error().message;
  const std::string name = db->name();
  ASSERT_TRUE(admin->exec(("ALTER DATABASE \"" + name + "\" WITH ALLOW_CONNECTIONS false").c_str()));
  ASSERT_TRUE(admin->exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", {name}));

  // The write's event is delivered here at once, unnumbered, and kept.
  EXPECT_EQ(bus.publish(skill_event("alice", "during")), 0u);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_TRUE(seen.events[1].unlogged);
  EXPECT_EQ(seen.events[1].sequence, 0u) << "an unlogged event takes no number";
  ASSERT_TRUE(wait_until([&] { return !relay->status().listening; }, 10s));

  ASSERT_TRUE(admin->exec(("ALTER DATABASE \"" + name + "\" WITH ALLOW_CONNECTIONS true").c_str()));
  ASSERT_TRUE(wait_until([&] { return seen.size() == 3; }, 15s)) << relay->status().last_error;
  EXPECT_EQ(seen.events[2].name, "during");
  EXPECT_FALSE(seen.events[2].unlogged);
  EXPECT_EQ(std::to_string(seen.events[2].sequence), *db->scalar("SELECT seq FROM skill_changes WHERE name = 'during'"));
  // Later events keep the log's numbers: the outage shifted nothing.
  const std::uint64_t after = bus.publish(skill_event("alice", "after"));
  EXPECT_EQ(std::to_string(after), *db->scalar("SELECT seq FROM skill_changes WHERE name = 'after'"));
  EXPECT_EQ(seen.events.back().sequence, after);
}

TEST(ChangeRelay, AnUnreachableDatabaseIsReportedAndRetriedWithBackoff) {
  // Nothing listens on port 1: connect fails fast, the relay keeps trying.
  auto log_db = PgTestDb::create();
  if (!log_db) {
    GTEST_SKIP() << PgTestDb::skip_reason();
  }
  core::EventBus bus;
  auto signal = store::make_postgres_change_signal("postgresql://nobody@127.0.0.1:1/none?connect_timeout=1");
  ASSERT_TRUE(signal);
  auto relay = core::ChangeRelay::start(bus, open_log(*log_db), std::move(*signal), fast());
  ASSERT_TRUE(relay);
  ASSERT_TRUE(wait_until([&] { return !(*relay)->status().last_error.empty(); }, 10s));
  const auto status = (*relay)->status();
  EXPECT_FALSE(status.listening);
  EXPECT_FALSE(status.caught_up);
  EXPECT_NE(status.last_error.find("127.0.0.1:1"), std::string::npos) << status.last_error;
}

}  // namespace
}  // namespace skillrt
