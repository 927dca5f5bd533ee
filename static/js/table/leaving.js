// Leaving a match fairly, on a real table's page: resign, abort (alone while the match is young,
// else by asking everyone), and the banner of an open request with its answers. The server
// decides what may be done (the table's may_resign, may_abort and abort_request); this shows it.
const $ = (id) => document.getElementById(id);
const fmt = (text, values) => interpolate(text, values, true);

export function createLeaving({ post, render, toast, current }) {
  let busy = false;

  async function send(suffix, body) {
    if (busy) return false;
    busy = true;
    try {
      const { status, json } = await post(suffix, body);
      if (status === 200 && json.seats) {
        render(json);
        return true;
      }
      toast(json.error || gettext("The server could not be reached. Try again."));
      return false;
    } finally {
      busy = false;
    }
  }

  function showDialog(data) {
    const mayAbort = data.may_abort;
    $("leave-abort").hidden = !mayAbort;
    if (mayAbort) {
      $("leave-abort-text").textContent = $("leave-abort-text").dataset[mayAbort];
      $("leave-abort-button").textContent = $("leave-abort-button").dataset[mayAbort];
    }
    $("leave-resign").hidden = !data.may_resign;
    const ffa = data.players > 2 && !(data.view && data.view.teams);
    $("leave-resign-text").textContent = $("leave-resign-text").dataset[ffa ? "last" : "side"];
  }

  function seatName(data, seat) {
    const info = data.seats[seat];
    return (info && info.name) || fmt(gettext("Seat %(n)s"), { n: seat + 1 });
  }

  function showRequest(data) {
    const box = $("abort-request");
    const request = data.abort_request;
    box.hidden = !request;
    if (!request) return;
    const until = new Date(request.expires_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const mine = data.your_seat !== null && data.your_seat === request.asked_by_seat;
    let text = mine
      ? fmt(gettext("You asked to abort this match; the others have until %(time)s to answer."), { time: until })
      : fmt(gettext("%(name)s asks to abort this match (until %(time)s)."), { name: request.asked_by, time: until });
    if (request.answered.length) {
      const names = request.answered.map((seat) => seatName(data, seat)).join(", ");
      text += " " + fmt(gettext("Agreed so far: %(names)s."), { names });
    }
    $("abort-request-text").textContent = text;
    $("abort-request-actions").hidden = !request.you_may_answer;
  }

  function update(data) {
    const tool = $("leave-tool");
    if (!tool) return;
    tool.hidden = !(data.may_resign || data.may_abort);
    if (tool.hidden && $("leave-dialog").open) $("leave-dialog").close();
    if ($("leave-dialog").open) showDialog(data);
    showRequest(data);
  }

  if ($("leave-tool")) {
    $("leave-tool").addEventListener("click", () => showDialog(current()));
    $("leave-resign-button").addEventListener("click", async () => {
      if (await send("/moves", { seq: current().seq, move: { type: "resign" } })) $("leave-dialog").close();
    });
    $("leave-abort-button").addEventListener("click", async () => {
      if (await send("/abort", {})) $("leave-dialog").close();
    });
    $("abort-request").addEventListener("click", (event) => {
      const button = event.target.closest("[data-abort-answer]");
      if (button) send("/abort/answer", { accept: button.dataset.abortAnswer === "yes" });
    });
  }
  return { update };
}
