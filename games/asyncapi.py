"""The websocket protocol as an AsyncAPI 2.6 document, served at /api/websocket.json.

One document for the three sockets of games/routing.py: what a client may
send (the consumers' `on_<type>` methods) and every message the server sends,
each payload a JSON Schema (draft 07, as AsyncAPI 2.6 reads it) with its
required keys. In AsyncAPI 2.x words the document describes the server, so a
channel's `publish` holds what clients send to it and `subscribe` what they
receive from it.

Pure data, built once: the object schemas are dicts merged in Python (a table
is its summary and more), never joined with `allOf`, so that every object
lists all its keys in one place. tests/realtime/test_websocket_schema.py
checks the document against AsyncAPI's own JSON Schema, each payload against
the consumers' real messages (with unlisted keys refused there), and the
constants below against the code they describe.
"""

from __future__ import annotations

import copy

VERSION = "1.0.0"

# games/consumers/base.py, checked by the tests.
CLOSE_CODES = {
    4401: "not logged in where a login is needed (/ws/me/), an unknown or revoked token, or the credential the "
          "socket was opened with ended (logged out, password changed, token revoked): an `error` with status 401 "
          "comes first",
    4404: "no such table, or a private table the viewer may not see (status 404 first), or the table was deleted "
          "meanwhile",
    4429: "too many anonymous /ws/lobby/ sockets from one address (status 429 first), or a client that kept sending "
          "after 200 messages the throttle dropped (no message first)",
    4503: "the live service (Redis), or for a socket's first read the database, is unreachable for a moment: poll "
          "the JSON API and connect again soon (no message first)",
}
MAX_MESSAGE_BYTES = 16 * 1024
RATE_PER_SECOND, BURST = 10, 20
PHRASES = ["noroc", "hello", "good_game", "well_played", "thanks", "oops", "your_turn", "sorry_must_go"]
MAX_TEXT_CHARS = 300
RULES = ["septica", "familie", "americana"]
STATUSES = ["open", "playing", "finished", "aborted"]
BOT_LEVELS = ["beginner", "medium", "expert", "master"]
BOT_STYLES = ["cautious", "balanced", "aggressive", "team", "expert"]
CHALLENGE_STATUSES = ["pending", "accepted", "declined", "expired", "withdrawn"]
ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 429, 503]
# Refusals of the socket's own, beside the rules' and chat's codes (games/words/unavailable.py).
SOCKET_ERROR_CODES = {
    "database_unavailable": "503: the database did not answer the work a message asked for (unreachable or timed "
                            "out). Nothing was done, a move's `seq` included: send the same message again in a moment. "
                            "The socket stays open, and what it missed meanwhile comes once the database answers.",
}

CARD = "^([2-9TJQKA][CDHS]|X[RB])$"
SUIT = "^[CDHS]$"


# --- small builders --------------------------------------------------------------------
def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict) -> dict:
    if set(schema) <= {"type", "description", "minimum", "maximum", "enum", "format", "pattern"} and "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        widened = {**schema, "type": [*kinds, "null"]}
        if "enum" in schema:
            widened["enum"] = [*schema["enum"], None]
        return widened
    return {"oneOf": [schema, {"type": "null"}]}


def obj(description: str, properties: dict, optional: tuple[str, ...] = (), **more) -> dict:
    """An object whose every key is required, except `optional` ones."""
    return {"type": "object", "description": description, "properties": properties,
            "required": [key for key in properties if key not in optional], **more}


def integer(description: str, minimum: int | None = 0) -> dict:
    return {"type": "integer", "description": description} | ({"minimum": minimum} if minimum is not None else {})


def string(description: str, **more) -> dict:
    return {"type": "string", "description": description, **more}


def boolean(description: str) -> dict:
    return {"type": "boolean", "description": description}


def seats(description: str) -> dict:
    return {"type": "array", "description": description, "items": ref("SeatNumber")}


def counts(description: str) -> dict:
    return {"type": "array", "description": description, "items": {"type": "integer"}}


def cards(description: str) -> dict:
    return {"type": "array", "description": description, "items": ref("Card")}


def typed(kind: str, description: str, properties: dict, optional: tuple[str, ...] = ()) -> dict:
    """A message's payload: its "type", then its keys."""
    return obj(description, {"type": {"type": "string", "const": kind}, **properties}, optional)


