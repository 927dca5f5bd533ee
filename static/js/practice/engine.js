// The practice engine as the page sees it: calls to the worker that runs the rules and the bots
// (engine-worker.js), each answered with what seat 0 may see.
//
//   const engine = await openEngine(config.engine, onProgress);   // practice/assets.py engine_config()
//   await engine.start({rules, players, options, seed, seats})     // seats[0] = {kind: "you"}, the rest bots
//   await engine.play(move)        // your move
//   await engine.botMove()         // the bot to move plays one move
//   await engine.resume()          // the saved unfinished match, or null
//   await engine.forget()          // drop the saved match
//
// An answer is {view, seq, to_move, finished, result, seats, rules, players, options, moved, saved}
// where view is game.view(0); a refusal is the same with error: {code, params} and nothing changed
// ("cannot-load" on resume: the saved match was from an engine that can no longer continue it, and
// it is over). A failure of the engine itself (the runtime did not load) rejects with an Error
// whose .code says which ("network", "worker", "engine-failed").

function failure(code, message) {
  return Object.assign(new Error(message || code), { code });
}

export async function openEngine(config, onProgress) {
  const worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  const waiting = new Map();
  let next = 1;
  let broken = null;

  function breakAll(error) {
    broken = error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  }

  worker.onmessage = (event) => {
    const message = event.data;
    if (message.progress) {
      if (onProgress) onProgress(message.progress);
      return;
    }
    const call = waiting.get(message.id);
    if (!call) return;
    waiting.delete(message.id);
    if (message.failure) call.reject(failure(message.failure.code, message.failure.message));
    else call.resolve(message.answer);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    breakAll(failure("worker", event.message || "the engine's worker stopped"));
  };
  worker.onmessageerror = () => breakAll(failure("worker", "a message from the engine could not be read"));

  function call(op, arg) {
    if (broken) return Promise.reject(broken);
    return new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, op, arg });
    });
  }

  try {
    await call("open", {
      pyodide: new URL(config.pyodide, location.href).href,
      index: new URL(config.index, location.href).href,
      engine_zip: new URL(config.engine_zip, location.href).href,
      engine_version: config.engine_version,
    });
  } catch (error) {
    worker.terminate();
    throw error;
  }

  return {
    engineVersion: config.engine_version,
    start: (settings) => call("start", settings),
    play: (move) => call("play", move),
    botMove: () => call("bot_move"),
    resume: () => call("resume"),
    forget: () => call("forget"),
    close: () => {
      worker.terminate();
      breakAll(failure("closed", "the engine was closed"));
    },
  };
}
