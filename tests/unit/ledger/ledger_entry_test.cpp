// Ledger entries as text: the renderer, the seal and the strict parser.
#include <gtest/gtest.h>

#include "core/ledger/ledger_entry.hpp"
#include "core/limits.hpp"
#include "core/util/sha256.hpp"

namespace skillrt::core {
namespace {

LedgerEntry sample() {
  LedgerEntry entry;
  entry.seq = 3;
  entry.time = "2026-12-01T07:12:03.042Z";
  entry.actor = LedgerActor::agent;
  entry.actor_id = "alice";
  entry.action = LedgerAction::patch;
  entry.layer = Layer::user;
  entry.skill = "deploy";
  entry.root = "/home/h/users/alice/skills";
  entry.path = "devops/deploy";
  entry.before = LedgerSnapshot{"sha256:" + std::string(64, 'a'), {{"SKILL.md", 12, std::string(64, 'b'), 0644}}};
  entry.after = std::nullopt;
  entry.note = "line\nwith \"quotes\"";
  entry.prev = std::string(64, 'c');
  seal_ledger_entry(entry);
  return entry;
}

TEST(LedgerEntry, RoundTripsThroughItsLine) {
  const LedgerEntry entry = sample();
  EXPECT_EQ(entry.id, entry.hash.substr(0, k_ledger_id_hex_digits));
  EXPECT_EQ(entry.hash, sha256_hex(ledger_hashed_text(entry)));
  const std::string line = render_ledger_entry(entry);
  EXPECT_EQ(line.find('\n'), std::string::npos) << "one entry, one line";
  auto parsed = parse_ledger_entry(line);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(render_ledger_entry(*parsed), line);
  EXPECT_EQ(parsed->actor, LedgerActor::agent);
  EXPECT_EQ(parsed->action, LedgerAction::patch);
  EXPECT_EQ(parsed->layer, Layer::user);
  ASSERT_TRUE(parsed->before);
  EXPECT_EQ(parsed->before->files.at(0).mode, 0644U);
  EXPECT_FALSE(parsed->after);
  EXPECT_EQ(parsed->note, entry.note);
}

TEST(LedgerEntry, TheHashCoversEveryMemberButIdAndHash) {
  const LedgerEntry entry = sample();
  const std::string text = ledger_hashed_text(entry);
  EXPECT_EQ(text.find("\"id\""), std::string::npos);
  EXPECT_EQ(text.find("\"hash\":\"" + entry.hash), std::string::npos);
  for (auto change : {+[](LedgerEntry& e) { e.seq += 1; }, +[](LedgerEntry& e) { e.actor = LedgerActor::user; },
                      +[](LedgerEntry& e) { e.note += "!"; }, +[](LedgerEntry& e) { e.before->files[0].mode = 0755; },
                      +[](LedgerEntry& e) { e.prev[0] = 'd'; }}) {
    LedgerEntry edited = entry;
    change(edited);
    seal_ledger_entry(edited);
    EXPECT_NE(edited.hash, entry.hash);
  }
}

TEST(LedgerEntry, NamesAreSpeltAndUnknownOnesAreParseErrors) {
  EXPECT_STREQ(ledger_action_name(LedgerAction::remove), "delete");
  EXPECT_EQ(ledger_action_from_name("delete"), LedgerAction::remove);
  for (const char* actor : {"user", "agent", "review", "curator", "hub", "sync"}) {
    ASSERT_TRUE(ledger_actor_from_name(actor)) << actor;
    EXPECT_STREQ(ledger_actor_name(*ledger_actor_from_name(actor)), actor);
  }
  EXPECT_FALSE(ledger_actor_from_name("robot"));
  std::string line = render_ledger_entry(sample());
  const std::string robot = std::string(line).replace(line.find("\"agent\""), 7, "\"robot\"");
  EXPECT_EQ(parse_ledger_entry(robot).error().code, ErrorCode::parse_error);
  const std::string shout = std::string(line).replace(line.find("\"patch\""), 7, "\"PATCH\"");
  EXPECT_EQ(parse_ledger_entry(shout).error().code, ErrorCode::parse_error);
}

TEST(LedgerEntry, TheParserIsStrict) {
  const std::string line = render_ledger_entry(sample());
  // An extra member, a missing one, a duplicate, a wrong type, trailing text.
  EXPECT_FALSE(parse_ledger_entry(line.substr(0, line.size() - 1) + ",\"extra\":1}"));
  EXPECT_FALSE(parse_ledger_entry(std::string(line).replace(line.find("\"note\""), 6, "\"nope\"")));
  EXPECT_FALSE(parse_ledger_entry("{\"seq\":1,\"seq\":2}"));
  EXPECT_FALSE(parse_ledger_entry(std::string(line).replace(line.find("\"seq\":3"), 7, "\"seq\":\"3\"")));
  EXPECT_FALSE(parse_ledger_entry(line + " x"));
  EXPECT_FALSE(parse_ledger_entry("[]"));
  EXPECT_FALSE(parse_ledger_entry(line.substr(0, line.size() / 2)));
}

TEST(LedgerEntry, JsonDepthIsBounded) {
  EXPECT_EQ(limits::k_max_ledger_json_depth, 8U);
  std::string deep(limits::k_max_ledger_json_depth + 1, '[');
  deep += std::string(limits::k_max_ledger_json_depth + 1, ']');
  EXPECT_EQ(parse_ledger_entry(deep).error().code, ErrorCode::parse_error);
}

} // namespace
} // namespace skillrt::core
