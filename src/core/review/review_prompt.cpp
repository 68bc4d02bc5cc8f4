#include "core/review/review_prompt.hpp"

namespace skillrt::core {

namespace {

constexpr const char* k_skill_part = R"(Look back over the conversation above as the agent's skill librarian. Your job is to keep the agent's skills accurate and useful, so that next time this kind of work goes faster and avoids the same mistakes. Most conversations teach something worth keeping: be active, but keep only what will generalise.

Signals worth acting on:
- the user corrected the agent's style, format or approach, or showed frustration with it;
- the user corrected a workflow (the order of steps, a tool to prefer, a check that was missing);
- the agent found a non-trivial technique that worked after attempts that did not;
- a skill loaded in this conversation turned out to be wrong, incomplete or outdated.

Where to write, in this order of preference:
1. patch a skill that was loaded in this conversation, when it is one you may change;
2. patch an existing broader ("umbrella") skill that covers this class of task;
3. add a support file (references/, templates/ or scripts/) to such a skill, with one line in its SKILL.md pointing to it;
4. only then create a new skill, named for the class of task it serves — never for a pull request, an error string, a codename or a one-off task.

How to write:
- Read before you write: view a skill (skill_view, or read_file for one of its files) before you change it. Writes to anything you have not read are refused.
- Procedures as steps with the exact commands; pitfalls as a rule plus a short reason.
- Fix wrong text in place instead of appending a correction. Merge a lesson into what is already there rather than repeating it.
- No pull request numbers, dates, names or quotations from the conversation; nothing that restates the project's own instructions or the tools' schemas.

Do not capture:
- failures that depend on this machine or environment (a missing binary, a full disk, a flaky network);
- claims that a tool or library cannot do something;
- transient errors, or a story of what happened in this one session;
- a failure that was never solved, written up as if it were a workflow.

Some skills are protected and will be refused: bundled skills, hub-installed skills, skills from external or project directories, pinned skills and skills a person wrote. If one of those needs a change, say so in your final answer instead.

If there is truly nothing worth keeping, answer "Nothing to save." and stop — but that should not be your usual answer.)";

constexpr const char* k_memory_part = R"(Look back over the conversation above for what the agent should remember about the user: their persona, preferences, habits and expectations of how the agent works. Save what is durable with the memory tool (target "user" for facts about the user, "memory" for the agent's own notes); replace an entry that is out of date rather than adding a contradicting one. If there is nothing durable to remember, answer "Nothing to save." and stop.)";

constexpr const char* k_merge_part = R"(You are the curator of the agent's own skills. The skills listed below were all written by the agent, and their names and descriptions overlap: they may cover one class of task several times over. Several near-duplicates make the agent pick the wrong one, or miss the lesson kept in another.

Decide whether they should be one skill:
1. View each of them (skill_view) and read what each one actually says.
2. If they serve the same class of task, keep the broadest one as the umbrella: rewrite it (edit) so it holds every step, pitfall and command worth keeping from the others — merged, not appended one after another — with a description that covers the whole class. A long piece may go into a support file of the umbrella (references/ or scripts/) with one line in its SKILL.md pointing to it.
3. Then delete the skills whose content now lives in the umbrella. Never delete a skill whose content you did not carry over.
4. If they are only alike in words but serve different tasks, or one of them is better left on its own, change nothing and answer "No merge." with one sentence on why.

Every change you make is a proposal a person will review before it goes live: make the whole merge, not half of it. Skills outside this list are not yours to change.)";

constexpr const char* k_tools_note =
    "You can only call the skill tools (skills_list, skill_view, skill_manage), the memory tool and the read-only "
    "file tools (read_file, search_files). Other tools will be refused — do not try them.";

}  // namespace

std::string review_prompt(const ReviewPromptChoice& choice) {
  std::string text;
  const bool skills = choice.skills || !choice.memory;  // neither flag: the skill prompt
  if (!choice.merge.empty()) {
    text = k_merge_part;
    text += "\n\nThe overlapping skills:\n";
    for (const auto& [name, description] : choice.merge) {
      text += "- " + name + ": " + description + "\n";
    }
  } else if (skills && choice.memory) {
    text = std::string("This review has two parts.\n\nPart 1, skills.\n") + k_skill_part + "\n\nPart 2, memory.\n" +
           k_memory_part;
  } else if (choice.memory) {
    text = k_memory_part;
  } else {
    text = k_skill_part;
  }
  if (!choice.focus.empty()) {
    text += "\n\nFocus of this review, from the user: " + choice.focus;
  }
  text += "\n\n";
  text += k_tools_note;
  return text;
}

}  // namespace skillrt::core
