// Command names for skills (spec §2.15 rules 1 and 4): the slug a skill is
// registered under, and the Telegram form used to match what a chat client sent.
#pragma once

#include <string>
#include <string_view>

namespace skillrt::core {

// True for a code point Python's `\w` would match (letters, digits, underscore).
// ASCII is exact. Beyond ASCII a compact table stands in for the Unicode
// categories: every code point counts as a word character except the
// punctuation, symbol, space, combining-mark and emoji blocks listed in
// slug.cpp (so CJK, Cyrillic, Greek, Arabic... letters are kept).
bool is_word_code_point(char32_t code);

// slugify_skill_name: lower-case (ASCII, Latin-1, Greek and Cyrillic capitals),
// spaces → '-', every character that is neither a word character nor '-'
// dropped, runs of '-' collapsed, leading/trailing '-' stripped. "" means the
// skill gets no command. Invalid UTF-8 bytes are dropped.
std::string slugify_skill_name(std::string_view name);

// Telegram's command form: lower-case, '-' → '_', characters outside
// [a-z0-9_] dropped, runs of '_' collapsed, leading/trailing '_' stripped;
// "" when a dropped character was a word character (a non-ASCII letter),
// because such a command cannot be typed in Telegram at all.
std::string telegram_command_form(std::string_view command);

} // namespace skillrt::core