def by_key(key: str, description: str, branches: list[dict]) -> dict:
    """One of `branches`, told apart by `key` (each branch's `const` or `enum` there): an `if` for each,
    so that a validator checks one branch, not all (a view's log has a hundred entries)."""
    values = [value for branch in branches
              for value in ([branch["properties"][key]["const"]] if "const" in branch["properties"][key]
                            else branch["properties"][key]["enum"])]
    return {"description": description, "required": [key], "properties": {key: {"enum": values}},
            "allOf": [{"if": {"properties": {key: branch["properties"][key]}}, "then": branch} for branch in branches]}


def message(kind: str, message_id: str, summary: str, payload: dict, description: str = "",
            examples: list[dict] | None = None) -> dict:
    found = {"messageId": message_id, "name": kind, "title": kind, "summary": summary, "contentType": "application/json",
             "payload": payload}
    if description:
        found["description"] = description
    if examples:
        found["examples"] = [{"name": example.pop("name", kind), "payload": example} for example in examples]
    return found


# --- cards, moves, views -------------------------------------------------------------------
SCHEMAS: dict[str, dict] = {
    "Card": string("A card: rank (2-9, T for ten, J, Q, K, A) then suit (C, D, H, S); the jokers are XR and XB.",
                   pattern=CARD),
    "Suit": string("A suit: C, D, H or S.", pattern=SUIT),
    "SeatNumber": integer("A seat, from 0, in the order of play.", 0) | {"maximum": 5},
    "Rules": {"type": "string", "enum": RULES, "description": "The rule set."},
    "Options": {"type": "object", "description": "The rule set's options, every one with its value (septica: "
                "`match`, `eights_cut`, `teams`; familie: none; americana: `jokers`, `pairs`, `jacks_draw`, `target`)",
                "additionalProperties": {"type": ["string", "integer", "boolean"]}},
    "Result": obj("A finished match's result.", {
        "scores": counts("Each seat's final score (in team play the team's, for both partners)."),
        "winners": seats("The winning seats; empty when nobody won."),
        "resigned": seats("The seats whose people resigned (only on a table's result, when somebody did)."),
    }, optional=("resigned",)),
    "Move": {
        "description": "A move, as in `view.legal_moves` and `POST /api/tables/<id>/moves` (see /api/docs/#moves), "
                       "plus `resign`. Unknown keys are refused.",
        "oneOf": [
            obj("Play a card from your hand (americana: a seven names the suit to follow).", {
                "type": {"type": "string", "const": "play"}, "card": ref("Card"), "suit": ref("Suit"),
            }, optional=("suit",), additionalProperties=False),
            obj("Septica: the leader ends the trick (Gata). Septica, familie: the trick's winner takes it. Familie: "
                "decline to cut; americana: sit out a skip or move on. Americana: draw.", {
                "type": {"type": "string", "enum": ["end", "take", "pass", "draw"]},
            }, additionalProperties=False),
            obj("Resign the match (the site's move, not the rules'; any seq will do).", {
                "type": {"type": "string", "const": "resign"},
            }, additionalProperties=False),
        ],
    },
    "LogEntry": by_key("type", "One public event of the current deal. A draw shows no card.", [
        obj("A card played (americana: a seven with the suit it named).", {
            "seat": ref("SeatNumber"), "type": {"const": "play"}, "card": ref("Card"), "suit": ref("Suit"),
        }, optional=("suit",)),
        obj("Cards drawn, only counted (americana: `written_off`, the cards of a draw the stock could not give).", {
            "seat": ref("SeatNumber"), "type": {"const": "draw"}, "count": integer("Cards drawn."),
            "written_off": integer("Cards owed that the stock could not give."),
        }, optional=("written_off",)),
        obj("A pass (americana: `skip` when sitting out a skip, `written_off` when a draw was written off).", {
            "seat": ref("SeatNumber"), "type": {"const": "pass"}, "skip": boolean("A skip sat out."),
            "written_off": integer("Cards owed and written off."),
        }, optional=("skip", "written_off")),
        obj("Septica: the leader ended the trick (Gata).", {"seat": ref("SeatNumber"), "type": {"const": "end"}}),
        obj("A trick collected (septica: with its cards and points; familie: the `trick` entry after it has them).", {
            "seat": ref("SeatNumber"), "type": {"const": "take"}, "cards": cards("The trick's cards."),
            "points": integer("The points in it."),
        }, optional=("cards", "points")),
        obj("Familie: a finished trick, its cards and its points.", {
            "seat": ref("SeatNumber"), "type": {"const": "trick"}, "cards": cards("The trick's cards."),
            "points": integer("The points in it."),
        }),
        obj("Septica: the cards taken out of this deal's deck.", {
            "seat": {"type": "null"}, "type": {"const": "remove"}, "cards": cards("The cards taken out."),
        }),
        obj("Americana: a deal begins.", {
            "seat": {"type": "null"}, "type": {"const": "deal"}, "dealer": ref("SeatNumber"),
        }),
        obj("Americana: a card turned up to start the pile, or buried under the stock.", {
            "seat": {"type": "null"}, "type": {"type": "string", "enum": ["turn_up", "bury"]}, "card": ref("Card"),
        }),
        obj("Americana: the pile shuffled into a new stock.", {
            "seat": {"type": "null"}, "type": {"const": "reshuffle"}, "count": integer("Cards in the new stock."),
        }),
        obj("The deal is over (septica, familie: each seat's points; americana: who went out and what each was "
            "charged).", {
            "seat": {"type": "null"}, "type": {"const": "deal_over"}, "deal": integer("The deal's number."),
            "points": counts("Points per seat."), "out": nullable(ref("SeatNumber")),
            "charged": counts("Penalty points per seat."),
        }, optional=("deal", "points", "out", "charged")),
    ]),
    "TrickCard": obj("A card of the trick in play.", {"seat": ref("SeatNumber"), "card": ref("Card")}),
}

