// A time left in words, as the server says it (games/words/durations.py): from
// the largest unit that fits, two units at most, the empty one left out:
// "4 min 12 s", "23 h 59 min", "2 d 3 h". The unit words ("%(n)d min") come
// with each page's words, translated on the server.
(function () {
  "use strict";
  const UNITS = [[86400, "d"], [3600, "h"], [60, "min"], [1, "s"]];
  const PARTS = 2;

  function secondsUntil(deadline, now) {
    return Math.max(0, Math.floor((Date.parse(deadline) - (now === undefined ? Date.now() : now)) / 1000));
  }

  function timeLeft(seconds, words) {
    let start = UNITS.findIndex(([size]) => seconds >= size);
    if (start < 0) start = UNITS.length - 1;
    const said = [];
    let rest = seconds;
    for (const [size, unit] of UNITS.slice(start, start + PARTS)) {
      const count = Math.floor(rest / size);
      rest %= size;
      if (count || !said.length) said.push(String(words[unit]).replace("%(n)d", count));
    }
    return said.join(" ");
  }

  window.SepticaDurations = { secondsUntil, timeLeft };
})();
