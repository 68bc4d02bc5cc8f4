// `skillrt --user U --org O token create [--label L]`, `token list`, `token revoke ID`:
// the API tokens `skillrt serve` accepts as `Authorization: Bearer …`. They
// live in the same database as the skills (--db, else `database.url`, else
// HOME/skillrt.db). The bearer is printed once, at creation; only a salted
// hash of its secret is stored.
#include <iostream>
#include <optional>

#include "command.hpp"
#include "core/store/token_store.hpp"
#include "protocol/error_json.hpp"
#include "protocol/token_json.hpp"
#include "store/open_store.hpp"

namespace skillrt::app {
namespace {

std::string token_line(const core::ApiToken& token) {
  std::string line = token.id + "  user=" + token.user_id + "  org=" + token.org_id + "  created " + token.created_at +
                     "  last used " + token.last_used_at.value_or("never");
  if (token.revoked_at) {
    line += "  REVOKED " + *token.revoked_at;
  }
  if (!token.label.empty()) {
    line += "  " + token.label;
  }
  return line + "\n";
}

class TokenCommand final : public Command {
public:
  const char* name() const override { return "token"; }
  const char* summary() const override {
    return "API tokens for `skillrt serve`: create (--user, --org), list, revoke";
  }

  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_create = sub.add_subcommand("create", "Create a token for --user U --org O; prints the bearer once");
    m_list = sub.add_subcommand("list", "List tokens (only --user's when given), newest first");
    m_revoke = sub.add_subcommand("revoke", "Revoke a token by its id");
    for (CLI::App* action : {m_create, m_list, m_revoke}) {
      action->fallthrough(); // global flags may follow
    }
    m_create->add_option("--label", m_label, "A note to recognise the token by (e.g. the client's name)");
    m_revoke->add_option("id", m_id, "Token id (as `token list` shows it)")->required();
  }

  Outcome run(const Invocation& inv) override {
    if (m_create->parsed() && (!inv.ctx.user_id || inv.ctx.org_id.empty())) {
      return finish_usage(inv.json, "token create needs --user U and --org O (whom the token speaks for)", "token");
    }
    const std::string& location = inv.database_location();
    auto opened = store::open_token_store(location, inv.ctx);
    if (!opened) {
      return finish_result(inv.json, protocol::error_result_json(opened.error()), "");
    }
    core::TokenStore& tokens = **opened;
    if (m_create->parsed()) {
      return create(inv, tokens);
    }
    if (m_revoke->parsed()) {
      return revoke(inv, tokens);
    }
    return list(inv, tokens);
  }

private:
  Outcome create(const Invocation& inv, core::TokenStore& tokens) const {
    auto issued = tokens.create_token(*inv.ctx.user_id, inv.ctx.org_id, m_label);
    if (!issued) {
      return finish_result(inv.json, protocol::error_result_json(issued.error()), "");
    }
    Json result = Json::object();
    result["success"] = true;
    result["token"] = protocol::created_token_json(issued->token);
    result["bearer"] = issued->bearer;
    if (!inv.json) {
      // Only the bearer on stdout, so `$(skillrt token create …)` captures it.
      std::cerr << "skillrt: created token " << issued->token.id << " for user " << issued->token.user_id << " (org "
                << issued->token.org_id << "); the bearer below is shown only this once\n";
    }
    return finish_result(inv.json, result, issued->bearer + "\n");
  }

  Outcome list(const Invocation& inv, core::TokenStore& tokens) const {
    std::optional<std::string_view> user;
    if (inv.ctx.user_id) {
      user = *inv.ctx.user_id;
    }
    auto rows = tokens.list_tokens(user);
    if (!rows) {
      return finish_result(inv.json, protocol::error_result_json(rows.error()), "");
    }
    Json result = Json::object();
    result["success"] = true;
    result["count"] = rows->size();
    Json items = Json::array();
    std::string text;
    for (const core::ApiToken& token : *rows) {
      items.push_back(protocol::token_json(token));
      text += token_line(token);
    }
    result["tokens"] = std::move(items);
    if (rows->empty()) {
      text = inv.ctx.user_id ? "No API tokens for user " + *inv.ctx.user_id + ".\n" : "No API tokens.\n";
    }
    return finish_result(inv.json, result, text);
  }

  Outcome revoke(const Invocation& inv, core::TokenStore& tokens) const {
    auto revoked = tokens.revoke_token(m_id);
    if (!revoked) {
      return finish_result(inv.json, protocol::error_result_json(revoked.error()), "");
    }
    Json result = Json::object();
    result["success"] = true;
    result["token"] = protocol::token_json(*revoked);
    return finish_result(inv.json, result, "Token " + revoked->id + " revoked.\n");
  }

  CLI::App* m_create = nullptr;
  CLI::App* m_list = nullptr;
  CLI::App* m_revoke = nullptr;
  std::string m_label;
  std::string m_id;
};

} // namespace

std::unique_ptr<Command> make_token_command() {
  return std::make_unique<TokenCommand>();
}

} // namespace skillrt::app