HIDDEN_CARDS = (
    "A view holds only the receiving socket's own seat's cards (`hand`); of every other seat it says only how many "
    "cards it holds (`hand_counts`), and of the stock only how many are left (`stock`). A spectator's `hand` and "
    "`legal_moves` are empty. No other hand, no card of the stock and no card shuffled face down is ever sent; the "
    "saved state's keys (`hands`, `decks`, `pile`, `seed`) never appear in a view. Cards every seat saw in this deal "
    "(played, taken, turned up, taken out) are public."
)

COMMON_VIEW = {
    "rules": ref("Rules"),
    "options": ref("Options"),
    "players": integer("The number of seats.", 2) | {"maximum": 6},
    "seat": nullable(ref("SeatNumber")) | {"description": "The receiving viewer's seat; null for a spectator."},
    "to_move": nullable(ref("SeatNumber")) | {"description": "The seat that must act; null once the match is over."},
    "finished": boolean("Whether the match is over."),
    "result": nullable(ref("Result")),
    "hand": cards("The receiving seat's own cards, and no other seat's: [] for a spectator. " + HIDDEN_CARDS),
    "hand_counts": counts("How many cards each seat holds: all a view says of another seat's hand."),
    "stock": integer("How many cards are left to draw (a count: the stock's cards are never sent)."),
    "legal_moves": {"type": "array", "items": ref("Move"),
                    "description": "The receiving seat's legal moves now; [] when it is not their turn, and for a "
                                   "spectator."},
    "scores": counts("The match totals per seat (in team play the team's total, for both partners)."),
    "deal": integer("The current deal's number, from 0."),
    "dealer": ref("SeatNumber"),
    "first": ref("SeatNumber"),
    "log": {"type": "array", "items": ref("LogEntry"), "description": "What happened so far in this deal, in public."},
}

TRICK_VIEW = {
    "points": counts("The points (tens and aces in septica) each seat has taken in this deal."),
    "table": {"type": "array", "items": ref("TrickCard"), "description": "The trick in play, in order."},
    "leader": nullable(ref("SeatNumber")) | {"description": "Who led the trick."},
    "holder": nullable(ref("SeatNumber")) | {"description": "Who holds the trick now; null with no trick."},
    "led_rank": nullable(string("The rank led; null with no trick.")),
}


def view_schema(rules: str, description: str, properties: dict, optional: tuple[str, ...] = ()) -> dict:
    schema = obj(description, {**COMMON_VIEW, **properties, "rules": {"type": "string", "const": rules}}, optional)
    schema["properties"] = {key: schema["properties"][key] for key in [*COMMON_VIEW, *properties]}
    return schema


