// LiveSocket: a websocket that heals itself.
//
//   const live = LiveSocket("/ws/tables/7/", { onMessage(msg) {}, onOpen(info) {}, onClose(info) {} });
//   live.send({ type: "sync", seq: 12 });   // false when it could not be sent
//   live.online                             // true while the socket is open
//
// After any drop (network, server restart, a silent dead link) it connects
// again with exponential backoff and jitter, 0.5 s doubling up to 10 s. A ping
// goes out every 20 s; when nothing comes back within 10 s the link counts as
// dropped. onOpen gets {reconnect: true} on every open after the first, which
// is when a page should ask for what it missed. A refusal (close codes
// 4401/4404) is final: trying again would only be refused again; 4503
// (the server cannot reach Redis, or its database for a new socket) is not,
// and the socket keeps trying.
//
// While the socket is down it can poll instead: with
//   poll: { url: "/api/me/matches", type: "my_matches", every: 5000 }
// it GETs that JSON (what the socket would have sent, without its "type")
// every `every` ms and hands it to onMessage as {type, ...json}, from the
// first failed connection until a socket opens again. The table page and the
// lobby poll by themselves (table/connection.js, lobby.js), so they pass no `poll`.
(function () {
  "use strict";

  const FINAL_CODES = new Set([4401, 4404]);
  const DEFAULTS = { minDelay: 500, maxDelay: 10000, pingEvery: 20000, pongWithin: 10000, pollEvery: 5000 };

  function absoluteURL(url) {
    if (/^wss?:\/\//.test(url)) return url;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${url}`;
  }

  function LiveSocket(url, handlers) {
    const options = Object.assign({}, DEFAULTS, handlers || {});
    const noop = () => {};
    const onMessage = options.onMessage || noop, onOpen = options.onOpen || noop, onClose = options.onClose || noop;
    let socket = null;
    let attempt = 0; // failed tries since the last good connection
    let opened = 0; // how many times a socket has opened
    let retryTimer = null, pingTimer = null, pongTimer = null, openTimer = null, pollTimer = null;
    let stopped = false;
    const poll = options.poll || null;

    // Polling stands in for the socket only while it is down, at a modest pace.
    function startPolling() {
      if (!poll || pollTimer || stopped) return;
      pollTimer = setTimeout(pollOnce, 0);
    }
    function stopPolling() {
      clearTimeout(pollTimer);
      pollTimer = null;
    }
    async function pollOnce() {
      if (document.visibilityState === "visible") {
        try {
          const response = await fetch(poll.url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
          if (pollTimer && response.ok) onMessage(Object.assign({ type: poll.type }, await response.json()));
        } catch (error) {
          /* offline too: the next round tries again */
        }
      }
      if (pollTimer) pollTimer = setTimeout(pollOnce, poll.every || options.pollEvery);
    }

    // Full jitter on the upper half, so many pages dropped together do not all come back together.
    function backoff() {
      const ceiling = Math.min(options.maxDelay, options.minDelay * 2 ** attempt);
      return ceiling / 2 + Math.random() * (ceiling / 2);
    }

    function connect() {
      clearTimeout(retryTimer);
      retryTimer = null;
      if (stopped || socket) return;
      let ws;
      try {
        ws = new WebSocket(absoluteURL(url));
      } catch (error) {
        scheduleRetry();
        startPolling();
        return;
      }
      socket = ws;
      // A connection that hangs half-open on a dead network counts as failed.
      openTimer = setTimeout(() => ws === socket && ws.readyState !== WebSocket.OPEN && dropped(0), options.pongWithin);
      ws.onopen = () => {
        if (ws !== socket) return;
        clearTimeout(openTimer);
        stopPolling();
        opened += 1;
        startHeartbeat();
        onOpen({ reconnect: opened > 1 });
      };
      ws.onmessage = (event) => {
        if (ws !== socket) return;
        attempt = 0; // a server that answers is a good connection
        heard();
        let message;
        try {
          message = JSON.parse(event.data);
        } catch (error) {
          return;
        }
        if (message && message.type !== "pong") onMessage(message);
      };
      ws.onclose = (event) => {
        if (ws !== socket) return;
        dropped(event.code);
      };
      ws.onerror = () => {
        /* onclose follows and does the work */
      };
    }

    // Forget the socket at once (a dead link may take minutes to finish closing) and plan the next try.
    function dropped(code) {
      const ws = socket;
      const wasOpen = ws && ws.readyState === WebSocket.OPEN;
      socket = null;
      clearTimeout(openTimer);
      stopHeartbeat();
      if (ws) {
        ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
        try {
          ws.close();
        } catch (error) {
          /* already closing */
        }
      }
      const final = FINAL_CODES.has(code);
      if (final) {
        stopped = true;
        stopPolling();
      }
      onClose({ code: code || 0, final, wasOpen });
      if (!final) {
        scheduleRetry();
        startPolling();
      }
    }

    function scheduleRetry() {
      if (stopped || retryTimer) return;
      const delay = backoff();
      attempt += 1;
      retryTimer = setTimeout(connect, delay);
    }

    function startHeartbeat() {
      stopHeartbeat();
      pingTimer = setInterval(() => {
        if (!send({ type: "ping" })) return;
        if (!pongTimer) pongTimer = setTimeout(() => dropped(0), options.pongWithin);
      }, options.pingEvery);
    }
    function heard() {
      clearTimeout(pongTimer);
      pongTimer = null;
    }
    function stopHeartbeat() {
      clearInterval(pingTimer);
      heard();
      pingTimer = null;
    }

    function send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      try {
        socket.send(JSON.stringify(message));
        return true;
      } catch (error) {
        return false;
      }
    }

    // Try at once when the browser says the network is back or the page is looked at again.
    function now() {
      if (stopped || socket) return;
      attempt = 0;
      connect();
    }
    function wentOffline() {
      if (socket) dropped(0);
    }
    function onVisible() {
      if (document.visibilityState === "visible") now();
    }
    window.addEventListener("online", now);
    window.addEventListener("offline", wentOffline);
    document.addEventListener("visibilitychange", onVisible);

    connect();

    return {
      send,
      get online() {
        return Boolean(socket) && socket.readyState === WebSocket.OPEN;
      },
      get stopped() {
        return stopped;
      },
      close() {
        stopped = true;
        stopPolling();
        clearTimeout(retryTimer);
        window.removeEventListener("online", now);
        window.removeEventListener("offline", wentOffline);
        document.removeEventListener("visibilitychange", onVisible);
        if (socket) {
          const ws = socket;
          socket = null;
          stopHeartbeat();
          ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
          ws.close();
        }
      },
      reconnect: now,
    };
  }

  window.LiveSocket = LiveSocket;
})();
