// The lobby, My matches and the create form. Every page works without this
// script; it keeps the lists fresh and fills the create form from a preset in
// place. The lists are drawn by render(), fed by websockets (/ws/lobby/, and
// /ws/me/ through site.js); only while a socket is down do they poll the API:
//   window.septicaLists.lobby.render({tables: [...]})   or   .refresh()
(() => {
  "use strict";

  const fmt = (text, params) => text.replace(/%\((\w+)\)[sd]/g, (_, key) => String(params[key] ?? ""));

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function readJson(id) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  // --- lists kept fresh from the API -------------------------------------------
  function liveList(config, draw) {
    let last = null;
    const list = {
      render(data) {
        const key = JSON.stringify(data);
        if (key === last) return; // nothing changed: leave the page (and the focus) alone
        last = key;
        keepingFocus(() => draw(data));
      },
      async refresh() {
        try {
          const response = await fetch(config.api, { headers: { Accept: "application/json" }, credentials: "same-origin" });
          if (response.ok) list.render(await response.json());
        } catch (error) {
          // Offline for a moment: keep showing the last list and try again on the next tick.
        }
      },
      start(isLive = () => false) {
        const tick = () => { if (!document.hidden && !isLive()) list.refresh(); };
        setInterval(tick, config.refresh_ms);
        document.addEventListener("visibilitychange", tick);
      },
    };
    return list;
  }

  // A re-drawn list must not throw a keyboard user back to the top of the page.
  function keepingFocus(draw) {
    const active = document.activeElement;
    const key = active && active.dataset ? active.dataset.focus : null;
    draw();
    if (!key) return;
    const again = document.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    if (again && again !== document.activeElement) again.focus();
  }

  function pageTools(config) {
    const W = config.words;
    const csrf = () => document.querySelector("#lobby-csrf [name=csrfmiddlewaretoken]").value;
    const urlFor = (name, id) => config.urls[name].replace(config.urls.url_id, String(id));
    function postForm(action, label, focus, { primary = false, fields = {} } = {}) {
      const form = el("form", { method: "post", action }, el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrf() }));
      for (const [name, value] of Object.entries(fields)) form.append(el("input", { type: "hidden", name, value }));
      form.append(el("button", { type: "submit", class: primary ? "primary" : null, "data-focus": focus }, label));
      return form;
    }
    // A seat kept at a new table is a challenge's; at a rematch, for the last match's player.
    const kept = (t) => (t.rematch_of ? W.kept : W.kept_invited);
    function seatNames(t) {
      const names = t.seats.map((s) => {
        const text = s.you ? W.you : s.name || (s.reserved ? kept(t) : W.free);
        if (!s.you && s.bot) return el("span", { class: `seat seat--${s.kind}` }, text, " ", el("span", { class: "badge" }, `${W.bot} · ${s.bot.badge}`));
        // A person's name opens their profile (players/); bots have none.
        return el("span", { class: `seat seat--${s.kind}` }, !s.you && s.profile_url ? el("a", { href: s.profile_url }, text) : text);
      });
      return names.flatMap((node, i) => (i ? [", ", node] : [node]));
    }
    const perMove = (t) => fmt(W.per_move, { time: t.words.time });
    const seatsCount = (t) => fmt(W.seats, { taken: t.seats_taken, total: t.players });
    return { W, urlFor, postForm, seatNames, perMove, seatsCount };
  }

  // --- the lobby -------------------------------------------------------------------
  function lobbyPage(config) {
    const { W, urlFor, postForm, seatNames, perMove, seatsCount } = pageTools(config);
    const list = document.getElementById("lobby-tables");
    const news = document.getElementById("lobby-news");
    let known = new Set([...list.querySelectorAll("[data-table]")].map((li) => li.dataset.table));

    const joinable = (t) => t.seats.some((s) => s.kind === "free" && (!s.reserved || s.reserved_for_you));

    function actions(t) {
      if (t.your_seat !== null) {
        return [
          el("a", { class: "button", href: t.url, "data-focus": `open-${t.id}` }, W.open_table),
          postForm(urlFor("leave", t.id), W.leave, `leave-${t.id}`, { fields: { next: location.pathname } }),
        ];
      }
      if (!config.logged_in) return el("a", { class: "button", href: config.urls.login, "data-focus": `login-${t.id}` }, W.log_in_to_join);
      if (joinable(t)) return postForm(urlFor("join", t.id), W.join, `join-${t.id}`, { primary: true });
      return el("span", { class: "muted" }, kept(t));
    }

    const card = (t) => el("li", { class: "table-card", "data-table": t.id },
      el("div", { class: "table-card__head" },
        el("h2", { class: "table-card__rules" }, t.words.rules),
        el("span", { class: "table-card__time" }, `${perMove(t)} · ${t.words.live ? W.live : W.correspondence}`)),
      el("p", { class: "table-card__options" }, `${t.words.options} · ${t.words.rated}`),
      el("p", { class: "table-card__seats" }, el("span", { class: "table-card__count" }, seatsCount(t)), ": ", seatNames(t)),
      el("div", { class: "table-card__actions" }, actions(t)));

    return liveList(config, (data) => {
      const tables = data.tables;
      list.replaceChildren(...(tables.length ? tables.map(card) : [el("li", { class: "table-list__empty" }, W.no_tables)]));
      const fresh = tables.find((t) => !known.has(String(t.id)));
      if (fresh && news) news.textContent = fmt(W.new_table, { rules: fresh.words.rules });
      known = new Set(tables.map((t) => String(t.id)));
    });
  }

  // --- My matches --------------------------------------------------------------------
  const SECTIONS = ["my_move", "playing", "open", "finished"];

  function sectionOf(t) {
    if (t.status === "playing") return t.to_move === t.your_seat ? "my_move" : "playing";
    if (t.status === "open") return "open";
    if (t.status === "aborted" && t.seq === 0) return null; // called off before a card was played
    return "finished";
  }

  function matchesPage(config) {
    const Durations = window.SepticaDurations; // static/js/durations.js, loaded before this script
    const { W, urlFor, postForm, seatNames, perMove, seatsCount } = pageTools(config);
    const root = document.getElementById("my-matches");
    const invitations = document.getElementById("invitations");

    const timeLeft = (t) => el("span", { class: "time-left", "data-deadline": t.deadline }, "");
    const toMoveName = (t) => (t.seats.find((s) => s.seat === t.to_move) || {}).name || "";

    function status(name, t) {
      if (name === "my_move") return [el("strong", {}, W.sections.my_move), " · ", timeLeft(t)];
      if (name === "playing") return [fmt(W.to_move, { name: toMoveName(t) }), " · ", timeLeft(t)];
      if (name === "open") return seatsCount(t);
      if (t.status === "finished") return [el("strong", { class: "result" }, t.words.result), " · ", el("span", { class: "scores" }, t.words.scores)];
      return W.called_off;
    }

    function actions(name, t) {
      const open = el("a", { class: name === "my_move" ? "button primary" : "button", href: t.url, "data-focus": `open-${t.id}` },
        name === "my_move" ? W.play : W.open_table);
      if (name === "open") return [open, postForm(urlFor("leave", t.id), W.leave, `leave-${t.id}`)];
      if (t.status === "finished") return [open, postForm(urlFor("rematch", t.id), W.rematch, `rematch-${t.id}`)];
      return open;
    }

    const card = (name, t) => el("li", { class: `table-card table-card--${name}`, "data-table": t.id },
      el("div", { class: "table-card__head" },
        el("h3", { class: "table-card__rules" }, el("a", { href: t.url }, t.words.rules)),
        el("span", { class: "table-card__time" }, perMove(t))),
      el("p", { class: "table-card__options" }, `${t.words.options} · ${t.words.rated}`),
      el("p", { class: "table-card__seats" }, seatNames(t)),
      el("p", { class: "table-card__status" }, status(name, t)),
      el("div", { class: "table-card__actions" }, actions(name, t)));

    const invitation = (t) => el("li", { class: "table-card table-card--invite", "data-table": t.id },
      el("div", { class: "table-card__head" }, el("h3", { class: "table-card__rules" }, fmt(t.rematch_of === null ? W.challenges_you : W.asks_rematch, { name: t.created_by }))),
      el("p", { class: "table-card__options" }, `${t.words.rules} · ${t.words.options} · ${t.words.rated} · ${perMove(t)}`),
      el("div", { class: "table-card__actions" },
        postForm(urlFor("join", t.id), W.join, `join-${t.id}`, { primary: true, fields: { next: location.pathname } })));

    // Challenges: those waiting for my answer, and my own with each person's answer so far.
    const challengeForm = (answer, c, primary = false) =>
      postForm(urlFor(`challenge_${answer}`, c.id), W[answer], `${answer}-${c.id}`, { primary });
    const others = (c) => c.invites.filter((i) => i.username !== config.username);

    const received = (c) => el("li", { class: "table-card table-card--invite", "data-challenge": c.id, "data-table": c.table_id },
      el("div", { class: "table-card__head" }, el("h3", { class: "table-card__rules" }, fmt(W.challenges_you, { name: c.challenger.display_name }))),
      el("p", { class: "table-card__options" }, `${c.rules_name} · ${c.players_words} · ${fmt(W.per_move, { time: c.time_words })}`),
      c.invites.length > 1
        ? el("p", { class: "table-card__seats" }, `${W.also_challenged} ${others(c).map((i) => `${i.display_name} (${i.status_words})`).join(", ")}`)
        : null,
      el("div", { class: "table-card__actions" }, challengeForm("accept", c, true), challengeForm("decline", c)));

    const made = (c) => el("li", { class: "table-card", "data-challenge": c.id },
      el("div", { class: "table-card__head" },
        el("h3", { class: "table-card__rules" }, el("a", { href: c.table_url }, fmt(W.table_number, { id: c.table_id })), ` · ${c.rules_name}`)),
      el("p", { class: "table-card__seats" }, c.invites.flatMap((i, n) => [
        ...(n ? [", "] : []),
        el("span", { class: `challenge-answer challenge-answer--${i.status}` }, `${i.display_name}: ${i.status_words}`)])),
      c.table_status === "open" ? el("div", { class: "table-card__actions" }, challengeForm("withdraw", c)) : null);

    function drawChallenges(challenges) {
      for (const [id, items, draw] of [["challenges-received", challenges.received, received], ["challenges-made", challenges.made, made]]) {
        const section = document.getElementById(id);
        if (!section) continue;
        section.hidden = !items.length;
        section.querySelector("ul").replaceChildren(...items.map(draw));
      }
    }

    function drawSections(tables) {
      const grouped = Object.fromEntries(SECTIONS.map((name) => [name, []]));
      for (const t of tables) {
        const name = sectionOf(t);
        if (name) grouped[name].push(t);
      }
      const sections = SECTIONS.map((name) => el("section", { class: "match-section", "data-section": name, hidden: !grouped[name].length },
        el("h2", {}, W.sections[name]),
        el("ul", { class: "table-list" }, grouped[name].map((t) => card(name, t)))));
      const empty = root.querySelector("[data-empty]");
      empty.hidden = SECTIONS.some((name) => grouped[name].length);
      root.replaceChildren(...sections, empty);
    }

    function tick() {
      const now = Date.now();
      for (const span of document.querySelectorAll(".time-left[data-deadline]")) {
        const left = Durations.secondsUntil(span.dataset.deadline, now);
        if (!Number.isNaN(left)) span.textContent = fmt(W.time_left, { time: Durations.timeLeft(left, W.units) });
      }
    }
    setInterval(tick, 1000);

    return liveList(config, (data) => {
      drawSections(data.tables);
      const invites = data.invitations || [];
      invitations.hidden = !invites.length;
      invitations.querySelector("ul").replaceChildren(...invites.map(invitation));
      if (data.challenges) drawChallenges(data.challenges);
      tick();
    });
  }

  // --- the create form -------------------------------------------------------------
  function createForm(config) {
    const form = document.getElementById("create-table");
    const presets = document.getElementById("presets");
    const input = (name) => form.elements.namedItem(name);
    const valueOf = (name) => {
      const field = input(name);
      if (!field) return undefined;
      return field.type === "checkbox" ? field.checked : field.value;
    };
    function setValue(name, value) {
      const field = input(name);
      if (!field) return;
      if (field.type === "checkbox") field.checked = Boolean(value);
      else field.value = String(value);
    }
    const limits = () => config.rules[valueOf("rules")];

    // A new player count brings that count's defaults for the options that depend on it.
    function countDefaults() {
      const defaults = limits().defaults[valueOf("players")] || {};
      for (const name of ["eights_cut", "teams"]) if (name in defaults) setValue(name, defaults[name]);
    }

    function show(node, visible) {
      node.hidden = !visible;
      // A hidden field is not sent, so the server never sees an option that does not apply.
      for (const field of node.querySelectorAll("input, select")) field.disabled = !visible;
    }

    function update() {
      const rules = valueOf("rules");
      const { min, max } = limits();
      const playersField = input("players");
      for (const option of playersField.options) option.disabled = Number(option.value) < min || Number(option.value) > max;
      const clamped = Math.min(max, Math.max(min, Number(playersField.value)));
      if (clamped !== Number(playersField.value)) { playersField.value = String(clamped); countDefaults(); }
      const players = clamped;
      for (const note of form.querySelectorAll("[data-rules-note]")) note.hidden = note.dataset.rulesNote !== rules;
      for (const fieldset of form.querySelectorAll("fieldset[data-rules]")) {
        const ours = fieldset.dataset.rules === rules;
        show(fieldset, ours);
        for (const field of fieldset.querySelectorAll("[data-players]")) {
          show(field, ours && field.dataset.players.split(" ").map(Number).includes(players));
        }
      }
      for (const row of form.querySelectorAll(".seat-row")) {
        const seated = Number(row.dataset.seat) < players;
        show(row, seated);
        const bot = seated && valueOf(`seat_${row.dataset.seat}`) === "bot";
        for (const part of row.querySelectorAll(".seat-bot")) show(part, bot);
      }
      markPreset();
    }

    function markPreset() {
      for (const button of presets.querySelectorAll("[data-preset]")) {
        const fields = config.presets[button.dataset.preset];
        const same = Object.entries(fields).every(([name, value]) => String(valueOf(name)) === String(value));
        button.setAttribute("aria-pressed", String(same));
      }
    }

    function applyPreset(slug) {
      const fields = config.presets[slug];
      setValue("rules", fields.rules);
      setValue("players", fields.players);
      countDefaults();
      for (const [name, value] of Object.entries(fields)) setValue(name, value);
      update();
    }

    presets.addEventListener("click", (event) => {
      const button = event.target.closest("[data-preset]");
      if (!button) return;
      event.preventDefault();
      applyPreset(button.dataset.preset);
    });
    form.addEventListener("change", (event) => {
      if (event.target.name === "rules" || event.target.name === "players") countDefaults();
      update();
    });
    update();
    const errors = document.getElementById("form-errors");
    if (errors) errors.focus();
  }

  // --- start ---------------------------------------------------------------------------
  const config = readJson("lobby-config");
  window.septicaLists = {};
  if (config && document.getElementById("lobby-tables")) {
    const lobby = lobbyPage(config);
    window.septicaLists.lobby = lobby;
    let socket = null;
    if (window.LiveSocket && window.WebSocket) {
      // The whole list when the socket opens, then only what changed: every id in order, and the tables that are new or differ.
      let tables = [];
      socket = window.LiveSocket("/ws/lobby/?changes=1", {
        onMessage(message) {
          if (message.type === "lobby") {
            tables = message.tables;
          } else if (message.type === "lobby_changes") {
            const known = new Map(tables.map((table) => [table.id, table]));
            for (const table of message.tables) known.set(table.id, table);
            tables = message.order.map((id) => known.get(id)).filter(Boolean);
          } else {
            return;
          }
          lobby.render({ tables });
        },
      });
    }
    lobby.start(() => Boolean(socket && socket.online));
  }
  if (config && document.getElementById("my-matches")) {
    const matches = matchesPage(config);
    window.septicaLists.myMatches = matches;
    const show = (message) => matches.render({ tables: message.tables, invitations: message.invitations || [], challenges: message.challenges });
    document.addEventListener("septica:me", (event) => show(event.detail));
    if (window.septicaMe && window.septicaMe.last) show(window.septicaMe.last);
    matches.start(() => Boolean(window.septicaMe && window.septicaMe.online));
  }
  const createConfig = readJson("create-config");
  if (createConfig) createForm(createConfig);
})();
