// Where proposals live and how they are read and written: one JSON file per
// proposal, in the shared layer's inbox HOME/pending/skills/ or in a user's
// HOME/users/<uid>/pending/. A user's inbox is theirs alone; the shared inbox
// is read and decided only by the owner organisation.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/proposals/proposal.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// The inbox folder of `layer` as ctx sees it (user and database layers: the
// user's own). Fails without a user for those layers.
Result<std::filesystem::path> proposal_inbox(const Context& ctx, Layer layer);

// A fresh proposal id.
std::string new_proposal_id();

// Writes `proposal` atomically into its layer's inbox.
Result<void> save_proposal(const Context& ctx, const Proposal& proposal);

// The proposals ctx may see: their own inbox, plus the shared one for the
// owner organisation (in single-user mode, the shared one only). Newest first.
// A file that does not parse is skipped and named in `problems`.
Result<std::vector<Proposal>> list_proposals(const Context& ctx, std::vector<std::string>* problems = nullptr);

// One proposal by id among those ctx may see; not_found otherwise.
Result<Proposal> load_proposal(const Context& ctx, const std::string& id);

// The JSON text of a proposal file, and its inverse (a name or field this
// version never wrote is a parse error).
std::string render_proposal(const Proposal& proposal);
Result<Proposal> parse_proposal(std::string_view text);

}  // namespace skillrt::core
