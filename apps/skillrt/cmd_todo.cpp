// `skillrt --user U todo list`, `skillrt --user U todo write (--items JSON | --file F) [--merge]`:
// the user's todo list (the Hermes todo tool). A write without --merge replaces the list.
#include <iostream>

#include "command.hpp"
#include "core/limits.hpp"
#include "core/todo/todo.hpp"
#include "core/files/read_file.hpp"
#include "protocol/todo_json.hpp"
#include "protocol/error_json.hpp"

namespace skillrt::app {
namespace {

// The items JSON of --file F (or stdin for "-"), bounded like the todo file itself.
Result<std::string> read_items_file(const std::string& source) {
  const std::size_t max_bytes = limits::k_max_user_state_file_bytes;
  if (source == "-") {
    std::string data;
    char buffer[65536];
    while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
      data.append(buffer, static_cast<std::size_t>(std::cin.gcount()));
      if (data.size() > max_bytes) {
        return fail(ErrorCode::limit_exceeded,
                    "--file -: standard input is larger than " + std::to_string(max_bytes) + " bytes");
      }
    }
    return data;
  }
  auto bytes = core::read_regular_file(source, max_bytes);
  if (!bytes) {
    return fail(bytes.error().code, "--file " + source + ": " + bytes.error().message);
  }
  return std::move(*bytes);
}

const char* status_mark(core::TodoStatus status) {
  switch (status) {
  case core::TodoStatus::pending:
    return "[ ]";
  case core::TodoStatus::in_progress:
    return "[>]";
  case core::TodoStatus::completed:
    return "[x]";
  case core::TodoStatus::cancelled:
    return "[-]";
  }
  return "[ ]";
}

std::string list_text(const std::vector<core::TodoItem>& items) {
  std::string text;
  for (const core::TodoItem& item : items) {
    text += std::string(status_mark(item.status)) + " " + item.id + ": " + item.content + "\n";
  }
  const core::TodoSummary s = core::summarize_todos(items);
  text += std::to_string(s.total) + (s.total == 1 ? " item: " : " items: ") + std::to_string(s.pending) + " pending, " +
          std::to_string(s.in_progress) + " in progress, " + std::to_string(s.completed) + " completed, " +
          std::to_string(s.cancelled) + " cancelled\n";
  return text;
}

class TodoCommand final : public Command {
public:
  const char* name() const override { return "todo"; }
  const char* summary() const override { return "The user's todo list (--user): list, write [--merge]"; }

  void configure(CLI::App& sub) override {
    sub.require_subcommand(1);
    m_list = sub.add_subcommand("list", "Show the todo list with a summary");
    m_write = sub.add_subcommand("write", "Replace the list (or --merge into it) with --items JSON or --file F");
    m_items_opt = m_write->add_option("--items", m_items, "A JSON array of {id, content, status}");
    m_file_opt = m_write->add_option("--file", m_file, "Read the items JSON from F ('-' = stdin)");
    m_write->add_flag("--merge", m_merge, "Update the given ids and append new ones instead of replacing the list");
    for (CLI::App* action : {m_list, m_write}) {
      action->fallthrough(); // global flags may follow
    }
  }

  Outcome run(const Invocation& inv) override {
    if (m_list->parsed()) {
      auto items = core::todo_read(inv.ctx);
      if (!items) {
        return finish_result(inv.json, protocol::error_result_json(items.error()), "");
      }
      return finish_result(inv.json, protocol::todo_list_json(*items), list_text(*items));
    }
    const bool has_items = m_items_opt->count() > 0;
    const bool has_file = m_file_opt->count() > 0;
    if (has_items == has_file) {
      return finish_usage(inv.json, "todo write needs exactly one of --items JSON or --file F", "todo");
    }
    std::string text = m_items;
    if (has_file) {
      auto bytes = read_items_file(m_file);
      if (!bytes) {
        return finish_usage(inv.json, bytes.error().message, "todo");
      }
      text = std::move(*bytes);
    }
    auto updates = protocol::parse_todo_updates(text);
    if (!updates) {
      return finish_usage(inv.json, updates.error().message, "todo");
    }
    auto items = core::todo_write(inv.ctx, *updates, m_merge);
    if (!items) {
      return finish_result(inv.json, protocol::error_result_json(items.error()), "");
    }
    return finish_result(inv.json, protocol::todo_list_json(*items), list_text(*items));
  }

private:
  CLI::App* m_list = nullptr;
  CLI::App* m_write = nullptr;
  CLI::Option* m_items_opt = nullptr;
  CLI::Option* m_file_opt = nullptr;
  std::string m_items;
  std::string m_file;
  bool m_merge = false;
};

} // namespace

std::unique_ptr<Command> make_todo_command() {
  return std::make_unique<TodoCommand>();
}

} // namespace skillrt::app