SCHEMAS["SepticaView"] = view_schema("septica", "A septica view.", {
    **TRICK_VIEW,
    "removed": cards("The two eights taken out of the deck with 3, 5 or 6 players; [] otherwise."),
    "last_deal": nullable(obj("The deal before this one.", {"deal": integer("Its number."),
                                                             "points": counts("Points per seat.")})),
    "phase": {"type": "string", "enum": ["play", "decide", "take", "over"],
              "description": "play a card; decide (the leader goes on or ends); take (the holder collects); over."},
    "cutters": {"type": "array", "items": string("A rank."), "description": "The ranks that cut (7, and 8 when "
                "eights cut)."},
    "can_continue": boolean("Whether the leader may go on with the trick (phase decide)."),
    "teams": nullable({"type": "array", "items": seats("A team's seats."), "description": "The teams, in team play."}),
})
SCHEMAS["FamilieView"] = view_schema("familie", "A familie view (a match is one deal).", {
    **TRICK_VIEW,
    "phase": {"type": "string", "enum": ["lead", "cut", "take", "over"], "description": "The trick's phase."},
    "passed": seats("The seats that passed in this trick."),
    "last_deal": nullable(obj("The deal, once over.", {"deal": integer("Its number."), "points": counts("Points.")})),
})
SCHEMAS["AmericanaView"] = view_schema("americana", "An americana view.", {
    "hand_penalty": integer("What the receiving seat's hand would cost now."),
    "top": ref("Card") | {"description": "The card on top of the pile."},
    "suit": nullable(ref("Suit")) | {"description": "The suit in force; null after a joker."},
    "attack": {"description": "What is pointed at the player to move.", "oneOf": [
        obj("Draw that many cards.", {"kind": {"const": "draw"}, "count": integer("Cards to draw.", 1)}),
        obj("Sit out a turn.", {"kind": {"const": "skip"}}),
        {"type": "null"},
    ]},
    "pile_count": integer("Cards in the pile."),
    "passes": integer("Passes in a row."),
    "last_deal": nullable(obj("The deal before this one.", {
        "deal": integer("Its number."), "charged": counts("Penalty points per seat."),
        "out": nullable(ref("SeatNumber")) | {"description": "Who went out; null when the deal ended by passes."},
    })),
})
SCHEMAS["View"] = {
    "description": "What the receiving seat may see of the match (/api/docs/#views). " + HIDDEN_CARDS,
    "required": ["rules"],
    "properties": {"rules": ref("Rules")},
    "allOf": [
        *({"if": {"properties": {"rules": {"const": rules}}}, "then": ref(f"{rules.capitalize()}View")} for rules in RULES),
        {"if": {"properties": {"seat": {"type": "null"}}},
         "then": {"properties": {"hand": {"maxItems": 0}, "legal_moves": {"maxItems": 0}}}},
    ],
    "not": {"anyOf": [{"required": [key]} for key in ("hands", "decks", "deck", "pile", "seed")]},
}

# --- tables -----------------------------------------------------------------------------
SCHEMAS["Bot"] = obj("A bot seat's bot.", {
    "level": {"type": "string", "enum": BOT_LEVELS},
    "style": {"type": "string", "enum": BOT_STYLES},
    "name": nullable(string("Its first name for the match.")),
    "badge": string("Its level and style in words."),
    "rating": nullable(integer("The level's published rating for this rule set.", None)),
})
SCHEMAS["Seat"] = obj("A seat as the receiving viewer sees it.", {
    "seat": ref("SeatNumber"),
    "kind": {"type": "string", "enum": ["person", "bot", "free"]},
    "name": nullable(string("The person's display name or the bot's first name; null when free.")),
    "user_id": nullable(integer("The seated person's id (a bot standing in keeps it).", 1)),
    "bot": nullable(ref("Bot")),
    "standing_in": boolean("A bot plays this person's seat (their time ran out)."),
    "you": boolean("The seat is the receiving viewer's."),
    "reserved": boolean("Free, but kept for somebody (a rematch or a challenge)."),
    "reserved_for_you": boolean("Kept for the receiving viewer."),
    "resigned": boolean("The person resigned; a bot plays the seat to the end."),
    "reliability": nullable(integer("The person's reliability in percent (open and playing tables).")
                            | {"maximum": 100}),
    "profile_url": nullable(string("The person's profile page.")),
})
SUMMARY = {
    "id": integer("The table's id (its match's too).", 1),
    "url": string("The table's page."),
    "rules": ref("Rules"),
    "players": integer("The number of seats.", 2) | {"maximum": 6},
    "options": ref("Options"),
    "seconds_per_move": integer("The time per move.", 1),
    "private": boolean("Only its people and holders of the invite see it."),
    "rated": boolean("Whether the match changes its people's ratings."),
    "min_reliability": nullable(integer("The least reliability, in percent, a person needs to join.") | {"maximum": 100}),
    "status": {"type": "string", "enum": STATUSES},
    "created_by": string("The display name of who made the table."),
    "rematch_of": nullable(integer("The finished table this one is a rematch of.", 1)),
    "created_at": string("When the table was made (ISO 8601).", format="date-time"),
    "seats": {"type": "array", "items": ref("Seat")},
    "seats_taken": integer("Seats held by a person or a bot."),
    "seq": integer("The number of moves made in the match: a client that missed one asks again (`sync`)."),
    "to_move": nullable(ref("SeatNumber")),
    "deadline": nullable(string("When the player to move runs out of time (ISO 8601).", format="date-time")),
    "result": nullable(ref("Result")),
    "your_seat": nullable(ref("SeatNumber")) | {"description": "The receiving viewer's seat; null when not seated."},
    "words": obj("The table in the receiving viewer's language.", {
        "rules": string("The rule set's name."), "options": string("The options."), "time": string("The time per move."),
        "live": boolean("A live (short) time per move."), "result": string("The result, or empty."),
        "scores": string("The scores, or empty."), "rated": string("Rated or casual, and the least reliability."),
    }),
}
SCHEMAS["TableSummary"] = obj("A table as the lobby and My matches list it (GET /api/tables): no view, no seed.",
                              SUMMARY)
