// The table's chat: the panel behind the chat tool, its lines and quick
// phrases, and the unread dot. Lines come from the socket (chat_history on
// connect, then one "chat" per line) or, while it is down, from GET .../chat.
// Every name and word goes into the page as text, never as markup.

const MAX_LINES = 100;

// io: send(body) -> Promise<{ok, error}>; load() -> Promise<{status, json}> (GET .../chat).
export function createChat(io) {
  const $ = (id) => document.getElementById(id);
  const dialog = $("chat-dialog");
  if (!dialog) return { onMessage() {}, showTextChanged() {} };
  const tool = $("chat-tool");
  const list = $("chat-lines");
  const me = dialog.dataset.me || "";
  let lines = [];
  let room = undefined; // undefined: not heard yet; null: no chat for this reader
  let showText = true;
  let phrasesShown = false;

  function setShowText(value) {
    showText = value !== false;
    draw();
  }

  function shown(line) {
    return showText || line.phrase || (line.author && line.author.username === me);
  }

  function lineItem(line) {
    const item = document.createElement("li");
    item.className = "chat-line" + (line.phrase ? " chat-line--phrase" : "");
    item.dataset.id = String(line.id);
    const author = document.createElement(line.author.profile_url ? "a" : "b");
    author.className = "chat-line__author";
    if (line.author.profile_url) author.href = line.author.profile_url;
    author.textContent = line.author.name;
    const words = document.createElement("span");
    words.className = "chat-line__words";
    words.textContent = line.words;
    const at = document.createElement("time");
    at.dateTime = line.at;
    at.className = "chat-line__at";
    at.textContent = new Date(line.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    item.append(author, document.createTextNode(": "), words, document.createTextNode(" "), at);
    return item;
  }

  function draw() {
    const visible = lines.filter(shown);
    list.replaceChildren(...visible.map(lineItem));
    $("chat-empty").hidden = visible.length > 0;
    if (dialog.open) list.scrollTop = list.scrollHeight;
  }

  function showPhrases(phrases) {
    const box = $("chat-phrases");
    if (!box || phrasesShown || !phrases) return;
    phrasesShown = true;
    box.replaceChildren(...phrases.map((phrase) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "chat-phrase";
      button.dataset.phrase = phrase.code;
      button.textContent = phrase.words;
      return button;
    }));
  }

  function setRoom(next) {
    room = next;
    tool.hidden = !room;
    dialog.querySelector("h2").textContent = room === "spectators" ? dialog.dataset.spectators : dialog.dataset.players;
    if (!room && dialog.open) dialog.close();
  }

  function setUnread(unread) {
    $("chat-unread").hidden = !unread;
    tool.setAttribute("aria-label", unread ? tool.dataset.unread : tool.dataset.tip);
  }

  function history(message) {
    setRoom(message.room);
    showPhrases(message.phrases);
    lines = (message.lines || []).slice(-MAX_LINES);
    draw();
  }

  function add(line) {
    if (line.room !== room || lines.some((known) => known.id === line.id)) return;
    lines = lines.concat([line]).slice(-MAX_LINES);
    draw();
    if (!dialog.open && shown(line) && line.author.username !== me) setUnread(true);
  }

  function showError(words) {
    const box = $("chat-error");
    if (!box) return;
    box.textContent = words || "";
    box.hidden = !words;
  }

  async function say(body) {
    showError("");
    const answer = await io.send(body);
    if (!answer.ok) showError(answer.error);
    return answer.ok;
  }

  dialog.addEventListener("click", (event) => {
    const button = event.target.closest("[data-phrase]");
    if (button) say({ phrase: button.dataset.phrase });
  });
  const form = $("chat-form");
  if (form) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = $("chat-text");
      const text = input.value.trim();
      if (!text) return;
      if (await say({ text })) input.value = "";
    });
  }
  tool.addEventListener("click", async () => {
    setUnread(false);
    if (room === undefined) {
      // No socket told us yet (it is down or refused): read over HTTP.
      const { status, json } = await io.load();
      if (status === 200) history(json);
    }
    list.scrollTop = list.scrollHeight;
  });
  dialog.addEventListener("close", () => setUnread(false));

  return {
    onMessage(message) {
      if (message.type === "chat_history") history(message);
      else if (message.type === "chat") add(message.line);
      else if (message.type === "error") showError(message.error);
    },
    // Over HTTP, when the socket is down: the stored line, as the socket would have brought it.
    said(line) {
      add(line);
    },
    showTextChanged: setShowText,
    async start() {
      // The tool shows once the chat's room is known; without a socket, ask once.
      if (room !== undefined) return;
      const { status, json } = await io.load();
      if (status === 200 && room === undefined) history(json);
    },
  };
}
