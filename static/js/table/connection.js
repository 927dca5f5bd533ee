// The connection to the server: the table's websocket (window.LiveSocket) while
// it is up, the JSON API and polling while it is down. It knows nothing of the
// page: it hands every table it hears of to onTable and answers each move with
// {status, json}, as the HTTP API would have.

const MOVE_ANSWER_MS = 8000;
const SLOW_POLL_MS = 30000;

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export async function request(method, url, body) {
  const options = { method, credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRFToken"] = csrfToken();
    options.body = JSON.stringify(body || {});
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    return { status: 0, json: {} };
  }
  let json = {};
  try {
    json = await response.json();
  } catch (error) {
    /* an empty or HTML answer: the status says enough */
  }
  return { status: response.status, json };
}

// handlers: current() -> the table shown now; onTable(table); onPresence(message);
// onOnline(bool); onGone(); onError(words); onChat(message); idle() -> true when a poll may redraw.
export function createConnection(config, handlers) {
  let live = null;
  let pollTimer = null;
  let moveWait = null; // {seq, timer, resolve}: a move sent over the socket, waiting for its answer

  function apiURL(suffix) {
    const url = config.api + (suffix || "");
    return config.invite ? `${url}?invite=${encodeURIComponent(config.invite)}` : url;
  }

  async function refresh() {
    const { status, json } = await request("GET", apiURL());
    if (status === 200) handlers.onTable(json);
    else if (status === 404) handlers.onGone();
    else if (status === 0) handlers.onError(null);
    return status;
  }

  function schedulePoll() {
    clearTimeout(pollTimer);
    const table = handlers.current();
    // The socket brings every change; a slow poll stays on as a safety net.
    const every = live && live.online ? SLOW_POLL_MS : config.poll_ms;
    if (table.status === "open" || table.status === "playing") pollTimer = setTimeout(poll, every);
  }
  async function poll() {
    if (document.visibilityState === "visible" && handlers.idle()) await refresh();
    schedulePoll();
  }
  function stopPolling() {
    clearTimeout(pollTimer);
  }

  function sync() {
    if (live) live.send({ type: "sync", seq: handlers.current().seq });
  }

  function answerMove(answer) {
    if (!moveWait) return;
    const { timer, resolve } = moveWait;
    clearTimeout(timer);
    moveWait = null;
    resolve(answer);
  }

  // No answer, or the socket dropped with the move in flight: ask over HTTP where things stand.
  async function moveLost() {
    if (!moveWait) return;
    answerMove({ status: 0, json: {}, lost: true });
    await refresh();
  }

  function sendMove(move) {
    const seq = handlers.current().seq;
    if (live && live.online && live.send({ type: "move", seq, move })) {
      return new Promise((resolve) => {
        moveWait = { seq, resolve, timer: setTimeout(moveLost, MOVE_ANSWER_MS) };
      });
    }
    return request("POST", apiURL("/moves"), { seq, move });
  }

  function onView(message) {
    const next = Object.assign({}, message);
    delete next.type;
    const shown = handlers.current();
    if (next.id !== undefined && next.id !== shown.id) return;
    if (next.seq < shown.seq) return; // older than what is shown
    const gap = next.seq > shown.seq + 1;
    if (moveWait && next.seq > moveWait.seq) answerMove({ status: 200, json: next });
    else handlers.onTable(next);
    if (gap) sync(); // something was missed on the way: ask for the whole picture
  }

  // A line over the socket when it is up (a refusal comes back as an error about chat), else over HTTP.
  async function sendChat(body) {
    if (live && live.online && live.send(Object.assign({ type: "chat" }, body))) return { ok: true };
    const { status, json } = await request("POST", apiURL("/chat"), body);
    if (status === 201) handlers.onChat({ type: "chat", line: json.line });
    return { ok: status === 201, error: json.error || (status === 0 ? null : String(status)) };
  }

  function onMessage(message) {
    if (message.type === "view") onView(message);
    else if (message.type === "presence") handlers.onPresence(message);
    else if (message.type === "chat" || message.type === "chat_history") handlers.onChat(message);
    else if (message.type === "error" && message.about === "chat") handlers.onChat(message);
    else if (message.type === "error") {
      if (moveWait) {
        answerMove({ status: message.status, json: { error: message.error, code: message.code, params: message.params } });
        if (message.status === 409) sync();
      } else if (message.status === 409) sync();
      else handlers.onError(message.error);
    }
  }

  function start() {
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && handlers.idle()) refresh();
    });
    if (window.LiveSocket && window.WebSocket) {
      const query = config.invite ? `?invite=${encodeURIComponent(config.invite)}` : "";
      live = window.LiveSocket(`/ws/tables/${config.id}/${query}`, {
        onMessage,
        onOpen(info) {
          handlers.onOnline(true);
          if (info.reconnect) sync();
          schedulePoll();
        },
        onClose(info) {
          moveLost();
          handlers.onPresence({ present: [], spectators: 0 });
          if (info.final) {
            handlers.onOnline(true); // refused, not offline: the polling carries on and says what it finds
            if (info.code === 4404) handlers.onGone();
          } else {
            handlers.onOnline(false);
          }
          schedulePoll();
        },
      });
    }
    schedulePoll();
  }

  return {
    start,
    refresh,
    sendMove,
    sendChat,
    loadChat: () => request("GET", apiURL("/chat")),
    schedulePoll,
    stopPolling,
    post: (suffix, body) => request("POST", apiURL(suffix), body),
    get live() {
      return live;
    },
  };
}