SCHEMAS["AbortRequest"] = obj("An open request to abort the match.", {
    "asked_by": string("Who asked."),
    "asked_by_seat": nullable(ref("SeatNumber")),
    "expires_at": string("When it lapses (ISO 8601).", format="date-time"),
    "answered": seats("The seats that accepted."),
    "you_may_answer": boolean("Whether the receiving viewer may answer it."),
})
TABLE = {
    **SUMMARY,
    "seed_sha256": string("The SHA-256 of the match's seed, from the table's creation.", pattern="^[0-9a-f]{64}$"),
    "seed": string("The seed, once the match is finished (never before)."),
    "abort_reason": string("Why a moderator aborted the match."),
    "invite_url": string("The invite link, for a seated player of a private table."),
    "can_add_bot": boolean("Whether the receiving viewer may seat a bot now."),
    "view": nullable(ref("View")) | {"description": "What the receiving seat may see; null until the match starts."},
    "abort_by": nullable({"type": "string", "enum": ["moderator", "players"],
                          "description": "Who aborted an aborted match."}),
    "may_resign": boolean("Whether the receiving viewer may resign."),
    "may_abort": nullable({"type": "string", "enum": ["alone", "ask"],
                           "description": "Whether the receiving viewer may abort alone or must ask the others."}),
    "abort_request": nullable(ref("AbortRequest")),
}
SCHEMAS["Challenge"] = obj("A challenge (GET /api/challenges).", {
    "id": integer("The challenge's id.", 1),
    "table_id": integer("Its table.", 1),
    "table_url": string("Its table's page."),
    "table_status": {"type": "string", "enum": STATUSES},
    "rules": ref("Rules"),
    "players": integer("Seats.", 2),
    "options": ref("Options"),
    "seconds_per_move": integer("The time per move.", 1),
    "rules_name": string("The rule set's name."),
    "time_words": string("The time per move in words."),
    "players_words": string("The seats in words."),
    "challenger": obj("Who challenged.", {"username": string("Username."), "display_name": string("Display name.")}),
    "created_at": string("When it was made.", format="date-time"),
    "expires_at": string("When it lapses.", format="date-time"),
    "invites": {"type": "array", "items": obj("One person challenged and their answer.", {
        "username": string("Username."), "display_name": string("Display name."), "seat": ref("SeatNumber"),
        "status": {"type": "string", "enum": CHALLENGE_STATUSES}, "status_words": string("The answer in words."),
        "answered_at": nullable(string("When they answered.", format="date-time")),
    })},
    "your_answer": nullable({"type": "string", "enum": CHALLENGE_STATUSES,
                             "description": "The receiving person's answer, when challenged."}),
})
SCHEMAS["ChatLine"] = {
    **obj("A chat line as its reader receives it.", {
        "id": integer("The line's id.", 1),
        "room": {"type": "string", "enum": ["players", "spectators"]},
        "author": obj("Who wrote it.", {"name": string("Display name."), "username": string("Username."),
                                        "profile_url": string("Profile page.")}),
        "phrase": {"type": "string", "enum": PHRASES, "description": "A quick phrase's code."},
        "text": string("Free text."),
        "words": string("The line in the reader's language (a phrase's words, or the text)."),
        "at": string("When it was said (ISO 8601).", format="date-time"),
    }, optional=("phrase", "text")),
    "oneOf": [{"required": ["phrase"], "not": {"required": ["text"]}},
              {"required": ["text"], "not": {"required": ["phrase"]}}],
}

