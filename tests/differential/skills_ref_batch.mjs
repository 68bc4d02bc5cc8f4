// Runs the reference validator (skills-ref) over many skill paths in one Node
// process, the way its `validate` CLI would treat each path, and prints one JSON
// object per line: {"path": ..., "valid": bool, "errors": [...]}.
//
// Usage: node skills_ref_batch.mjs TOOLS_DIR < paths.txt   (one path per line)
import { statSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const toolsDir = process.argv[2];
if (!toolsDir) {
  console.error("usage: skills_ref_batch.mjs TOOLS_DIR < paths");
  process.exit(2);
}
const entry = path.join(toolsDir, "node_modules", "skills-ref", "dist", "index.js");
const { validate } = await import(pathToFileURL(entry).href);

// Same test as the CLI's isSkillMdFile: a regular file whose name is skill.md in any case.
function skillDirOf(p) {
  try {
    const st = statSync(p, { throwIfNoEntry: false });
    if (st?.isFile() && path.basename(p).toLowerCase() === "skill.md") {
      return path.dirname(p);
    }
  } catch {
    // fall through: the CLI treats unreadable paths as directories
  }
  return p;
}

const input = readFileSync(0, "utf-8");
const paths = input.split("\n").filter((line) => line.length > 0);
const out = [];
for (const p of paths) {
  let errors;
  try {
    errors = await validate(skillDirOf(p));
  } catch (e) {
    errors = [`exception: ${String(e)}`];
  }
  out.push(JSON.stringify({ path: p, valid: errors.length === 0, errors }));
}
process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
