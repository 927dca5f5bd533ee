// Runs Python in Pyodide under Node, from node_modules/pyodide, with the engine zip unpacked on its path.
//
//   node tests/practice/pyodide_driver.mjs < job.json
//
// job: {"zip": path of the engine zip, "code": Python source, "call": a function it defines, "arg": any JSON}.
// The function is called with the argument as JSON text and returns JSON text; the driver prints
// {"load_ms": ..., "call_ms": ..., "result": <what it returned>}. The tests and bench/practice.py send
// the same source to CPython, so both interpreters run the very same code.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const indexURL = join(root, "node_modules", "pyodide") + "/";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const job = JSON.parse(Buffer.concat(chunks).toString("utf8"));

// An uncaught error would print the line it came from: one minified line of megabytes.
process.on("uncaughtException", fail);
process.on("unhandledRejection", fail);
function fail(error) {
  process.stderr.write(String(error && error.message ? error.message : error).slice(-4000) + "\n");
  process.exit(1);
}

const { loadPyodide } = await import(join(indexURL, "pyodide.mjs"));
const started = performance.now();
const pyodide = await loadPyodide({ indexURL });
pyodide.unpackArchive(new Uint8Array(readFileSync(job.zip)), "zip", { extractDir: "/engine" });
pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
const loaded = performance.now();
const namespace = pyodide.globals.get("dict")();
pyodide.runPython(job.code, { globals: namespace });
const result = namespace.get(job.call)(JSON.stringify(job.arg ?? null));
const called = performance.now();
process.stdout.write(JSON.stringify({ load_ms: loaded - started, call_ms: called - loaded, result: JSON.parse(result) }));