# --- messages -------------------------------------------------------------------------
PING = message("ping", "ping", "Ask for a pong (and, at a table, keep your presence fresh).",
               typed("ping", "Any socket, any time.", {}), examples=[{"type": "ping"}])
PONG = message("pong", "pong", "The answer to a ping.", typed("pong", "The answer to a ping.", {}),
               examples=[{"type": "pong"}])
ERROR = message(
    "error", "error", "A refusal: of a message, of the socket, or of a chat line.",
    typed("error", "A refusal, as the JSON API's (/api/docs/#errors); `error` is in the socket's language.", {
        "status": {"type": "integer", "enum": ERROR_STATUSES, "description": "As the HTTP status would be."},
        "error": string("A sentence saying why, in the socket's language (from its handshake)."),
        "code": string("A stable name of the refusal, when it has one (a rule's, such as card-not-held, "
                       "chat's, such as chat_rate, or the socket's own: see x-error-codes)."),
        "params": {"type": "object", "description": "The cards, seats and counts a rule's refusal concerns."},
        "seq": nullable(integer("On a refused move: the match's current seq.")),
        "about": {"type": "string", "const": "chat", "description": "On a refused chat line."},
    }, optional=("code", "params", "seq", "about")),
    description=(
        "Sent for a message the socket refuses (400: not JSON, binary, no `type`, an unknown type, a bad shape, nested "
        f"too deep; 413: over {MAX_MESSAGE_BYTES} bytes; 429: over {RATE_PER_SECOND} messages a second on average, "
        f"{BURST} at once), for a refused move (400 illegal, with `code` and `params`; 403 not yours; 404; 409 the "
        "table moved on, with `seq`, followed by the current view unless this socket has it already), for a refused chat line (`about`: chat, to the "
        "writer alone), for any message whose database work could not be done (503, `code` database_unavailable: "
        "send it again in a moment; the socket stays open), and before the server closes the socket with 4401, 4404 "
        "or 4429 (see x-close-codes)."),
    examples=[{"name": "stale", "type": "error", "status": 409, "seq": 3,
               "error": "The table has moved on since you looked: here is where it stands."},
              {"name": "chat", "type": "error", "status": 429, "about": "chat", "code": "chat_rate",
               "error": "You are writing too fast."},
              {"name": "database", "type": "error", "status": 503, "code": "database_unavailable",
               "error": "The server could not reach its database just now, so this was not done. "
                        "Try again in a moment."}],
)
ERROR["x-error-codes"] = [{"code": code, "meaning": meaning} for code, meaning in SOCKET_ERROR_CODES.items()]
MESSAGES = {
    "move": message("move", "move", "Play a move, having seen `seq` moves.", typed("move", "A move.", {
        "seq": integer("The number of moves you have seen (the view's `seq`); resign takes any."),
        "move": ref("Move"),
    }), description="Answered with the new view, or an `error` with the match's `seq` (on 409 followed by the "
                    "current view, unless this socket has it already).",
        examples=[{"type": "move", "seq": 7, "move": {"type": "play", "card": "KH"}}]),
    "sync": message("sync", "sync", "Ask for the current view again.", typed("sync", "Resync.", {
        "seq": nullable(integer("The seq you have, if you like (not used).")),
    }, optional=("seq",)), description="Answered with the current view (even if unchanged) and, when the chat "
                                       "room changed, its history.", examples=[{"type": "sync"}]),
    "chat": message("chat", "sayChat", "Say a chat line: free text or a quick phrase.", {
        **typed("chat", "Exactly one of `text` and `phrase`.", {
            "text": string(f"Free text, 1 to {MAX_TEXT_CHARS} characters once trimmed.", maxLength=MAX_TEXT_CHARS,
                           pattern="\\S"),
            "phrase": {"type": "string", "enum": PHRASES, "description": "A quick phrase's code."},
        }, optional=("text", "phrase")),
        "oneOf": [{"required": ["text"], "not": {"required": ["phrase"]}},
                  {"required": ["phrase"], "not": {"required": ["text"]}}],
    }, description="Every socket that reads the room, the writer's too, then receives `chat`; a refusal comes to the "
                   "writer alone as an `error` with `about`: chat.",
        examples=[{"type": "chat", "text": "Hai noroc!"}, {"name": "phrase", "type": "chat", "phrase": "thanks"}]),
    "ping": PING,
    "pong": PONG,
    "error": ERROR,
    "view": message("view", "view", "The table as the receiving viewer may see it.", typed(
        "view", "Exactly what GET /api/tables/<id> answers this viewer, with a `type`.", TABLE,
        optional=("seed", "abort_reason", "invite_url")),
        description="On connect, after every committed change (unless this socket already has that state), in "
                    "answer to a move or a sync, and after a 409. `seq` only grows: a view older than one received "
                    "is never sent. " + HIDDEN_CARDS),
    "presence": message("presence", "presence", "Who has the table open now.", typed("presence", "Presence.", {
        "present": seats("The seats whose people have the table open."),
        "spectators": integer("How many others watch."),
    }), description="After the first view and whenever it changes.",
        examples=[{"type": "presence", "present": [0, 1], "spectators": 2}]),
    "chat_history": message("chat_history", "chatHistory", "The last lines of the viewer's chat room.", typed(
        "chat_history", "The last 100 lines, oldest first.", {
            "room": nullable({"type": "string", "enum": ["players", "spectators"],
                              "description": "The room the viewer reads; null with no chat (a spectator of a "
                                             "private table)."}),
            "lines": {"type": "array", "items": ref("ChatLine")},
            "phrases": {"type": "array", "items": obj("A quick phrase.", {
                "code": {"type": "string", "enum": PHRASES}, "words": string("Its words in the viewer's language.")})},
        }), description="After the first view, and again when the viewer's room changes (sitting down)."),
    "chat_line": message("chat", "chatLine", "A line said in the viewer's room.", typed("chat", "A line.", {
        "line": ref("ChatLine"),
    }), description="Never from a person the reader blocks; with the reader's `chat_text` off, only quick phrases "
                    "(and their own lines)."),
    "analysis_ready": message("analysis_ready", "analysisReady", "A finished match's analysis is ready.", typed(
        "analysis_ready", "Read it from GET /api/tables/<id>/analysis.", {
            "table": integer("The table's id.", 1),
        }), description="Once, to every socket open on the table when the Master has judged the last decision.",
        examples=[{"type": "analysis_ready", "table": 42}]),
    "lobby": message("lobby", "lobby", "The open public tables.", typed("lobby", "What GET /api/tables answers.", {
        "tables": {"type": "array", "items": ref("TableSummary"), "description": "Newest first."},
    }), description="On connect, and after every change on a plain socket."),
    "lobby_changes": message("lobby_changes", "lobbyChanges", "What changed in the lobby (sockets opened with "
                             "?changes=1).", typed("lobby_changes", "The changes since the last list.", {
        "order": {"type": "array", "items": integer("A table's id.", 1),
                  "description": "Every listed table's id, in order; drop the ids no longer named."},
        "tables": {"type": "array", "items": ref("TableSummary"),
                   "description": "The summaries that are new or differ; keep the others you have."},
    }), description="After every change, once the whole list was sent (as `lobby`)."),
    "my_matches": message("my_matches", "myMatches", "The receiving person's matches and challenges.", typed(
        "my_matches", "What GET /api/me/matches answers.", {
            "tables": {"type": "array", "items": ref("TableSummary"),
                       "description": "The person's tables: their move first, then the others, finished last."},
            "invitations": {"type": "array", "items": ref("TableSummary"),
                            "description": "Rematches keeping a seat for the person."},
            "your_move": integer("How many tables wait for the person's move."),
            "challenges": obj("Challenges for My matches.", {
                "received": {"type": "array", "items": ref("Challenge"),
                             "description": "Waiting for the person's answer."},
                "made": {"type": "array", "items": ref("Challenge"),
                         "description": "The person's own of the last two days, with each answer."},
            }),
        }), description="On connect and after every change to the person's matches or challenges (answered once "
                        "for a burst)."),
}


