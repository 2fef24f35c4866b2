// Prints the conformance score from vitest's JSON report and fails (exit 1) when a test failed that
// the known-failures list does not name. Usage: node score.mjs RESULTS.json KNOWN-FAILURES.txt
import { readFileSync } from "node:fs"

const [resultsFile, knownFile] = process.argv.slice(2)
const results = JSON.parse(readFileSync(resultsFile, "utf8"))
// One test per line: its full name (describe blocks and title, as vitest prints them), then " -- "
// and why it is expected to fail. Blank lines and lines starting with # are comments.
const known = new Map(
  readFileSync(knownFile, "utf8")
    .split("\n")
    .filter((line) => line.trim() && !line.startsWith("#"))
    .map((line) => {
      const [name, reason] = line.split(" -- ")
      return [name.trim(), (reason ?? "").trim()]
    })
)
const counts = { passed: 0, failed: 0, skipped: 0 }
const unexpected = []
const expectedFailures = []
const nowPassing = []
for (const file of results.testResults) {
  for (const test of file.assertionResults) {
    const name = [...test.ancestorTitles, test.title].join(" > ")
    if (test.status === "passed") {
      counts.passed++
      if (known.has(name)) nowPassing.push(name)
    } else if (test.status === "failed") {
      counts.failed++
      if (known.has(name)) expectedFailures.push(name)
      else unexpected.push(`${name}\n    ${(test.failureMessages?.[0] ?? "").split("\n")[0]}`)
    } else {
      counts.skipped++
    }
  }
}
const total = counts.passed + counts.failed + counts.skipped
console.log(`Durable Streams conformance: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped of ${total}`)
for (const name of expectedFailures) console.log(`  known failure: ${name} -- ${known.get(name)}`)
for (const name of nowPassing) console.log(`  passes now (take it off known-failures.txt): ${name}`)
if (unexpected.length > 0) {
  console.log(`${unexpected.length} unexpected failure(s):`)
  for (const line of unexpected) console.log(`  ${line}`)
  process.exit(1)
}
if (total === 0) {
  console.log("no tests ran")
  process.exit(1)
}
