// Every limit of the runtime as a named constant; each one has a test.
#pragma once

#include <cstddef>
#include <cstdint>

namespace skillrt::limits {

// --- Hermes contracts (spec §1) ---
inline constexpr std::size_t k_max_name_length = 64;
inline constexpr std::size_t k_max_description_length = 1024;
// Listing parses only this prefix of SKILL.md (characters in Hermes; we count bytes
// and extend to the closing fence when it lies within k_max_frontmatter_bytes).
inline constexpr std::size_t k_listing_read_window = 4000;
inline constexpr std::size_t k_not_found_suggestions = 20;
inline constexpr std::size_t k_inline_shell_max_output = 4000;
inline constexpr int k_inline_shell_default_timeout_s = 10;
inline constexpr std::size_t k_project_root_max_depth = 64;
// skill_manage refuses SKILL.md (and any written file) longer than this many characters.
inline constexpr std::size_t k_max_skill_content_chars = 100000;
// skill_manage also refuses a supporting file bigger than this many UTF-8 bytes.
inline constexpr std::size_t k_max_skill_file_bytes_written = 1024 * 1024;
// skill_manage: longest category name, and the success `_change` previews.
inline constexpr std::size_t k_max_category_length = 64;
inline constexpr std::size_t k_manage_change_preview_chars = 200;
inline constexpr std::size_t k_manage_description_preview_chars = 120;
inline constexpr std::size_t k_manage_file_preview_chars = 500;
// The Agent Skills spec caps `compatibility` (skills-ref enforces it).
inline constexpr std::size_t k_max_compatibility_length = 500;

// --- Our own hardening limits ---
// Frontmatter larger than this is refused with a diagnostic (the real corpus peaks at 2 KB).
inline constexpr std::size_t k_max_frontmatter_bytes = 64 * 1024;
// Nesting of YAML collections.
inline constexpr std::size_t k_max_yaml_depth = 16;
// Total YAML nodes in one frontmatter document (bounds memory on hostile input).
inline constexpr std::size_t k_max_yaml_nodes = 10000;
// config.yaml may be bigger than a frontmatter.
inline constexpr std::size_t k_max_config_bytes = 1024 * 1024;
// A SKILL.md we will load whole for view/validate.
inline constexpr std::size_t k_max_skill_file_bytes = 16 * 1024 * 1024;
// A support file served by view --file.
inline constexpr std::size_t k_max_served_file_bytes = 16 * 1024 * 1024;
// Discovery walk: directory depth below a root and directories visited per root.
inline constexpr std::size_t k_max_walk_depth = 32;
inline constexpr std::size_t k_max_walk_dirs_per_root = 200000;
// Listing: how far into a SKILL.md body we look for the description fallback
// line when the frontmatter description is empty.
inline constexpr std::size_t k_listing_body_scan_bytes = 256 * 1024;
// Path length accepted from a caller (name, file path).
inline constexpr std::size_t k_max_path_length = 4096;

// --- Setting up secrets out of band (core/view/setup_request.hpp) ---
// How long a setup link works, and how many may wait at once per home.
inline constexpr int k_setup_request_ttl_s = 15 * 60;
inline constexpr std::size_t k_max_setup_requests = 256;

// --- Plugins (core/plugins) ---
// A manifest is a few lines; the bound keeps a hostile one from costing more.
inline constexpr std::size_t k_max_plugin_manifest_bytes = 64 * 1024;
// Skill folders one manifest may name, and plugins read per plugins folder.
inline constexpr std::size_t k_max_plugin_skill_dirs = 16;
inline constexpr std::size_t k_max_plugins_per_dir = 256;

// --- Trigger activation (core/activation) ---
// `triggers` and `paths` items read per skill, and the longest item kept
// (longer ones are dropped: a trigger is a phrase, a pattern or a glob).
inline constexpr std::size_t k_max_activation_rules = 64;
inline constexpr std::size_t k_max_activation_rule_bytes = 256;
// The longest user message matched, and the most files a turn may name.
inline constexpr std::size_t k_max_match_message_bytes = 64 * 1024;
inline constexpr std::size_t k_max_match_paths = 256;
// Results of one match: the default and the most a caller may ask for.
inline constexpr std::size_t k_match_default_limit = 5;
inline constexpr std::size_t k_match_max_limit = 50;
// Memory one compiled `/pattern/` trigger may take in RE2 (its DFA cache
// included); a pattern that needs more does not compile.
inline constexpr std::int64_t k_trigger_pattern_max_mem = 256 * 1024;

// --- Relevant-skill search (core/search) ---
// Results of one search: the default (issue 3/5) and the most a caller may ask for.
inline constexpr std::size_t k_search_default_limit = 5;
inline constexpr std::size_t k_search_max_limit = 50;
// A longer query is refused (a query is a few words, not a document).
inline constexpr std::size_t k_max_search_query_bytes = 4096;
// Bytes of one SKILL.md put into its search document (the rest is not indexed).
inline constexpr std::size_t k_search_max_indexed_bytes = 1024 * 1024;
// Documents are upserted in batches of about this many bytes (bounds the memory of a first sync).
inline constexpr std::size_t k_search_sync_batch_bytes = 8 * 1024 * 1024;
// A file changed this recently when indexed is read again on the next search
// (an edit within the timestamp granularity cannot hide behind an equal stamp).
inline constexpr std::int64_t k_search_racy_window_ns = 2'000'000'000;
// Most hits asked of the store for one search (room for hidden and shadowed hits).
inline constexpr std::size_t k_search_max_candidates = 1000;

// Entries examined when listing one skill's linked / available files.
inline constexpr std::size_t k_max_linked_files = 10000;

// skill_manage: our own temp files older than this (or whose writer is gone) are
// stray leftovers of a crash and are removed on the next write to that skill.
inline constexpr std::int64_t k_stray_temp_age_s = 60;
// skill_manage: how long a writer waits for another writer of the same skill.
inline constexpr int k_skill_lock_timeout_ms = 30000;

// The persistent listing cache file (core/discovery/listing_cache); a bigger one is ignored and rebuilt.
inline constexpr std::size_t k_max_listing_cache_bytes = 512 * 1024 * 1024;

// --- Skills guard (core/guard) ---
// Hermes' structural thresholds (spec §1): more files than this is a finding,
// as is a single file or the whole skill above these sizes.
inline constexpr std::size_t k_guard_max_file_count = 50;
inline constexpr std::size_t k_guard_max_single_file_bytes = 256 * 1024;
inline constexpr std::size_t k_guard_max_total_bytes = 5120 * 1024;
// A finding's snippet (spec: 117 chars + "...") and the report's quoted match.
inline constexpr std::size_t k_guard_snippet_chars = 120;
inline constexpr std::size_t k_guard_report_match_chars = 60;
// Our hardening: entries (files, links, directories) examined in one skill;
// beyond this the scan stops with a scan_incomplete finding.
inline constexpr std::size_t k_guard_max_entries = 20000;
// Bytes of one file read for the content scan; the rest is hashed but not
// scanned, and the file gets a scan_incomplete finding.
inline constexpr std::size_t k_guard_max_scan_file_bytes = 32 * 1024 * 1024;
// Bytes read (scanned or hashed) for one skill in total.
inline constexpr std::size_t k_guard_max_read_bytes = 512 * 1024 * 1024;
// Lines longer than this are matched in overlapping pieces of this size, so the
// per-line context rules never see more than this at once.
inline constexpr std::size_t k_guard_line_piece_bytes = 64 * 1024;
// Overlap between consecutive pieces: a match up to this long is never split.
inline constexpr std::size_t k_guard_line_piece_overlap = 4 * 1024;
// A skill's .skillrt-guard.yaml or a per-source dismissal file.
inline constexpr std::size_t k_guard_max_dismissal_bytes = 256 * 1024;
// Memory RE2 may use per compiled pattern regex and for the set of patterns
// without literals (program plus DFA cache).
inline constexpr std::int64_t k_guard_regex_set_memory = 64 * 1024 * 1024;

// --- MCP (src/mcp, issue 4/5) ---
// One JSON-RPC message (a stdio line, an HTTP body); the transports refuse a
// bigger one before parsing it (stdio: -32600 with id null, HTTP: 413).
inline constexpr std::size_t k_max_mcp_message_bytes = 4 * 1024 * 1024;
// Nesting of arrays and objects in one message. Checked before parsing:
// copying a deeply nested value recurses once per level, so a 40 KB message
// of brackets would otherwise overflow the stack and take down every session.
inline constexpr std::size_t k_max_json_depth = 64;
// resources/subscribe entries of one session (one per file).
inline constexpr std::size_t k_max_subscriptions_per_session = 1000;
// Serialized skill_view answers kept per catalog snapshot (mcp/view_cache);
// past it, new answers are served but not kept.
inline constexpr std::size_t k_mcp_view_cache_bytes = 64 * 1024 * 1024;
// Directories below a skill's support folders a cached answer re-checks; a
// skill with more is never cached.
inline constexpr std::size_t k_mcp_view_cache_max_dirs = 256;
// An HTTP request body must arrive whole within this time after its head,
// however it trickles (net/mcp_http_server: the connection is then closed),
// so an authenticated client cannot hold a connection with 1 byte a second.
inline constexpr std::uint32_t k_http_body_timeout_ms = 15'000;

// --- REST API (src/api, issue 3/6) ---
// One request body: the transport's cap on any body.
inline constexpr std::size_t k_api_max_body_bytes = k_max_mcp_message_bytes;
// Skills per page of GET /api/v1/skills: the default, and the most a caller
// may ask for (a page is built from the cached catalog in O(page)).
inline constexpr std::size_t k_api_page_default = 50;
inline constexpr std::size_t k_api_page_max = 500;
// Events /api/v1/events keeps for clients that reconnect with ?since=N;
// one further back gets a "resync" (refetch everything).
inline constexpr std::size_t k_api_event_history = 4096;

// --- Chat completions (core/chat, src/llm; the background review) ---
// A transcript handed to parse_chat_messages: bytes of its JSON and messages
// in it (a day-long agent session is a few MB and a few thousand messages).
inline constexpr std::size_t k_transcript_max_bytes = 32 * 1024 * 1024;
inline constexpr std::size_t k_transcript_max_messages = 20000;
// Nesting of arrays and objects in a reply, a transcript, a stream chunk or a
// tool's parameter schema; checked before parsing, like k_max_json_depth.
inline constexpr std::size_t k_chat_json_max_depth = 64;
// One reply of a chat-completions server: the body the HTTP client reads, and
// the text a stream assembles (content, tool-call names and arguments).
inline constexpr std::size_t k_chat_reply_max_bytes = 16 * 1024 * 1024;
// A server's error text quoted in an Error message (the rest is cut).
inline constexpr std::size_t k_chat_error_text_max_chars = 1000;

// --- Per-user memory and todo (core/memory, core/todo) ---
// Hermes' memory tool: characters (code points) over all entries of one store.
inline constexpr std::size_t k_memory_store_chars = 2200;       // target "memory": the agent's notes
inline constexpr std::size_t k_memory_user_profile_chars = 1375;  // target "user": what it knows about the user
// Our hardening: entries per memory store, and items in a todo list.
inline constexpr std::size_t k_max_memory_entries = 100;
inline constexpr std::size_t k_max_todo_items = 100;
// Our hardening: a todo id and a todo text, in characters.
inline constexpr std::size_t k_max_todo_id_chars = 128;
inline constexpr std::size_t k_max_todo_content_chars = 4000;
// memory.json / todo.json bigger than this are refused as corrupt; nesting in them.
inline constexpr std::size_t k_max_user_state_file_bytes = 1024 * 1024;
inline constexpr std::size_t k_max_state_json_depth = 16;
// How long a writer waits for another writer of the same user's file.
inline constexpr int k_user_state_lock_timeout_ms = 30000;

// --- Distribution (core/sync, core/hub, src/sources; issue 5/5) ---
// A bundle (a folder, an archive, a git checkout, a download) is refused as a
// whole when it passes any of these, with a message naming the limit.
inline constexpr std::size_t k_max_bundle_entries = 10000;                 // files + folders
inline constexpr std::uint64_t k_max_bundle_bytes = 256ull * 1024 * 1024;  // uncompressed, in all
inline constexpr std::uint64_t k_max_bundle_file_bytes = 64ull * 1024 * 1024;
// Uncompressed bytes per compressed byte, checked once past the grace bytes
// (tiny archives of text legitimately compress very well).
inline constexpr std::uint64_t k_max_compression_ratio = 100;
inline constexpr std::uint64_t k_compression_ratio_grace_bytes = 1024 * 1024;
inline constexpr std::size_t k_max_bundle_path_bytes = 1024;
inline constexpr std::size_t k_max_bundle_depth = 32;
// One download (libcurl): bytes, seconds, redirects.
inline constexpr std::uint64_t k_max_download_bytes = 64ull * 1024 * 1024;
inline constexpr int k_download_timeout_s = 20;
inline constexpr int k_max_redirects = 5;
// lock.json and the bundled manifest are refused as corrupt past this size.
inline constexpr std::size_t k_max_hub_state_bytes = 8 * 1024 * 1024;
// A git fetch's transfer (history can legitimately outgrow the bundle), and a `#ref`.
inline constexpr std::uint64_t k_max_git_transfer_bytes = 512ull * 1024 * 1024;
inline constexpr std::size_t k_max_source_ref_bytes = 256;
// A git clone is killed after this long without a word from the server, or
// after this long in all (libgit2 1.5 has no network timeouts of its own).
inline constexpr int k_git_stall_timeout_s = 60;
inline constexpr int k_git_fetch_timeout_s = 600;
// A fetched SKILL.md read to learn the skill's name (install, quarantine).
inline constexpr std::size_t k_max_skill_md_for_name = 4 * 1024 * 1024;
// A signature file is ~170 bytes and a key file ~104: past these they are garbage.
inline constexpr std::size_t k_max_signature_file_bytes = 4096;
inline constexpr std::size_t k_max_key_file_bytes = 4096;
// `update`'s unified diff: files past this size are summarised, not diffed;
// lines-times-lines of the differing middle past which a file is summarised;
// the whole diff text stops growing past the last one.
inline constexpr std::size_t k_max_diff_file_bytes = 1024 * 1024;
inline constexpr std::size_t k_max_diff_cells = 4'000'000;
inline constexpr std::size_t k_max_diff_output_bytes = 256 * 1024;
// Proposals (core/proposals): one file holds a request (content up to
// k_max_skill_content_chars, UTF-8) and a diff capped above; an inbox lists at most
// this many.
inline constexpr std::size_t k_max_proposal_bytes = 8 * 1024 * 1024;
inline constexpr std::size_t k_max_proposals_listed = 10'000;

// --- The ledger (core/ledger) ---
// One entry line of entries.jsonl (two snapshots of up to k_max_bundle_entries
// files each fit); a longer line is reported as unreadable, never loaded.
inline constexpr std::size_t k_max_ledger_entry_bytes = 32 * 1024 * 1024;
// head.json is under 200 bytes; past this it is corrupt.
inline constexpr std::size_t k_max_ledger_head_bytes = 4096;
// Nesting of an entry's JSON (entry > snapshot > files > file).
inline constexpr std::size_t k_max_ledger_json_depth = 8;
// How long an appender or a rollback waits for another writer of the same ledger.
inline constexpr int k_ledger_lock_timeout_ms = 30000;
// The shortest id prefix `ledger rollback` accepts (hex digits).
inline constexpr std::size_t k_min_ledger_id_prefix = 4;

}  // namespace skillrt::limits
