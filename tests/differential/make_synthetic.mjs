// Writes small hand-made skills that probe the edges where skillrt's strict
// mode must agree with skills-ref (typed YAML values, BOM, CRLF, stray '---',
// Unicode names, lengths at the limits, refused YAML features, ...).
// Prints the path to validate for each case, one per line.
//
// Usage: node make_synthetic.mjs OUT_DIR
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";

const out = process.argv[2];
if (!out) {
  console.error("usage: make_synthetic.mjs OUT_DIR");
  process.exit(2);
}

const paths = [];
// skill(dir, content, {file, asFile}): content is a string or a Buffer.
function skill(dir, content, options = {}) {
  const skillDir = path.join(out, dir);
  mkdirSync(skillDir, { recursive: true });
  if (content !== null) {
    writeFileSync(path.join(skillDir, options.file ?? "SKILL.md"), content);
  }
  paths.push(options.asFile ? path.join(skillDir, options.file ?? "SKILL.md") : skillDir);
}
const fm = (name, rest = "") => `---\nname: ${name}\ndescription: Does a thing.\n${rest}---\n# Body\n\nText.\n`;

skill("ok-basic", fm("ok-basic"));
skill("ok-as-file", fm("ok-as-file"), { asFile: true });
skill("ok-license", fm("ok-license", "license: MIT\ncompatibility: needs git\nallowed-tools: Bash(git:*) Read\n"));
skill("bom-skill", "\uFEFF" + fm("bom-skill"));
skill("crlf-skill", fm("crlf-skill").replace(/\n/g, "\r\n"));
skill("null", "---\nname:\ndescription: Named null.\n---\nbody\n");
skill("123", "---\nname: 123\ndescription: A number.\n---\nbody\n");
skill("1", "---\nname: 1.0\ndescription: A float.\n---\nbody\n");
skill("26", "---\nname: 0x1A\ndescription: Hex.\n---\nbody\n");
skill("true", "---\nname: TRUE\ndescription: A boolean.\n---\nbody\n");
skill("bool-desc", "---\nname: bool-desc\ndescription: true\n---\nbody\n");
skill("null-desc", "---\nname: null-desc\ndescription:\n---\nbody\n");
skill("empty-desc", "---\nname: empty-desc\ndescription: \"\"\n---\nbody\n");
skill("blank-desc", "---\nname: blank-desc\ndescription: \"   \"\n---\nbody\n");
skill("list-desc", "---\nname: list-desc\ndescription: [a, b]\n---\nbody\n");
skill("map-desc", "---\nname: map-desc\ndescription: {a: 1}\n---\nbody\n");
skill("compat-null", fm("compat-null", "compatibility:\n"));
skill("compat-number", fm("compat-number", "compatibility: 5\n"));
skill("compat-500", fm("compat-500", `compatibility: ${"c".repeat(500)}\n`));
skill("compat-501", fm("compat-501", `compatibility: ${"c".repeat(501)}\n`));
skill("desc-1024", `---\nname: desc-1024\ndescription: ${"d".repeat(1024)}\n---\nbody\n`);
skill("desc-1025", `---\nname: desc-1025\ndescription: ${"d".repeat(1025)}\n---\nbody\n`);
// 600 astral code points: 600 characters for Python, 1,200 UTF-16 units for JavaScript.
skill("desc-emoji", `---\nname: desc-emoji\ndescription: ${"\u{1F600}".repeat(600)}\n---\nbody\n`);
skill("dash-in-value", "---\nname: dash-in-value\ndescription: before --- after\n---\nbody\n");
skill("dash-before-name", "---\ndescription: x---y\nname: dash-before-name\n---\nbody\n");
skill("dash-fence-suffix", "---\nname: dash-fence-suffix\ndescription: Fence has a suffix.\n---foo\nbody\n");
skill("no-frontmatter", "# Just markdown\n");
skill("empty-file", "");
skill("unclosed", "---\nname: unclosed\ndescription: Never closed.\n");
skill("list-frontmatter", "---\n- a\n- b\n---\nbody\n");
skill("scalar-frontmatter", "---\njust text\n---\nbody\n");
skill("number-frontmatter", "---\n42\n---\nbody\n");
skill("empty-frontmatter", "---\n---\nbody\n");
skill("café", "---\nname: café\ndescription: Latin-1 letter.\n---\nbody\n");
skill("привет", "---\nname: привет\ndescription: Cyrillic.\n---\nbody\n");
skill("Привет", "---\nname: Привет\ndescription: Cyrillic capital.\n---\nbody\n");
skill("αβγ", "---\nname: αβγ\ndescription: Greek.\n---\nbody\n");
skill("数据", "---\nname: 数据\ndescription: CJK.\n---\nbody\n");
skill("MySkill", "---\nname: MySkill\ndescription: Capitals.\n---\nbody\n");
skill("my_skill", "---\nname: my_skill\ndescription: Underscore.\n---\nbody\n");
skill("my.skill", "---\nname: my.skill\ndescription: Dot.\n---\nbody\n");
skill("-lead", "---\nname: -lead\ndescription: Leading hyphen.\n---\nbody\n");
skill("trail-", "---\nname: trail-\ndescription: Trailing hyphen.\n---\nbody\n");
skill("a--b", "---\nname: a--b\ndescription: Double hyphen.\n---\nbody\n");
skill("n".repeat(64), `---\nname: ${"n".repeat(64)}\ndescription: 64.\n---\nbody\n`);
skill("n".repeat(65), `---\nname: ${"n".repeat(65)}\ndescription: 65.\n---\nbody\n`);
skill("dir-differs", fm("other-name"));
skill("spaced-name", "---\nname: \"  spaced-name  \"\ndescription: Trimmed.\n---\nbody\n");
skill("quoted-key", "---\n\"name\": quoted-key\n'description': Quoted keys.\n---\nbody\n");
skill("comment", "---\nname: comment # trailing comment\ndescription: Comment.\n---\nbody\n");
skill("folded", "---\nname: folded\ndescription: >\n  Folded\n  text.\n---\nbody\n");
skill("unknown-field", fm("unknown-field", "author: someone\n"));
skill("hermes-field", fm("hermes-field", "version: 1.0.0\n"));
skill("metadata-scalar", fm("metadata-scalar", "metadata: text\n"));
skill("metadata-list", fm("metadata-list", "metadata:\n  - a\n"));
skill("metadata-map", fm("metadata-map", "metadata:\n  author: x\n  version: \"1\"\n"));
skill("no-name", "---\ndescription: No name.\n---\nbody\n");
skill("no-description", "---\nname: no-description\n---\nbody\n");
skill("empty-name", "---\nname: \"\"\ndescription: Empty name.\n---\nbody\n");
skill("2024-01-01", "---\nname: 2024-01-01\ndescription: A date.\n---\nbody\n");
skill("a,b", "---\nname: [a, b]\ndescription: A list name.\n---\nbody\n");
skill("duplicate-key", "---\nname: duplicate-key\nname: duplicate-key\ndescription: Twice.\n---\nbody\n");
skill("bad-yaml", "---\nname: bad-yaml\ndescription: [unclosed\n---\nbody\n");
skill("colon-value", "---\nname: colon-value\ndescription: Use: when needed\n---\nbody\n");
skill("tab-indent", "---\nname: tab-indent\n\tdescription: Tab.\n---\nbody\n");
skill("empty-body", "---\nname: empty-body\ndescription: No body.\n---\n");
skill("lowercase-file", fm("lowercase-file"), { file: "skill.md" });
skill("lowercase-as-file", fm("lowercase-as-file"), { file: "skill.md", asFile: true });
skill("no-skill-md", null);
skill("latin1-bytes", Buffer.concat([Buffer.from("---\nname: latin1-bytes\ndescription: caf"), Buffer.from([0xe9]),
  Buffer.from(".\n---\nbody\n")]));
skill("yaml-anchor", "---\nname: yaml-anchor\ndescription: &d Shared text.\nmetadata:\n  summary: *d\n---\nbody\n");
skill("yaml-tag", "---\nname: !!str yaml-tag\ndescription: Tagged.\n---\nbody\n");
skill("huge-frontmatter", fm("huge-frontmatter", `metadata:\n  blob: ${"x".repeat(70 * 1024)}\n`));
skill("big-body", fm("big-body") + "word ".repeat(30000));

process.stdout.write(paths.join("\n") + "\n");
