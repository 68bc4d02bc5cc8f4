// Percentile summaries and one-JSON-object-per-line output, shared by the
// Node drivers of the benches.
export const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

export const summary = (name, samples) => {
  const s = [...samples].sort((a, b) => a - b);
  const f = (x) => Math.round(x * 100) / 100;
  return { name, n: s.length, p50_ms: f(pct(s, 50)), p90_ms: f(pct(s, 90)), p99_ms: f(pct(s, 99)), max_ms: f(s[s.length - 1]) };
};

export const print = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