def msg(name: str) -> dict:
    return {"$ref": f"#/components/messages/{name}"}


def operation(operation_id: str, summary: str, names: list[str]) -> dict:
    return {"operationId": operation_id, "summary": summary, "message": {"oneOf": [msg(name) for name in names]}}


def bindings(query: dict) -> dict:
    return {"ws": {"method": "GET", "bindingVersion": "0.1.0",
                   "query": {"type": "object", "properties": {**query, "token": string(
                       "An API token, for clients that cannot send an Authorization header.")}},
                   "headers": {"type": "object", "properties": {
                       "Authorization": string("Bearer <API token>: a script needs no Origin then."),
                       "Origin": string("Browsers send it; it must be the site's."),
                       "Accept-Language": string("en or ro: the language of the socket's words and errors."),
                   }}}}


def close_codes(*codes: int) -> list[dict]:
    return [{"code": code, "reason": CLOSE_CODES[code]} for code in codes]


CHANNELS = {
    "/ws/tables/{table_id}/": {
        "description": "One table, live: its view for the receiving viewer, presence and chat. A public table is open "
                       "to anyone (anonymous sockets are spectators); a private one to its people and to holders of "
                       "`?invite=`.",
        "parameters": {"table_id": {"description": "The table's id.", "schema": {"type": "integer", "minimum": 1}}},
        "bindings": bindings({"invite": string("A private table's invite code.")}),
        "publish": operation("sendToTable", "What a client sends to a table.", ["move", "sync", "chat", "ping"]),
        "subscribe": operation("receiveFromTable", "What a table socket sends.",
                               ["view", "presence", "chat_history", "chat_line", "analysis_ready", "pong",
                                "error"]),
        "x-close-codes": close_codes(4401, 4404, 4429, 4503),
    },
    "/ws/lobby/": {
        "description": "The lobby's open public tables. No login needed; an address may hold at most "
                       "LOBBY_ANONYMOUS_SOCKETS_PER_ADDRESS anonymous lobby sockets per server process.",
        "bindings": bindings({"changes": {"type": "string", "enum": ["1"], "description":
                                          "1: the whole list once, then only `lobby_changes`."}}),
        "publish": operation("sendToLobby", "What a client sends to the lobby.", ["ping"]),
        "subscribe": operation("receiveFromLobby", "What a lobby socket sends.",
                               ["lobby", "lobby_changes", "pong", "error"]),
        "x-close-codes": close_codes(4401, 4429, 4503),
    },
    "/ws/me/": {
        "description": "The receiving person's matches, rematch invitations and challenges. Login (session or token) "
                       "required.",
        "bindings": bindings({}),
        "publish": operation("sendToMyMatches", "What a client sends to My matches.", ["ping"]),
        "subscribe": operation("receiveFromMyMatches", "What a My matches socket sends.",
                               ["my_matches", "pong", "error"]),
        "x-close-codes": close_codes(4401, 4429, 4503),
    },
}

