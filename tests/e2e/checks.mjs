// What every Node driver of the e2e tests shares: required environment
// variables, checks that fail with a message, progress lines on stderr, and
// one exit rule (a failed check prints FAIL and exits 1; anything else is a
// crash with its stack).
export class CheckFailed extends Error {}

export function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

// The value of a required environment variable.
export function env(name) {
  const value = process.env[name];
  if (!value) throw new CheckFailed(`${name} is not set`);
  return value;
}

const started = Date.now();
export function log(message) {
  process.stderr.write(`  - [${((Date.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
}

// Runs `main` and exits 0, or 1 with "FAIL: ..." for a failed check.
export async function runChecks(main) {
  try {
    await main();
  } catch (error) {
    if (error instanceof CheckFailed) {
      process.stderr.write(`FAIL: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  process.exit(0);
}
