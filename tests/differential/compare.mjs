// Compares skillrt's strict verdicts with skills-ref's and checks every
// disagreement against known-differences.tsv.
//
// Usage: node compare.mjs REF_JSONL OURS_JSON KNOWN_TSV LABEL_PREFIX=ROOT...
//   REF_JSONL   output of skills_ref_batch.mjs
//   OURS_JSON   output of `skillrt validate --strict --json PATHS...`
//   KNOWN_TSV   path<TAB>ours<TAB>theirs<TAB>reason (ours/theirs: valid|invalid)
//   LABEL=ROOT  maps an absolute path under ROOT to LABEL/<relative path>
// Exit 0 when every disagreement is listed, 1 otherwise.
import { readFileSync } from "node:fs";

const [refFile, oursFile, knownFile, ...roots] = process.argv.slice(2);
const labelRoots = roots.map((arg) => {
  const eq = arg.indexOf("=");
  return { label: arg.slice(0, eq), root: arg.slice(eq + 1).replace(/\/+$/, "") };
});
function label(p) {
  for (const { label: name, root } of labelRoots) {
    if (p === root || p.startsWith(root + "/")) {
      return name + p.slice(root.length);
    }
  }
  return p;
}
const verdict = (valid) => (valid ? "valid" : "invalid");

const ref = new Map();
for (const line of readFileSync(refFile, "utf-8").split("\n")) {
  if (line.trim()) {
    const row = JSON.parse(line);
    ref.set(row.path, row);
  }
}
const ours = new Map();
for (const result of JSON.parse(readFileSync(oursFile, "utf-8")).results) {
  ours.set(result.path, result);
}

const known = new Map();
for (const [i, line] of readFileSync(knownFile, "utf-8").split("\n").entries()) {
  if (!line.trim() || line.startsWith("#")) {
    continue;
  }
  const [path, oursVerdict, theirsVerdict, reason] = line.split("\t");
  if (path === "path") {
    continue;  // header
  }
  if (!reason || !["valid", "invalid"].includes(oursVerdict) || !["valid", "invalid"].includes(theirsVerdict)) {
    console.error(`${knownFile}:${i + 1}: malformed line (want path, ours, theirs, reason separated by tabs)`);
    process.exit(1);
  }
  known.set(path, { ours: oursVerdict, theirs: theirsVerdict, reason });
}

let agree = 0;
let listed = 0;
const unexpected = [];
const missing = [];
const agreement = new Map();
for (const [p, theirs] of ref) {
  const mine = ours.get(p);
  if (!mine) {
    missing.push(p);
    continue;
  }
  const name = label(p);
  agreement.set(name, mine.valid === theirs.valid);
  if (mine.valid === theirs.valid) {
    agree++;
    continue;
  }
  const entry = known.get(name);
  if (entry && entry.ours === verdict(mine.valid) && entry.theirs === verdict(theirs.valid)) {
    listed++;
    continue;
  }
  const ourErrors = mine.findings.filter((f) => f.severity === "error").map((f) => `${f.rule} (${f.message})`);
  unexpected.push(
    `${name}: skillrt says ${verdict(mine.valid)}, skills-ref says ${verdict(theirs.valid)}\n` +
      `    skillrt errors: ${ourErrors.join("; ") || "none"}\n` +
      `    skills-ref errors: ${theirs.errors.join("; ") || "none"}`,
  );
}
// Listed entries whose validators now agree, or that were not run at all.
const stale = [...known.keys()].filter((name) => !agreement.has(name) || agreement.get(name));

for (const p of missing) {
  console.log(`MISSING ${p}: skillrt gave no result for this path`);
}
for (const u of unexpected) {
  console.log(`UNEXPECTED ${u}`);
}
for (const name of stale) {
  console.log(`note: ${name} is listed in known-differences.tsv but the validators now agree (or it was not run)`);
}
const total = ref.size;
const failed = unexpected.length + missing.length;
console.log(
  `differential: ${total} skills compared, ${agree} agree, ${listed} known differences, ` +
    `${failed} unexpected`,
);
process.exit(failed === 0 ? 0 : 1);