DESCRIPTION = f"""The three websockets of the site, which push what the JSON API answers the moment it changes
(/api/docs/#live; the HTTP API's own schema is /api/openapi.json).

In AsyncAPI 2 terms this document describes the server: a channel's **publish** operation lists what a client
may send to it, **subscribe** what the client receives.

* Every message, both ways, is a JSON text frame: an object with a `type`. Messages may gain keys over time:
  ignore the ones you do not know.
* A client may send at most {RATE_PER_SECOND} messages a second on average ({BURST} at once), each at most
  {MAX_MESSAGE_BYTES} bytes; anything refused is answered with an `error` and changes nothing.
* Authenticate with the session cookie (a page of the site), `Authorization: Bearer <token>` or `?token=<token>`.
* Words (errors, names, summaries) are in the handshake's language (`Accept-Language`, or the language cookie).
* A socket the server closes gives a close code: see each channel's `x-close-codes`.
* `seq` counts a match's moves: a view is never older than one sent before; a client that thinks it missed
  one sends `sync`.

**Hidden cards.** {HIDDEN_CARDS}"""

DOCUMENT = {
    "asyncapi": "2.6.0",
    "id": "urn:septica:websockets",
    "info": {"title": "Septica live updates", "version": VERSION, "description": DESCRIPTION},
    "servers": {"site": {
        "url": "{host}", "protocol": "wss", "description": "The site itself (ws without TLS, as in development).",
        "variables": {"host": {"default": "localhost:8000", "description": "The site's host and port."}},
        "security": [{}, {"session": []}, {"bearer": []}, {"token": []}],
    }},
    "defaultContentType": "application/json",
    "channels": CHANNELS,
    "components": {
        "schemas": SCHEMAS,
        "messages": MESSAGES,
        "securitySchemes": {
            "session": {"type": "httpApiKey", "in": "cookie", "name": "sessionid",
                        "description": "The log-in session of the site's pages."},
            "bearer": {"type": "http", "scheme": "bearer", "description": "An API token (/accounts/tokens/)."},
            "token": {"type": "httpApiKey", "in": "query", "name": "token", "description": "An API token."},
        },
    },
    "x-close-codes": close_codes(*CLOSE_CODES),
}


def document(host: str | None = None, secure: bool = True) -> dict:
    """The document, for `host` when given (its server's url and protocol)."""
    found = copy.deepcopy(DOCUMENT)
    if host is not None:
        server = found["servers"]["site"]
        server["variables"]["host"]["default"] = host
        server["protocol"] = "wss" if secure else "ws"
    return found
