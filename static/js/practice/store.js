// The practice match kept on this device, in IndexedDB: the engine worker saves it after every
// move (engine-worker.js), the home page asks whether one is unfinished (savedPractice), and the
// results of finished matches stay here for a guest who has no account to keep them.
//
// The saved record holds the engine's whole state, the bots' cards included, so that a reload
// continues the very same deal. Only the worker reads it whole; savedPractice() and
// practiceResults() hand out public facts alone.

const DATABASE = "septica-practice";
const DATABASE_VERSION = 1;
const MATCHES = "match"; // one entry: the current match
const CURRENT = "current";
const RESULTS = "results"; // finished matches, keyed by their rules and seed, so a save repeated is one result

function opened() {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === "undefined") {
      reject(Object.assign(new Error("IndexedDB is not available"), { code: "indexeddb" }));
      return;
    }
    const request = indexedDB.open(DATABASE, DATABASE_VERSION);
    request.onupgradeneeded = () => {
      const database = request.result;
      if (!database.objectStoreNames.contains(MATCHES)) database.createObjectStore(MATCHES);
      if (!database.objectStoreNames.contains(RESULTS)) database.createObjectStore(RESULTS);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    // Another tab holds an older version open; it closes on versionchange below, so this waits.
    request.onblocked = () => {};
  });
}

let database = null;

async function connection() {
  if (!database) {
    database = opened().then((db) => {
      db.onversionchange = () => {
        db.close();
        database = null;
      };
      return db;
    });
    database.catch(() => {
      database = null;
    });
  }
  return database;
}

// Resolves once the transaction is committed: "strict" asks the browser to have it on disk by
// then, so a match answered is a match saved even if the tab dies the next instant.
async function transact(stores, mode, work) {
  const db = await connection();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(stores, mode, { durability: mode === "readwrite" ? "strict" : "default" });
    let value;
    transaction.oncomplete = () => resolve(value);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error || Object.assign(new Error("aborted"), { code: "storage" }));
    const request = work(transaction);
    if (request) request.onsuccess = () => (value = request.result);
  });
}

export function loadRecord() {
  return transact([MATCHES], "readonly", (transaction) => transaction.objectStore(MATCHES).get(CURRENT)).then(
    (record) => record ?? null,
  );
}

export function resultKey(record) {
  return `${record.rules}:${record.seed}`;
}

// The record, and with it the result once the match is over, in one transaction.
export function saveRecord(record) {
  return transact([MATCHES, RESULTS], "readwrite", (transaction) => {
    transaction.objectStore(MATCHES).put({ ...record, saved_at: Date.now() }, CURRENT);
    if (record.finished) {
      transaction.objectStore(RESULTS).put(
        {
          rules: record.rules,
          players: record.players,
          options: record.options,
          seats: record.seats,
          result: record.result,
          moves: record.seq,
          finished_at: Date.now(),
        },
        resultKey(record),
      );
    }
  });
}

export function forgetRecord() {
  return transact([MATCHES], "readwrite", (transaction) => {
    transaction.objectStore(MATCHES).delete(CURRENT);
  });
}

// For the home page's "Resume practice": {rules, players, finished, seq} of the saved match, or null
// (none saved, or no IndexedDB in this browser).
export async function savedPractice() {
  try {
    const record = await loadRecord();
    if (!record) return null;
    return { rules: record.rules, players: record.players, finished: Boolean(record.finished), seq: record.seq };
  } catch {
    return null;
  }
}

// Finished practice matches on this device, newest first: {rules, players, options, seats, result, moves, finished_at}.
export async function practiceResults() {
  try {
    const results = await transact([RESULTS], "readonly", (transaction) => transaction.objectStore(RESULTS).getAll());
    return (results || []).sort((a, b) => b.finished_at - a.finished_at);
  } catch {
    return [];
  }
}
