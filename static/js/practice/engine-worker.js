// The rules engine and the bots, off the page's thread: Pyodide runs games/engine (the zip the site
// builds from the server's own source) here, so the page never freezes while the Expert thinks.
//
// The page (engine.js) sends {id, op, arg}; the worker answers {id, answer} or {id, failure}, one
// call after another in the order sent. Every answer that changed the match is sent only once the
// match is saved in IndexedDB (store.js), so what the person saw is what a reload continues. The
// saved record (the whole state, the bots' cards included) stays in this worker and the database:
// the page receives seat 0's view and nothing else.

import { forgetRecord, loadRecord, saveRecord } from "./store.js";

const ENGINE_DIR = "/engine";
let device = null;

function post(message) {
  self.postMessage(message);
}

// `at` is wall-clock milliseconds, comparable with the page's own Date.now().
function progress(stage) {
  post({ progress: { stage, at: performance.timeOrigin + performance.now() } });
}

// The smallest WebAssembly module: eight bytes, its magic number and version.
const EMPTY_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);

// A policy that refuses WebAssembly leaves loadPyodide waiting for ever; compiling
// an empty module first turns the refusal into an answer the page can word.
function requireWebAssembly() {
  try {
    new WebAssembly.Module(EMPTY_MODULE);
  } catch (error) {
    throw Object.assign(new Error(`WebAssembly is refused here: ${error.message}`), { code: "engine-failed" });
  }
}

async function open(config) {
  if (device) return { engine_version: config.engine_version };
  requireWebAssembly();
  progress("runtime");
  const { loadPyodide } = await import(config.pyodide);
  const [pyodide, zip] = await Promise.all([
    loadPyodide({ indexURL: config.index }),
    fetch(config.engine_zip).then((response) => {
      if (!response.ok) throw Object.assign(new Error(`engine zip: HTTP ${response.status}`), { code: "network" });
      return response.arrayBuffer();
    }),
  ]);
  progress("engine");
  pyodide.unpackArchive(zip, "zip", { extractDir: ENGINE_DIR });
  pyodide.runPython(`import sys\nif ${JSON.stringify(ENGINE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(ENGINE_DIR)})`);
  const practiceMatch = pyodide.pyimport("games.engine.practice_match");
  device = practiceMatch.Device(config.engine_version);
  progress("ready");
  return { engine_version: config.engine_version };
}

function call(op, arg) {
  return JSON.parse(device.handle(JSON.stringify({ op, arg: arg ?? null })));
}

// The record is saved before the answer goes; a save the browser refuses (storage full, private
// mode) still answers, saying the match is not kept.
async function saved(reply) {
  if (!reply.record) return reply.answer;
  try {
    await saveRecord(reply.record);
    return { ...reply.answer, saved: true };
  } catch {
    return { ...reply.answer, saved: false };
  }
}

async function resume() {
  let record;
  try {
    record = await loadRecord();
  } catch {
    return null;
  }
  if (!record || record.finished) return null;
  const reply = call("resume", record);
  if (reply.answer && reply.answer.error && reply.answer.error.code === "cannot-load") {
    // Over, with the page's word for why: it never comes back as "Resume practice".
    await forgetRecord().catch(() => {});
    return reply.answer;
  }
  return saved(reply);
}

async function handle({ op, arg }) {
  if (op === "open") return open(arg);
  if (!device) throw Object.assign(new Error("the engine is not loaded"), { code: "not-open" });
  switch (op) {
    case "start":
    case "play":
    case "bot_move":
      return saved(call(op, arg));
    case "resume":
      return resume();
    case "forget":
      call("forget");
      await forgetRecord().catch(() => {});
      return null;
    default:
      throw Object.assign(new Error(`unknown call ${op}`), { code: "unknown-call" });
  }
}

let queue = Promise.resolve();

self.onmessage = (event) => {
  const message = event.data;
  queue = queue.then(async () => {
    try {
      post({ id: message.id, answer: await handle(message) });
    } catch (error) {
      post({ id: message.id, failure: { code: error.code || "engine-failed", message: String(error.message || error) } });
    }
  });
};
