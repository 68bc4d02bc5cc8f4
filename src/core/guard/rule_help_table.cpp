// The help of every guard rule (rule_help.hpp): {id, summary, why, fix}, one
// table per category. Data only. A new rule needs an entry here, then
// `skillrt scan --rules --format markdown > docs/guard-rules.md`; the unit
// test rule_help_test fails until both are done.
//
// Style: the summary is one line without a final period; `why` says what the
// rule protects the user from in one or two sentences; `fix` says what the
// skill's author should change. Dismissing is explained once, by the
// renderers, not in each entry.
#include "core/guard/rule_help_table.hpp"

#include <array>

namespace skillrt::core {
namespace {

// Texts several rules share.
constexpr std::string_view k_why_secret_to_network =
    "A secret that reaches a network command can be copied to a server the user never chose; this is how most "
    "malicious skills steal keys.";
constexpr std::string_view k_fix_secret_in_header =
    "Send a credential only where its API expects it (an Authorization header, -u, or the documented key "
    "parameter) and never in the URL path or the body; in examples, use a placeholder such as <YOUR_TOKEN>.";
constexpr std::string_view k_why_credential_dir =
    "This folder holds the user's private credentials: a skill that reads it can copy them, and one that points "
    "the agent at it is usually preparing to.";
constexpr std::string_view k_fix_credential_dir =
    "Do not read the folder; ask the user for the one value the task needs, or use the tool's own login command. "
    "A guide that only says where the files live can keep the line and be dismissed with that reason.";
constexpr std::string_view k_why_env_read =
    "Reading the environment is normal for configuration, so this is informational; it matters when the value "
    "then leaves the machine, which other rules catch.";
constexpr std::string_view k_fix_env_read =
    "Nothing to change when the skill reads the one variable it documents; name that variable in the skill's "
    "setup section so users know what it uses.";
constexpr std::string_view k_why_injection =
    "The agent reads a skill's text as instructions, so a line that overrides its rules can turn it against the "
    "user who installed the skill.";
constexpr std::string_view k_fix_injection =
    "Remove the instruction. A skill that teaches about prompt injection should quote the phrase as an example "
    "(quoted or described phrases are reported one level lower) and be dismissed by an operator after review.";
constexpr std::string_view k_why_hide_from_user =
    "An agent that keeps its actions from the user removes the one check a person has on what a skill makes it "
    "do.";
constexpr std::string_view k_fix_hide_from_user =
    "Say what the skill does and let the agent report it; if the line only orders steps (do X before telling the "
    "user), reword it so it does not read as concealment.";
constexpr std::string_view k_why_reverse_shell =
    "A reverse or bind shell hands an interactive shell on the user's machine to whoever is at the other end of "
    "the connection.";
constexpr std::string_view k_fix_reverse_shell =
    "Remove the command. Security training material that must show it belongs in a skill an operator installs "
    "deliberately, with the finding dismissed in the operator's file.";
constexpr std::string_view k_why_leaked_token =
    "A live credential in a skill can be read by everyone who installs or browses it, and anyone holding it can "
    "act as its owner.";
constexpr std::string_view k_fix_leaked_token =
    "Revoke the credential with its issuer now, remove it from the skill and its history, and have the skill read "
    "the value from an environment variable the user sets.";
constexpr std::string_view k_why_agent_config =
    "Agent instruction and settings files are read at the start of every session, so a write there outlives the "
    "skill and changes what the agent does for every later task.";
constexpr std::string_view k_fix_agent_config =
    "Let the user change their agent configuration themselves: show the lines to add and explain them instead of "
    "writing the file.";
constexpr std::string_view k_why_agent_config_ref =
    "Informational: naming these files is common in guides, and only a write to them is a threat.";
constexpr std::string_view k_fix_agent_config_ref =
    "Nothing to change unless the skill also tells the agent to edit the file.";
constexpr std::string_view k_why_obfuscated =
    "Encoding hides what code does from the person reviewing it, and honest skills rarely need to.";
constexpr std::string_view k_fix_obfuscated =
    "Write the code or command in plain text so a reviewer can read it; decode data only when the data is the "
    "point of the skill.";
constexpr std::string_view k_why_informational_exec =
    "Informational: running programs is what many skills are for; it is reported so a reviewer knows where the "
    "skill starts processes.";
constexpr std::string_view k_fix_informational_exec =
    "Nothing to change if the command is fixed and documented; never build it from untrusted text.";
constexpr std::string_view k_why_pipe_to_interpreter =
    "A script piped from the network into an interpreter runs whatever the server sends at that moment, unseen "
    "and unverified.";
constexpr std::string_view k_fix_pipe_to_interpreter =
    "Download the script to a file, check its checksum or signature, then run it; better, install through the "
    "system's package manager.";
constexpr std::string_view k_why_dependency =
    "Informational: installing dependencies is normal, but each one is code from outside the skill that runs "
    "with the user's rights.";
constexpr std::string_view k_fix_dependency =
    "Pin versions (package==1.2.3, package@1.2.3) and name the packages in the skill's setup section.";
constexpr std::string_view k_why_traversal =
    "A path that climbs out of the skill's folder reaches files the skill does not own.";
constexpr std::string_view k_fix_traversal =
    "Refer to files inside the skill with paths relative to its root, or ask the user for the path they mean.";

// ------------------------------------------------------------ exfiltration
constexpr std::array k_exfiltration{
    RuleHelp{"env_exfil_curl", "curl sends a secret-named environment variable", k_why_secret_to_network,
             k_fix_secret_in_header},
    RuleHelp{"env_exfil_wget", "wget sends a secret-named environment variable", k_why_secret_to_network,
             k_fix_secret_in_header},
    RuleHelp{"env_exfil_fetch", "fetch() interpolates a secret-named variable into a request", k_why_secret_to_network,
             k_fix_secret_in_header},
    RuleHelp{"substitution_exfil",
             "A network command carries the environment or a secrets file through command substitution",
             "Substituting env, history or a key file into curl, wget or nc ships every secret on the machine in "
             "one request.",
             "Remove the substitution; send only the specific, non-secret value the request needs."},
    RuleHelp{"env_exfil_httpx", "An httpx request carries a secret-named value", k_why_secret_to_network,
             "Pass the credential in the headers or auth parameter the API documents, and keep secrets out of URLs "
             "and request bodies."},
    RuleHelp{"env_exfil_requests", "A requests call carries a secret-named value or the environment",
             k_why_secret_to_network,
             "Pass the credential through headers= or auth= as the API documents, and never send os.environ or "
             "secrets in the URL or body."},
    RuleHelp{"pipe_to_network", "Secrets or the environment are piped into a network client",
             "Piping env, shell history or a credentials file into curl, nc or socat sends it to the remote end "
             "verbatim.",
             "Remove the pipe. If a service needs a file, upload only that file, and never one holding keys."},
    RuleHelp{"upload_sensitive_file", "curl or wget uploads a credential or private file",
             "Uploading .env, SSH keys, cloud credentials or shell history hands them to the receiving server.",
             "Upload only the files the task produces; credentials stay on the user's machine."},
    RuleHelp{"pipe_upload", "Piped data is uploaded with curl (-d @- or -T -)",
             "Whatever the previous command printed leaves the machine, and the line does not show what that is.",
             "Write the data to a named file first so the reader sees what is sent, or send a fixed, documented "
             "payload."},
    RuleHelp{"encoded_pipe_network", "Data is encoded and piped straight into a network client",
             "Encoding just before sending is how exfiltration hides its payload from logs and reviewers.",
             "Send data in plain form to a documented endpoint, or remove the command."},
    RuleHelp{"env_secret_harvest", "Secret environment variables are collected into a mapping by name",
             "Gathering every key and token into one object is the usual first step of sending them away.",
             "Read only the variable the code needs, where it needs it, and do not collect secrets together."},
    RuleHelp{"cloud_metadata_access", "The cloud instance metadata service is queried",
             "The metadata endpoint hands out the machine's cloud credentials to any process that asks.",
             "Use the cloud SDK's default credential chain, or ask the user for the value the task needs."},
    RuleHelp{"credential_disclosure_request", "The agent is asked to reveal a credential in its reply",
             "Credentials printed into a conversation end up in transcripts, logs and anywhere the chat is shared.",
             "Have the skill check that a credential is set (e.g. test -n \"$TOKEN\") without ever showing its "
             "value."},
    RuleHelp{"netcat_send", "Data is piped into a raw netcat connection",
             "netcat sends bytes to an arbitrary host and port with no protocol or logging, which is ideal for "
             "smuggling data out.",
             "Use the documented client of the service (an HTTPS API, scp) or remove the command."},
    RuleHelp{"encoded_exfil", "The environment or a secret is base64-encoded",
             "Encoding secrets is a common step before sending them, because it hides them from filters and "
             "reviewers.",
             "Remove the encoding of secrets; if a service needs base64 credentials (Basic auth), let the client "
             "library build the header."},
    RuleHelp{"ssh_dir_access", "Refers to the user's SSH folder (~/.ssh)", k_why_credential_dir, k_fix_credential_dir},
    RuleHelp{"aws_dir_access", "Refers to the user's AWS credentials folder (~/.aws)", k_why_credential_dir,
             k_fix_credential_dir},
    RuleHelp{"gpg_dir_access", "Refers to the user's GnuPG keyring (~/.gnupg)", k_why_credential_dir,
             k_fix_credential_dir},
    RuleHelp{"kube_dir_access", "Refers to the user's Kubernetes credentials (~/.kube)", k_why_credential_dir,
             k_fix_credential_dir},
    RuleHelp{"docker_dir_access", "Refers to the user's Docker credentials (~/.docker)", k_why_credential_dir,
             k_fix_credential_dir},
    RuleHelp{"hermes_env_access", "Reads the agent's own secrets file (.hermes/.env)",
             "That file holds every API key the agent uses; a skill has no reason to read it directly.",
             "Have the skill name the variables it needs; the runtime already loads them into the environment."},
    RuleHelp{"read_secrets_file", "Prints a credentials or private-key file",
             "Printing a key file puts the secret into the agent's context, its transcript and any log of the "
             "session.",
             "Check that the file exists (test -f) instead of printing it, and let tools read their own "
             "credentials."},
    RuleHelp{"js_read_secrets_file", "Code reads a credentials or private-key file",
             "Code that opens SSH keys, .env files or credential stores can copy them anywhere the code can reach.",
             "Read configuration from the environment or a file the user names; never open other tools' "
             "credential files."},
    RuleHelp{"browser_credential_store", "Touches a browser, wallet or keychain credential store",
             "Browser login databases, cookie stores and wallets hold the user's sessions and money; reading them "
             "is what infostealer malware does.",
             "Remove the access. A skill that needs a website session should ask the user to sign in through the "
             "site's own flow."},
    RuleHelp{"dump_all_env", "Collects the whole environment (env, printenv, export -p)",
             "The full environment usually includes tokens and keys; dumping it puts them all in one place.",
             "Print or read only the variables the task needs (printenv NAME)."},
    RuleHelp{"env_collect_all", "Collects the whole environment into one value",
             "Serialising os.environ or process.env bundles every secret the process has into something easy to "
             "send.",
             "Read the specific variables the code needs instead of copying the whole environment."},
    RuleHelp{"python_os_environ", "Python reads the process environment", k_why_env_read, k_fix_env_read},
    RuleHelp{"python_environ_get_secret", "Python reads a secret-named environment variable (os.environ)",
             k_why_env_read, k_fix_env_read},
    RuleHelp{"python_getenv_secret", "Reads a secret-named environment variable (getenv)", k_why_env_read,
             k_fix_env_read},
    RuleHelp{"node_process_env", "JavaScript indexes process.env dynamically", k_why_env_read, k_fix_env_read},
    RuleHelp{"ruby_env_secret", "Ruby reads a secret-named environment variable", k_why_env_read, k_fix_env_read},
    RuleHelp{"dns_exfil", "A DNS lookup of a name built from data",
             "Putting data into the host name of a DNS query sends it through the resolver, past most firewalls.",
             "Look up fixed host names only; never build them from command output or variables."},
    RuleHelp{"dns_exfil_code", "Code resolves a host name built at run time",
             "A name assembled from data leaks that data to whoever runs the domain's name server.",
             "Resolve only fixed, documented host names."},
    RuleHelp{"tmp_staging", "Data is staged in /tmp and then shipped out",
             "Collecting output in a temporary file and sending it in the same line is a typical exfiltration "
             "pattern.",
             "Keep intermediate files inside the task's working folder and show the user what is sent before "
             "sending it."},
    RuleHelp{"md_image_exfil", "A Markdown image whose URL carries interpolated data",
             "A client that renders the image fetches the URL at once, sending the data to its host without a "
             "click.",
             "Use fixed image URLs, or better, images shipped in the skill's assets/ folder."},
    RuleHelp{"md_link_exfil", "A Markdown link whose query string carries interpolated data",
             "A link that embeds conversation data sends it to the link's host as soon as someone follows it.",
             "Link to fixed URLs; let the user paste data into a site themselves."},
    RuleHelp{"context_exfil", "Asks the agent to send the conversation or user data somewhere",
             "The conversation holds the user's private data and often secrets; shipping it out is a data leak "
             "even when the target looks harmless.",
             "Remove the instruction; if sharing is the purpose, have the agent ask the user before sending "
             "anything."},
    RuleHelp{"send_to_url", "Tells the agent to send data to a URL",
             "An instruction to post files, keys or output to an address moves the user's data off the machine "
             "on the skill author's word.",
             "State the service and what is sent, and have the agent confirm with the user; never send secrets or "
             "whole files."},
    RuleHelp{"exfil_sensitive_instruction", "Prose asks the agent to collect secrets and send them out",
             "An instruction to gather keys, passwords or tokens for an outside party is credential theft carried "
             "out by the agent.",
             "Remove the instruction."},
    RuleHelp{"data_forwarding", "Tells the agent to send the user's data, secrets or conversation somewhere",
             "An instruction to forward what the user shares moves private data to a destination the user never "
             "chose, one message at a time.",
             "Remove the instruction; if sending is the skill's purpose, name the service and have the agent ask "
             "the user before each send."},
    RuleHelp{"git_push_url", "Pushes the repository to a literal URL (or mirrors it)",
             "Pushing to an address written into the skill copies the user's code, and any secret in it, to "
             "someone else's server.",
             "Push to the remotes the user configured (git push origin); never to a URL chosen by the skill."},
    RuleHelp{"secret_file_flow", "A script reads a credentials or key file and sends it over the network",
             "The file holds the user's keys or passwords however its path is pieced together, and the same script "
             "hands its content to a network call: that is credential theft.",
             "Do not read other tools' credential files; ask the user for the one value the task needs, or let the "
             "service's own client read its credentials, and send only what the task produces."},
    RuleHelp{"agent_memory_flow", "A script sends the agent's memory, session logs or shell history over the network",
             "Memory files, session transcripts and shell history hold what the user told the agent and typed, "
             "secrets included; sending them away leaks the user's private context.",
             "Keep memory and history on the machine; if syncing notes is the skill's purpose, let the user pick the "
             "service and confirm what is sent."},
    RuleHelp{"env_secret_flow",
             "A script sends a secret environment variable, or the whole environment, over the network",
             "A key that leaves in a request body or a command's data goes to whoever runs that server, and the "
             "whole environment carries every key at once.",
             "Send a credential only to the API it belongs to, as that API expects it (a header or auth parameter), "
             "and read only the variables the task needs instead of the whole environment."},
};

// ------------------------------------------------------------ injection
constexpr std::array k_injection{
    RuleHelp{"prompt_injection_ignore", "Tells the agent to ignore its previous or system instructions",
             k_why_injection, k_fix_injection},
    RuleHelp{"role_hijack", "Tries to give the agent a new identity (\"you are now…\")", k_why_injection,
             "Describe the task (\"review the diff for…\") instead of redefining who the agent is."},
    RuleHelp{"deception_hide", "Tells the agent to keep the user uninformed", k_why_hide_from_user,
             k_fix_hide_from_user},
    RuleHelp{"silent_action", "Asks for an action to be done silently or secretly", k_why_hide_from_user,
             k_fix_hide_from_user},
    RuleHelp{"confirmation_bypass", "Tells the agent not to ask the user for confirmation or approval",
             "Confirmation prompts are where the user decides; an instruction to skip them lets the skill act "
             "without that decision.",
             "Let the agent ask as it normally would, and say in the skill which steps will need the user's "
             "approval."},
    RuleHelp{"hide_from_user", "Tells the agent to keep what it did out of what the user sees", k_why_hide_from_user,
             "Remove the instruction: the agent should report every command and change it makes for the skill."},
    RuleHelp{"sys_prompt_override", "Claims to override or replace the system prompt", k_why_injection,
             k_fix_injection},
    RuleHelp{"fake_system_tag", "Imitates a system or developer message tag",
             "Fake <system> or [admin] markers try to give text the authority of the agent's operator.",
             "Remove the tag; a skill speaks with a skill's authority, and plain headings are enough."},
    RuleHelp{"role_pretend", "Asks the agent to pretend to be something else or to have no rules", k_why_injection,
             "Describe the persona's task and tone without telling the agent it has no rules."},
    RuleHelp{"disregard_rules", "Tells the agent to disregard its rules or safety guidance", k_why_injection,
             k_fix_injection},
    RuleHelp{"leak_system_prompt", "Asks the agent to reveal its system prompt",
             "The system prompt can hold the operator's private configuration and other skills' content.",
             "Remove the request; a skill has no need to read the agent's instructions."},
    RuleHelp{"conditional_deception", "Behaves differently when nobody is watching or during a test",
             "Behaviour that changes when unobserved is designed to pass review and misbehave later.",
             "Remove the condition; a skill must act the same whether or not it is observed."},
    RuleHelp{"bypass_restrictions", "Asks the agent to act as if it had no restrictions", k_why_injection,
             k_fix_injection},
    RuleHelp{"translate_execute", "Asks for hidden text to be decoded and then executed",
             "Decode-then-run instructions keep the real command out of sight of the reviewer and the guard.",
             "Write the command in plain text so it can be reviewed."},
    RuleHelp{"html_comment_injection", "An HTML comment carries instructions for the agent",
             "HTML comments are hidden when Markdown is rendered, so a person never sees what the agent reads.",
             "Put guidance in visible text, or delete the comment."},
    RuleHelp{"hidden_div", "An HTML element hidden from a human reader (display:none, zero size, white text)",
             "Hidden elements carry text the agent reads but the reviewer never sees.",
             "Remove the hidden element; everything a skill says should be visible."},
    RuleHelp{"jailbreak_dan", "A \"DAN\" / \"do anything now\" jailbreak phrase", k_why_injection, k_fix_injection},
    RuleHelp{"jailbreak_dev_mode", "A jailbreak \"mode\" phrase (developer, god, unrestricted mode)", k_why_injection,
             k_fix_injection},
    RuleHelp{"hypothetical_bypass", "Uses a hypothetical framing to get rules bypassed", k_why_injection,
             "State the real task directly; do not wrap requests to break rules in hypotheticals."},
    RuleHelp{"educational_pretext", "\"For educational purposes only\" framing",
             "Informational: the phrase is a classic pretext for asking for harmful output, though also common in "
             "honest material.",
             "Nothing to change on its own; make sure the content does not rely on the pretext."},
    RuleHelp{"remove_filters", "Asks for answers without safety filters or restrictions", k_why_injection,
             k_fix_injection},
    RuleHelp{"disable_safety", "Turns off the agent's safety, approval or sandbox checks",
             "Approval prompts and sandboxes are how the user stays in control; a skill that switches them off "
             "acts without that check.",
             "Keep the checks on and document which commands the user will be asked to approve; a flag like "
             "--dangerously-skip-permissions belongs to the user's choice, not a skill's instructions."},
    RuleHelp{"security_toggle_off", "Switches a security control off in configuration",
             "Settings like enforcement=false or sandbox: off silently remove a protection for everything that "
             "runs later.",
             "Leave the control on; if a setting must change, tell the user what and why and let them do it."},
    RuleHelp{"policy_file_rewrite", "Rewrites the agent's permission or policy file",
             "Editing allowlists or policy files grants the skill, or whatever runs next, rights the user never "
             "approved.",
             "Ask the user to grant the specific permission the task needs."},
    RuleHelp{"tls_verify_disabled", "Turns off TLS certificate verification",
             "Without certificate checks anyone on the network path can read and change the traffic, downloads "
             "included.",
             "Keep verification on; for a private CA, point the tool at the CA bundle instead."},
    RuleHelp{"approval_carryover", "Claims an approval the user never gave",
             "Telling the agent that something is already approved skips the confirmation the user relies on.",
             "Let the agent ask the user; a skill cannot grant approvals on the user's behalf."},
    RuleHelp{"fake_update", "Claims the agent has been updated or reprogrammed", k_why_injection, k_fix_injection},
    RuleHelp{"fake_policy", "Claims a new policy from the vendor or the system",
             "Informational: invoking the vendor's or operator's authority is a pressure tactic to make the agent "
             "comply.",
             "Speak for the skill only; do not attribute instructions to the model vendor or the system."},
    RuleHelp{"priority_override", "Claims precedence over the agent's other instructions", k_why_injection,
             "Remove the precedence claim; describe the task and let the agent weigh it with its other "
             "instructions."},
    RuleHelp{"tool_output_injection", "Text addressed to an AI agent reading it (\"note to the AI…\")",
             "Messages aimed at whichever model reads the file are how injected instructions ride along in "
             "documents and tool output.",
             "Write instructions as the skill's normal steps, addressed to no particular reader."},
    RuleHelp{"remote_instructions", "Tells the agent to take instructions from a remote URL",
             "Instructions fetched at run time can change after the skill was reviewed, so the review means "
             "nothing.",
             "Put the instructions in the skill itself; fetch data, never directives."},
    RuleHelp{"unbounded_retry", "Tells the agent to retry without bound, or until it finds a credential",
             "Endless retries burn the user's money and quota, and retrying until a key turns up is credential "
             "hunting.",
             "Set a retry limit and tell the agent to stop and report to the user when it is reached."},
};

// ------------------------------------------------------------ destructive
constexpr std::array k_destructive{
    RuleHelp{"destructive_root_rm", "Recursive forced removal at the filesystem root or a system folder",
             "rm -rf of / or a system folder destroys the operating system or the user's data with no way back.",
             "Delete only paths the skill created, named explicitly and relative to its working folder."},
    RuleHelp{"destructive_home_rm", "Recursive removal of the home folder or a dotfile folder in it",
             "Removing ~ or a folder such as ~/.config wipes the user's files and settings.",
             "Delete only the files the skill created, by exact path."},
    RuleHelp{"insecure_perms", "Makes files world-writable (chmod 777, a+rwx, o+w)",
             "World-writable files can be changed by any user or process on the machine, including into "
             "something that runs.",
             "Grant the minimum (chmod 755 for a script, 644 for data, u+x to make it runnable)."},
    RuleHelp{"insecure_perms_system", "Opens a system folder to every user, or hands it to root",
             "Loosening permissions on /etc, /usr or similar lets any local user change the system.",
             "Leave system permissions alone; install into user-owned folders instead."},
    RuleHelp{"system_overwrite", "Writes into a system configuration file under /etc",
             "Files like /etc/passwd, sudoers, hosts or crontab control accounts, privileges and name resolution "
             "for the whole machine.",
             "Tell the user what to change and let them do it with their own tools; never write /etc from a "
             "skill."},
    RuleHelp{"format_filesystem", "Formats or wipes a block device (mkfs, wipefs, shred of a disk)",
             "Formatting a device destroys everything on it.",
             "Remove the command; disk preparation is a task for the user, not a skill."},
    RuleHelp{"disk_overwrite", "Overwrites a raw disk (dd of=/dev/sd…)",
             "Writing over a disk device destroys its partitions and data.",
             "Write images to files, never to a device; let the user do device writes by hand."},
    RuleHelp{"python_rmtree", "Recursive delete of an absolute or home path in Python",
             "Informational: shutil.rmtree on a path outside the working folder can remove far more than "
             "intended.",
             "Delete only folders the code created, and resolve them below a known root first."},
    RuleHelp{"truncate_system", "Wipes logs or shell history (covering tracks)",
             "Clearing logs and history hides what happened from the user and from incident response.",
             "Remove the command; a skill has no reason to erase logs or history."},
    RuleHelp{"fork_bomb", "A fork bomb", "A fork bomb spawns processes until the machine stops responding.",
             "Remove it. A hook that blocks fork bombs can match on a safer fragment, or be dismissed by the "
             "operator."},
    RuleHelp{"git_history_destroy", "Force-pushes over a shared branch",
             "Informational: a forced push to main or master rewrites history that others rely on and can destroy "
             "work.",
             "Push to a feature branch, or use --force-with-lease on branches the user owns."},
};

// ------------------------------------------------------------ persistence
constexpr std::array k_persistence{
    RuleHelp{"persistence_cron", "Schedules jobs with cron",
             "Informational: a cron job keeps running after the skill is gone; worth knowing what it runs.",
             "Document the job and how to remove it, or let the user schedule it."},
    RuleHelp{"cron_remote_payload", "A cron job that fetches and runs remote code",
             "A scheduled download-and-run gives whoever controls the URL a standing way into the machine.",
             "Remove it; schedule only local, reviewed scripts, and let the user install the schedule."},
    RuleHelp{"shell_rc_mod", "Mentions a shell startup file (.bashrc, .zshrc, .profile)",
             "Informational: startup files run in every new shell, so changes there persist.",
             "Nothing to change for a mention; show users the line to add rather than adding it."},
    RuleHelp{"shell_rc_inject", "Appends to a shell startup file",
             "Whatever is appended runs in every future shell the user opens, long after the skill finished.",
             "Print the line for the user to add themselves, and explain what it does."},
    RuleHelp{"shell_rc_payload", "Plants a network or decode payload in a shell startup file",
             "A download, decode or reverse connection in a startup file runs each time a shell starts: a "
             "backdoor.",
             "Remove the line."},
    RuleHelp{"ssh_backdoor", "Writes to SSH authorized_keys",
             "Adding a key to authorized_keys lets its owner log into the machine at any time.",
             "Let the user add keys themselves (ssh-copy-id run by them); a skill must not grant SSH access."},
    RuleHelp{"ssh_authorized_keys_ref", "Mentions SSH authorized_keys",
             "Informational: the file controls who may log in; a mention is often documentation.",
             "Nothing to change unless the skill writes the file."},
    RuleHelp{"ssh_keygen", "Generates SSH keys",
             "Informational: new keys are harmless on their own, but where they are copied matters.",
             "Generate keys only when the task needs them, and say where they are written."},
    RuleHelp{"systemd_service", "Installs, enables or starts a systemd service",
             "Informational: a service keeps running in the background and across reboots.",
             "Document the unit and how to disable it, or leave enabling it to the user."},
    RuleHelp{"init_script", "Installs an init script (/etc/init.d, rc.local)",
             "Informational: init scripts run as root at every boot.",
             "Use a user-level service or leave system start-up to the user."},
    RuleHelp{"macos_launchd", "Installs or loads a launchd agent or daemon",
             "Informational: launch agents start automatically at login or boot.",
             "Document the agent and how to unload it, or let the user install it."},
    RuleHelp{"sudoers_mod", "Touches the sudoers policy",
             "sudoers decides who may run what as root; a change there is a privilege grant.",
             "Never edit sudoers from a skill; tell the user which command needs elevated rights."},
    RuleHelp{"git_config_global", "Changes global or system git configuration",
             "Informational: global settings affect every repository of the user, not just the task's.",
             "Use git config --local, or per-command -c settings."},
    RuleHelp{"git_hook_install", "Installs a git hook",
             "A hook runs on every commit, checkout or push, in every later session, without being asked.",
             "Ship the hook as a script and tell the user how to install it."},
    RuleHelp{"agent_config_mod",
             "Tells the agent to modify another agent's instruction file (AGENTS.md, "
             "CLAUDE.md, .cursorrules)",
             k_why_agent_config, k_fix_agent_config},
    RuleHelp{"agent_config_mod_shell", "A shell command writes into an agent instruction file", k_why_agent_config,
             k_fix_agent_config},
    RuleHelp{"agent_config_contract", "Describes what an agent instruction file must contain", k_why_agent_config_ref,
             k_fix_agent_config_ref},
    RuleHelp{"agent_config_ref", "Mentions an agent instruction file", k_why_agent_config_ref, k_fix_agent_config_ref},
    RuleHelp{"hermes_config_mod",
             "Tells the agent to modify its own configuration (.hermes/config.yaml, "
             "SOUL.md, memories, .env)",
             k_why_agent_config, k_fix_agent_config},
    RuleHelp{"hermes_config_mod_shell", "A shell command writes into the agent's own configuration", k_why_agent_config,
             k_fix_agent_config},
    RuleHelp{"hermes_config_ref", "Mentions the agent's own configuration files", k_why_agent_config_ref,
             k_fix_agent_config_ref},
    RuleHelp{"other_agent_config_mod",
             "Tells the agent to modify another agent's settings (.claude/settings, "
             ".codex/config, MCP configs)",
             k_why_agent_config, k_fix_agent_config},
    RuleHelp{"other_agent_config_mod_shell", "A shell command writes into another agent's settings", k_why_agent_config,
             k_fix_agent_config},
    RuleHelp{"other_agent_config_ref", "Mentions another agent's settings files", k_why_agent_config_ref,
             k_fix_agent_config_ref},
    RuleHelp{"agent_instruction_plant",
             "Tells the agent to plant instructions in another agent's instruction or config files in the home "
             "folder",
             k_why_agent_config, k_fix_agent_config},
    RuleHelp{"memory_poisoning", "Tries to plant a standing instruction in the agent's memory",
             "A rule stored in memory applies to every future conversation, long after this skill is gone.",
             "Keep instructions in the skill, where they apply only when it is used and can be reviewed."},
    RuleHelp{"startup_persistence", "Registers a program to run at login (Run keys, scheduled tasks, autostart)",
             "Login and scheduled-task entries keep a program running without the user starting it.",
             "Let the user set up automatic start-up themselves, with the skill documenting how."},
};

// ------------------------------------------------------------ network
constexpr std::array k_network{
    RuleHelp{"reverse_shell", "A reverse or bind shell with netcat, socat or mkfifo", k_why_reverse_shell,
             k_fix_reverse_shell},
    RuleHelp{"netcat_listener", "A netcat listener",
             "A listening netcat accepts connections from the network, often as the receiving end of a shell or a "
             "data drop.",
             "Use a purpose-built server bound to localhost, or remove the listener."},
    RuleHelp{"tunnel_service", "Exposes the machine through a public tunnel (ngrok, cloudflared, serveo…)",
             "A tunnel makes a local service reachable from the internet, past the user's firewall.",
             "Leave exposing services to the user; if the skill needs a public URL, say so and let them choose."},
    RuleHelp{"hardcoded_ip_port", "A hard-coded IP address and port",
             "Informational: fixed addresses are common in examples but also where payloads phone home.",
             "Use host names the user configures, or placeholders in examples."},
    RuleHelp{"raw_ip_url", "An HTTP request to a bare IP address",
             "A server known only by IP has no name to check or revoke, which is why attackers use them.",
             "Use the service's host name over HTTPS."},
    RuleHelp{"bind_all_interfaces", "Listens on every network interface (0.0.0.0, INADDR_ANY)",
             "Informational: a service bound to all interfaces is reachable from the network, not just this "
             "machine.",
             "Bind to 127.0.0.1 unless other machines must connect."},
    RuleHelp{"bash_reverse_shell", "A shell redirected through /dev/tcp (reverse shell)", k_why_reverse_shell,
             k_fix_reverse_shell},
    RuleHelp{"python_socket_oneliner", "A python -c one-liner that opens a socket", k_why_reverse_shell,
             k_fix_reverse_shell},
    RuleHelp{"python_socket_connect", "Code opens an outbound socket connection",
             "A raw socket to a fixed address is how implants reach their controller.",
             "Use the service's documented client library over HTTPS, with the host configurable."},
    RuleHelp{"socket_dup2_shell", "A socket wired to an interactive shell (dup2, sh -i)", k_why_reverse_shell,
             k_fix_reverse_shell},
    RuleHelp{"pty_shell_spawn", "Spawns an interactive shell on a pseudo-terminal",
             "pty.spawn of a shell is the classic upgrade of a reverse shell into a full terminal.",
             "Run the specific command the task needs instead of an interactive shell."},
    RuleHelp{"scripting_reverse_shell", "A Perl, Ruby, PHP or Node reverse shell", k_why_reverse_shell,
             k_fix_reverse_shell},
    RuleHelp{"exfil_service", "A request-capture service known for exfiltration (webhook.site, interact.sh…)",
             "These services exist to receive arbitrary requests and show them to whoever owns the bucket.",
             "Send data only to the service the skill is about, under the user's account."},
    RuleHelp{"chat_webhook_exfil", "A chat webhook endpoint (Discord, Slack, Telegram bot)",
             "Informational: chat webhooks are a handy drop box for stolen data, though also used for honest "
             "notifications.",
             "Read the webhook URL from the user's configuration instead of writing it into the skill."},
    RuleHelp{"paste_service", "A paste or anonymous file-drop service",
             "Informational: anonymous paste and file-drop sites are used both to host payloads and to receive "
             "stolen data.",
             "Host files where the user can see who owns them, or ship them in the skill."},
};

// ------------------------------------------------------------ obfuscation
constexpr std::array k_obfuscation{
    RuleHelp{"base64_decode_pipe", "base64 is decoded straight into an interpreter",
             "Decoding into sh or python runs code that nobody reviewing the skill could read.",
             "Write the script in plain text in the skill (scripts/ is the place for it)."},
    RuleHelp{"base64_decode", "Decodes base64", k_why_obfuscated, k_fix_obfuscated},
    RuleHelp{"download_decode", "Downloads data and decodes it in the same command",
             "Fetching an encoded blob and decoding it is how second-stage payloads are delivered.",
             "Download plain, verifiable files and check their checksum."},
    RuleHelp{"encoded_payload_literal", "A base64 literal that decodes to a URL, a script or a shell command",
             "Encoding a URL or command in the skill hides it from the reviewer and from text scans.",
             "Write the URL or command in plain text."},
    RuleHelp{"decode_exec_code", "Code decodes hidden code and executes it",
             "exec(b64decode(…)) and similar run a payload whose content is invisible in the source.",
             "Put the code itself in the source file."},
    RuleHelp{"hex_encoded_string", "A long hex-escaped string", k_why_obfuscated, k_fix_obfuscated},
    RuleHelp{"eval_string", "eval of a string literal",
             "Informational: eval runs text as code, which hides what runs and invites injection.",
             "Call the code directly instead of through eval."},
    RuleHelp{"exec_string", "exec of a string literal",
             "Informational: exec runs text as code, which hides what runs and invites injection.",
             "Call the code directly instead of through exec."},
    RuleHelp{"exec_dynamic", "Executes a string held in a variable (eval/exec)",
             "Running a variable as code executes whatever ends up in it, possibly text from the network or the "
             "user.",
             "Replace dynamic evaluation with explicit code paths or a safe parser (json, ast.literal_eval)."},
    RuleHelp{"shell_eval_remote", "Evaluates a remotely fetched script (eval $(curl…), source <(curl…))",
             k_why_pipe_to_interpreter, k_fix_pipe_to_interpreter},
    RuleHelp{"echo_pipe_exec", "Echoes text straight into an interpreter or decoder",
             "Piping an echoed string into a shell or decoder runs code in a form made to be hard to read.",
             "Put the commands in a script file that a reviewer can read."},
    RuleHelp{"python_compile_exec", "Compiles a string for exec",
             "compile(…, 'exec') is a way to run code assembled at run time, out of sight of a reviewer.",
             "Write the code directly."},
    RuleHelp{"python_getattr_builtins", "Reaches builtins dynamically (getattr(__builtins__, …))",
             "Looking up builtins by name is how code hides calls such as eval or __import__ from scanners.",
             "Call the function by its name."},
    RuleHelp{"python_import_os", "Dynamic import of a system module (__import__('os'))",
             "Importing os, subprocess or socket by string hides that the code runs commands or opens "
             "connections.",
             "Use a normal import statement at the top of the file."},
    RuleHelp{"python_codecs_decode", "rot13 decoding",
             "Informational: rot13 serves no purpose but to keep text unreadable.", "Store the text in plain form."},
    RuleHelp{"js_char_code", "Builds a string from character codes (String.fromCharCode)", k_why_obfuscated,
             k_fix_obfuscated},
    RuleHelp{"js_base64", "base64 in JavaScript (atob, btoa)",
             "Informational: base64 has honest uses, but combined with eval it hides code.",
             "Nothing to change for data; never eval what was decoded."},
    RuleHelp{"string_reversal", "Reverses a string before use",
             "Informational: reversing text before running it is a trick to keep commands unreadable.",
             "Write the string the way it is used."},
    RuleHelp{"chr_building", "Builds a string character by character (chr()+chr()+…)",
             "Assembling text one character code at a time exists to hide what the text says.",
             "Write the string literally."},
    RuleHelp{"unicode_escape_chain", "A long unicode-escaped string", k_why_obfuscated, k_fix_obfuscated},
    RuleHelp{"long_base64_blob", "A long base64 literal",
             "Informational: large encoded blobs can hide binaries or scripts inside a text file.",
             "Ship binary data as a file in assets/, and code as readable source."},
};

// ------------------------------------------------------------ execution
constexpr std::array k_execution{
    RuleHelp{"python_subprocess", "Runs a subprocess", k_why_informational_exec, k_fix_informational_exec},
    RuleHelp{"subprocess_shell_true", "Runs a subprocess through the shell (shell=True)",
             "Informational: with shell=True any untrusted text in the command becomes shell syntax (command "
             "injection).",
             "Pass the command as a list without shell=True."},
    RuleHelp{"python_os_system", "Runs a shell command (os.system)",
             "Informational: os.system hands the whole string to the shell, so untrusted parts become commands.",
             "Use subprocess.run with an argument list."},
    RuleHelp{"python_os_popen", "Runs a shell command (os.popen)",
             "Informational: os.popen hands the whole string to the shell, so untrusted parts become commands.",
             "Use subprocess.run with an argument list and capture_output=True."},
    RuleHelp{"node_child_process", "Runs a child process (Node child_process)", k_why_informational_exec,
             "Prefer execFile or spawn with an argument array over exec with a command string."},
    RuleHelp{"inline_child_process", "An inline require('child_process').exec(…) call",
             "Requiring child_process inline and running a command in the same expression is the shape of an "
             "injected payload, not of ordinary code.",
             "Import child_process at the top of the module and run fixed, documented commands."},
    RuleHelp{"sql_string_building", "SQL built from an f-string",
             "Informational: formatting values into SQL lets crafted input change the query (SQL injection).",
             "Use the driver's parameter placeholders (cursor.execute(\"… WHERE id = ?\", (value,)))."},
    RuleHelp{"java_runtime_exec", "Runs a process from Java (Runtime.exec)", k_why_informational_exec,
             "Use ProcessBuilder with a fixed argument list."},
    RuleHelp{"backtick_subshell", "Command substitution inside backticks", k_why_informational_exec,
             "Nothing to change in an example; in commands the agent runs, prefer plain steps over nested "
             "substitution."},
    RuleHelp{"command_exec_secret", "Code runs a network command that carries secrets",
             "Code that shells out to curl or nc with keys, the environment or password files is sending them "
             "away.",
             "Use an HTTP library with the credential in the header the API expects, and never send files of "
             "secrets."},
    RuleHelp{"download_execute", "Downloads a file and runs it",
             "Running a freshly downloaded file executes whatever the server sent, with no review.",
             "Verify the download's checksum or signature before running it, or install from a package manager."},
    RuleHelp{"powershell_download_exec", "PowerShell download-and-execute (iex of a download)",
             k_why_pipe_to_interpreter, k_fix_pipe_to_interpreter},
    RuleHelp{"powershell_encoded_command", "A PowerShell encoded command (-enc)",
             "-EncodedCommand hides the whole script in base64, which is why malware uses it.",
             "Ship the script as a readable .ps1 file and run it by name."},
    RuleHelp{"security_tool_disable",
             "Disables a host security control (Defender, SELinux, Gatekeeper, "
             "firewall, auditd)",
             "Turning off the machine's protections leaves it open to whatever runs next, and is rarely undone.",
             "Never disable host security from a skill; explain what is blocked so the user can allow that one "
             "thing."},
    RuleHelp{"quarantine_removal", "Removes the macOS quarantine flag from a download",
             "Informational: clearing com.apple.quarantine skips Gatekeeper's check of the downloaded program.",
             "Let macOS check the program, or install it from a signed source."},
    RuleHelp{"binary_payload_exec", "Makes a dropped binary executable, or preloads a library",
             "Marking a file in /tmp or a payload-named file executable, or setting LD_PRELOAD, is how implants "
             "start.",
             "Install programs through a package manager; never preload libraries into other processes."},
};

// ------------------------------------------------------------ traversal
constexpr std::array k_traversal{
    RuleHelp{"path_traversal_deep", "A deep relative path climbing out of the skill (../../../)", k_why_traversal,
             k_fix_traversal},
    RuleHelp{"path_traversal", "A relative path climbing two levels (../..)",
             "Informational: climbing out of the skill's folder can reach files it does not own.", k_fix_traversal},
    RuleHelp{"path_traversal_sensitive", "A relative path climbing out to a sensitive system file",
             "Climbing up to /etc/passwd, keys or /proc is an attempt to read files the skill has no business with.",
             k_fix_traversal},
    RuleHelp{"system_passwd_access", "Refers to the system account database (/etc/passwd, /etc/shadow)",
             "The account database lists the machine's users, and shadow holds their password hashes.",
             "Remove the access; use id or getent for the one user the task needs."},
    RuleHelp{"proc_access", "Reads another process's memory or environment through /proc",
             "/proc/<pid>/environ and mem expose other programs' secrets.",
             "Read only your own process's information, through the language's API."},
    RuleHelp{"dev_shm", "Uses /dev/shm",
             "Informational: shared memory is a favourite spot for dropped payloads because it is writable and "
             "often not scanned.",
             "Use a temporary folder created for the task (mktemp -d)."},
};

// ------------------------------------------------------------ mining
constexpr std::array k_mining{
    RuleHelp{"crypto_mining", "A cryptocurrency miner or mining pool",
             "A miner spends the user's CPU, power and cloud bill on someone else's income.", "Remove the miner."},
    RuleHelp{"mining_indicators", "Mining vocabulary or a wallet address",
             "Informational: hash rates, pools and wallets often accompany hidden miners.",
             "Nothing to change if the skill is about cryptocurrency; make sure nothing starts mining."},
};

// ------------------------------------------------------------ supply_chain
constexpr std::array k_supply_chain{
    RuleHelp{"curl_pipe_shell", "Pipes a downloaded script into a shell (curl … | sh)", k_why_pipe_to_interpreter,
             k_fix_pipe_to_interpreter},
    RuleHelp{"curl_pipe_python", "Pipes a downloaded script into an interpreter (python, perl, ruby, node, php)",
             k_why_pipe_to_interpreter, k_fix_pipe_to_interpreter},
    RuleHelp{"curl_pipe_shell_raw_host",
             "Pipes a script from an unaccountable host (raw IP, throwaway domain, "
             "paste site) into an interpreter",
             "A script from a bare IP, a tunnel or a disposable domain has no owner to hold to account and can "
             "change at any time.",
             "Install from the project's official domain or a package manager, after checking a checksum."},
    RuleHelp{"pep723_inline_deps", "Inline script dependencies (PEP 723)", k_why_dependency, k_fix_dependency},
    RuleHelp{"unpinned_pip_install", "Installs a Python package", k_why_dependency, k_fix_dependency},
    RuleHelp{"pip_untrusted_index", "Installs Python packages from a non-default index",
             "An extra index can serve a look-alike of any package name, including ones meant to come from PyPI "
             "(dependency confusion).",
             "Install from PyPI, or from the organisation's index configured by the user in pip.conf."},
    RuleHelp{"pip_install_url", "Installs a Python package straight from a URL",
             "A package fetched from a URL bypasses the index's names, versions and hashes.",
             "Install a released version from PyPI, or pin a git URL to a commit hash."},
    RuleHelp{"npm_untrusted_registry", "Installs npm packages from a non-default registry",
             "A foreign registry can serve a malicious package under a trusted name.",
             "Install from the public npm registry or the one the user configured in .npmrc."},
    RuleHelp{"install_script_hook", "A package install hook runs a network or decode command",
             "preinstall and postinstall scripts run on every install, so a download or decode there is a "
             "supply-chain payload.",
             "Remove network and decode commands from install hooks; ship what the package needs inside it."},
    RuleHelp{"unpinned_npm_install", "Installs an npm package", k_why_dependency, k_fix_dependency},
    RuleHelp{"uv_run", "Runs a script with uv", k_why_dependency,
             "Pin the dependencies the script declares, and document the command."},
    RuleHelp{"remote_fetch", "Fetches a remote resource",
             "Informational: downloads are common, but what they return is not part of the reviewed skill.",
             "Fetch from documented, stable URLs over HTTPS, and never run what was fetched."},
    RuleHelp{"git_clone", "Clones a repository",
             "Informational: cloned code is outside the reviewed skill and may run through its build.",
             "Clone a pinned tag or commit of a known project."},
    RuleHelp{"docker_pull", "Pulls a container image",
             "Informational: an image is someone else's code; an unpinned tag can change under you.",
             "Pull by digest (image@sha256:…) from a publisher you trust."},
    RuleHelp{"name_lookalike", "The skill's name imitates a well-known name one letter away (typosquatting)",
             "A name one slip from a trusted tool or package borrows that name's trust, so users install it by "
             "mistake.",
             "Rename the skill to a name of its own; if the spelling is intended, say so and have an operator "
             "dismiss the finding."},
    RuleHelp{"docker_privileged",
             "Runs a container with host-level access (--privileged, host PID, / or the "
             "Docker socket mounted)",
             "Such a container can control the host completely, so the isolation the user expects is gone.",
             "Drop --privileged and host mounts; grant only the specific device or capability needed."},
};

// ------------------------------------------------------------ privilege_escalation
constexpr std::array k_privilege_escalation{
    RuleHelp{"allowed_tools_field", "The frontmatter grants tools (allowed-tools)",
             "Informational: allowed-tools widens what the agent may do without asking while the skill is active.",
             "List only the tools the skill needs."},
    RuleHelp{"sudo_usage", "Runs a command with sudo",
             "Informational: anything run with sudo can change the whole system.",
             "Avoid sudo where a user-level install works; otherwise explain why root is needed."},
    RuleHelp{"sudo_shell", "sudo into a root shell, or plants root-owned files",
             "A root shell or root-owned binary gives everything that follows full control of the machine.",
             "Run the single command that needs root with sudo, not a shell."},
    RuleHelp{"sudo_on_failure", "Tells the agent to retry with sudo when refused",
             "A permission error is a boundary; retrying as root steps over it without the user deciding.",
             "Tell the agent to stop and report the permission error to the user."},
    RuleHelp{"setuid_setgid", "Gains root identity or capabilities in code (setuid(0), setcap)",
             "Switching to uid 0 or granting capabilities turns a process into root.",
             "Run without elevated identity; leave privilege changes to the user."},
    RuleHelp{"nopasswd_sudo", "A passwordless sudo rule (ALL=… NOPASSWD:)",
             "A NOPASSWD rule lets a user, or anything running as them, become root without a password.",
             "Remove the rule; never change sudo policy from a skill."},
    RuleHelp{"nopasswd_ref", "Mentions passwordless sudo",
             "Informational: NOPASSWD in documentation is common; in a command it is a privilege grant.",
             "Nothing to change for documentation."},
    RuleHelp{"suid_bit", "Sets the setuid or setgid bit (chmod u+s, 4755)",
             "A setuid program runs with its owner's rights, usually root's, for whoever starts it.",
             "Remove the command; programs should run with the rights of the user who starts them."},
    RuleHelp{"container_escape", "A container escape (nsenter into PID 1, chroot /host, the Docker socket)",
             "These commands leave the container and act on the host.", "Remove the command."},
    RuleHelp{"write_passwd", "Creates or changes a privileged account (uid 0, wheel, sudo group, root password)",
             "A new admin account or a changed root password is a lasting way back into the machine.",
             "Never create or change accounts from a skill."},
};

// ------------------------------------------------------------ credential_exposure
constexpr std::array k_credential_exposure{
    RuleHelp{"hardcoded_secret", "A credential literal in the skill (password, api_key, token = \"…\")",
             k_why_leaked_token,
             "Replace the value with an environment variable or a placeholder; if it was ever real, revoke it."},
    RuleHelp{"embedded_private_key", "An embedded private key", k_why_leaked_token,
             "Remove the key and treat it as compromised: replace it wherever it was trusted."},
    RuleHelp{"github_token_leaked", "A GitHub token", k_why_leaked_token, k_fix_leaked_token},
    RuleHelp{"openai_key_leaked", "An OpenAI API key", k_why_leaked_token, k_fix_leaked_token},
    RuleHelp{"anthropic_key_leaked", "An Anthropic API key", k_why_leaked_token, k_fix_leaked_token},
    RuleHelp{"aws_access_key_leaked", "An AWS access key id", k_why_leaked_token,
             "Deactivate the key in IAM now, remove it from the skill, and use the AWS credential chain instead."},
    RuleHelp{"gitlab_token_leaked", "A GitLab token", k_why_leaked_token, k_fix_leaked_token},
    RuleHelp{"slack_token_leaked", "A Slack token", k_why_leaked_token, k_fix_leaked_token},
    RuleHelp{"stripe_key_leaked", "A Stripe live secret or restricted key", k_why_leaked_token, k_fix_leaked_token},
};

// ------------------------------------------------------------ structural
constexpr std::array k_structural{
    RuleHelp{"oversized_file", "A file is larger than the guard's per-file limit",
             "Very large files are hard to review and can bury a payload in generated data.",
             "Remove generated or vendored data, or fetch it in a documented setup step."},
    RuleHelp{"unexpected_executable", "An executable file outside scripts/, or one that is not a script",
             "Executables are what the agent may run; outside scripts/, or in a form nobody can read, they escape "
             "review.",
             "Clear the executable bit on documents and data (chmod -x), and keep runnable scripts under scripts/."},
    RuleHelp{"hard_link", "A file with more than one hard link",
             "Informational: a hard link shares its content with another path, possibly outside the skill.",
             "Replace the hard link with an ordinary copy."},
    RuleHelp{"broken_symlink", "A symbolic link that cannot be resolved",
             "A dangling or circular link is useless, and a link to a path that does not exist yet can later "
             "point anywhere.",
             "Remove the link, or replace it with the file it was meant to point to."},
    RuleHelp{"symlink_escape", "A symbolic link points outside the skill folder",
             "Reading through the link reaches a file the skill does not own, such as a key or a config file.",
             "Replace the link with a copy of the file inside the skill, or remove it."},
    RuleHelp{"special_file", "A FIFO, socket or device file inside the skill",
             "Such files are never content: they can block a reader or reach a device, and no honest skill ships "
             "one.",
             "Delete it before publishing the skill."},
    RuleHelp{"too_many_files", "The skill holds more files than the guard's limit",
             "Thousands of files cannot be reviewed by a person, which is where payloads hide.",
             "Remove build output, dependencies and caches (or list them in .skillignore), or split the skill."},
    RuleHelp{"oversized_skill", "The skill's total size is above the guard's limit",
             "Informational: bulk makes review impractical and usually means data or dependencies were bundled "
             "by mistake.",
             "Leave out vendored dependencies and large data, or fetch them in a documented setup step."},
    RuleHelp{"binary_file", "A native executable or library, or a file with an executable's extension",
             "Compiled code cannot be read before it runs, so nobody (the guard included) can tell what it does.",
             "Ship source and build it, or install the program from a package manager; data files belong in "
             "assets/ under a data extension."},
    RuleHelp{"binary_content", "Binary content outside assets/",
             "The guard scans text only, so a binary file outside assets/ is content nobody checked.",
             "Move images, archives and other binary data into assets/, or remove them."},
};

// ------------------------------------------------------------ unicode
constexpr std::array k_unicode{
    RuleHelp{"invisible_unicode",
             "An invisible Unicode character (zero-width space or joiner, word joiner, "
             "stray BOM)",
             "Invisible characters make text read differently to a model than to the person reviewing it, and "
             "can split words to slip past filters.",
             "Delete the character (the finding shows its code point); emoji sequences and scripts that need "
             "joiners are not reported."},
    RuleHelp{"bidi_override", "A bidirectional control character",
             "Bidi controls reorder how text is displayed, so what a reviewer sees is not what a model or a shell "
             "reads (\"Trojan Source\").",
             "Remove the control; right-to-left text displays correctly without explicit overrides."},
    RuleHelp{"unicode_tag_smuggling", "Unicode tag characters carrying invisible ASCII",
             "Tag characters are invisible on screen but a model reads them as text: a channel for hidden "
             "instructions.",
             "Remove the tag characters; the finding's snippet shows the text they spelled."},
};

// ------------------------------------------------------------ scanner
constexpr std::array k_scanner{
    RuleHelp{"unreadable_path", "A file or folder could not be read, so it was not scanned",
             "What the guard could not read could hold anything, so the skill cannot be called clean.",
             "Make every file readable by the user running skillrt, then scan again."},
    RuleHelp{"scan_incomplete", "The scan stopped at a limit before reading everything",
             "Content past the limit was not checked, and padding a skill to push a payload past it is a known "
             "trick.",
             "Make the skill smaller: remove generated files, deep folder trees and huge files, or list them in "
             ".skillignore."},
    RuleHelp{"malformed_dismissals", "A dismissal file is malformed, so it dismisses nothing",
             "A dismissal file that does not parse cannot be trusted, so every entry in it is ignored and the "
             "findings stay.",
             "Fix the file named in the finding: a top-level dismiss: list whose entries have id and reason "
             "(file and line optional); only operator files may have source:."},
};

constexpr std::array k_groups{
    RuleHelpGroup{"exfiltration", k_exfiltration},
    RuleHelpGroup{"injection", k_injection},
    RuleHelpGroup{"destructive", k_destructive},
    RuleHelpGroup{"persistence", k_persistence},
    RuleHelpGroup{"network", k_network},
    RuleHelpGroup{"obfuscation", k_obfuscation},
    RuleHelpGroup{"execution", k_execution},
    RuleHelpGroup{"traversal", k_traversal},
    RuleHelpGroup{"mining", k_mining},
    RuleHelpGroup{"supply_chain", k_supply_chain},
    RuleHelpGroup{"privilege_escalation", k_privilege_escalation},
    RuleHelpGroup{"credential_exposure", k_credential_exposure},
    RuleHelpGroup{"structural", k_structural},
    RuleHelpGroup{"unicode", k_unicode},
    RuleHelpGroup{"scanner", k_scanner},
};

} // namespace

std::span<const RuleHelpGroup> rule_help_groups() {
  return k_groups;
}

} // namespace skillrt::core
