"""The create-a-table form: presets, every option of each rule set, seats for bots.

The form only collects; the options are checked by the engine's
`validate_options` (through `actions.create_table`), whose sentence is shown
on the form when it refuses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from . import actions
from .actions.challenges import create_challenge
from .engine import rules_for
from .models import BotLevel, BotStyle
from .words.durations import TIME_STEPS, duration_in_words
from .words.rulesets import MATCH_FORMATS, RULE_SETS

MAX_PLAYERS = 6
OTHER_SEATS = range(1, MAX_PLAYERS)
AMERICANA_TARGETS = (101, 301, 501)
RELIABILITY_STEPS = (50, 70, 80, 90, 95)
# A new table starts against bots on a live clock, so a newcomer plays at once;
# waiting for people and slow clocks are one choice away.
DEFAULT_SECONDS = 60
DEFAULT_SEAT_KIND = "bot"

# Choices are built once, at import; these say their words in the language of each request.
duration_in_words_lazy = lazy(duration_in_words, str)
penalty_points_lazy = lazy(lambda n: gettext("%(n)d penalty points") % {"n": n}, str)


@dataclass(frozen=True)
class Preset:
    slug: str
    label: str
    blurb: str
    rules: str
    players: int
    options: dict = field(default_factory=dict)

    def fields(self) -> dict:
        """The form fields this preset sets; everything else stays as it was."""
        return {"rules": self.rules, "players": self.players, **self.options}


PRESETS = (
    Preset(
        "septica-8",
        _("Septica Clasica — short table to 8"),
        _("2 players, deals until someone reaches 8 points"),
        "septica",
        2,
        {"match": "points-8"},
    ),
    Preset(
        "septica-21",
        _("Septica Clasica — long table to 21"),
        _("2 players, deals until someone reaches 21 points"),
        "septica",
        2,
        {"match": "points-21"},
    ),
    Preset(
        "quick",
        _("Quick play — best of 3"),
        _("2 players, the first to win two games"),
        "septica",
        2,
        {"match": "best-of-3"},
    ),
    Preset("familie", _("Familie"), _("3 players, jokers in, one deal"), "familie", 3),
    Preset(
        "americana-101",
        _("Americana to 101"),
        _("2 players; the first to 101 penalty points loses"),
        "americana",
        2,
        {"target": 101},
    ),
    Preset(
        "americana-301",
        _("Americana to 301"),
        _("2 players; the first to 301 penalty points loses"),
        "americana",
        2,
        {"target": 301},
    ),
    Preset(
        "americana-501",
        _("Americana to 501"),
        _("2 players; the first to 501 penalty points loses"),
        "americana",
        2,
        {"target": 501},
    ),
)
PRESETS_BY_SLUG = {preset.slug: preset for preset in PRESETS}
DEFAULT_PRESET = PRESETS[0]

SEAT_KINDS = (("bot", _("A bot")), ("person", _("Wait for a person")))


@dataclass(frozen=True)
class QuickGame:
    """A match against bots that the home page starts in one tap, its settings said on its button."""

    rules: str
    players: int
    options: dict = field(default_factory=dict)
    seconds_per_move: int = DEFAULT_SECONDS
    level: str = BotLevel.MEDIUM

    def bots(self) -> list[actions.BotSpec]:
        return [actions.BotSpec(seat=number, level=self.level) for number in range(1, self.players)]

    def blurb(self) -> str:
        """ "2 players · you and a Medium bot · 1 min per move" """
        bots = self.players - 1
        level = BotLevel(self.level).label
        return " · ".join((
            ngettext("%(n)d player", "%(n)d players", self.players) % {"n": self.players},
            ngettext("you and a %(level)s bot", "you and %(n)d %(level)s bots", bots) % {"n": bots, "level": level},
            gettext("%(time)s per move") % {"time": duration_in_words(self.seconds_per_move)},
        ))

    def create(self, user):
        return actions.create_table(user, rules=self.rules, players=self.players, options=self.options,
                                    seconds_per_move=self.seconds_per_move, bots=self.bots())


QUICK_GAMES = {
    "septica": QuickGame("septica", 2, {"match": "points-8"}),
    "familie": QuickGame("familie", 3),
    "americana": QuickGame("americana", 2, {"target": 101}),
}


def seat_field(number: int, part: str = "") -> str:
    return f"seat_{number}_{part}" if part else f"seat_{number}"


class CreateTableForm(forms.Form):
    rules = forms.ChoiceField(label=_("Game"), choices=[(ruleset.slug, words.name) for ruleset, words in RULE_SETS.items()])
    players = forms.TypedChoiceField(
        label=_("Players"), coerce=int, choices=[(n, str(n)) for n in range(2, MAX_PLAYERS + 1)]
    )
    # septica
    match = forms.ChoiceField(label=_("Match"), choices=list(MATCH_FORMATS.items()), required=False)
    eights_cut = forms.BooleanField(
        label=_("Eights cut too (tăietură)"),
        required=False,
        help_text=_("With 3, 5 or 6 players, where two eights are taken out."),
    )
    teams = forms.BooleanField(
        label=_("Play in teams"), required=False, help_text=_("With 4 or 6 players: partners sit opposite.")
    )
    # americana
    target = forms.TypedChoiceField(
        label=_("Play to"),
        coerce=int,
        required=False,
        choices=[(n, penalty_points_lazy(n)) for n in AMERICANA_TARGETS],
    )
    jokers = forms.BooleanField(
        label=_("With the two jokers"), required=False, help_text=_("A joker makes the next player take five.")
    )
    pairs = forms.BooleanField(label=_("Pairing: J on 2, Q on 3, K on 4"), required=False)
    jacks_draw = forms.BooleanField(label=_("Jacks make the next player take two"), required=False)
    # the table
    seconds_per_move = forms.TypedChoiceField(
        label=_("Time per move"),
        coerce=int,
        initial=DEFAULT_SECONDS,
        choices=[(seconds, duration_in_words_lazy(seconds)) for seconds in TIME_STEPS],
        help_text=_("30 seconds for a live game, up to 3 days for a game by correspondence."),
    )
    private = forms.BooleanField(
        label=_("Private table"),
        required=False,
        help_text=_("Not listed in the lobby: only people you send the invite link to can join."),
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        initial=True,
        help_text=_("The result changes the players' ratings. A bot at the table makes it casual."),
    )
    min_reliability = forms.TypedChoiceField(
        label=_("Least reliability to join"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=[("", _("None: anyone may join"))] + [(n, f"{n}%") for n in RELIABILITY_STEPS],
        help_text=_("The share of their last matches a person finished themselves. "
                    "People with no finished match yet may always join."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for number in OTHER_SEATS:
            label = _("Seat %(n)d") % {"n": number + 1}
            self.fields[seat_field(number)] = forms.ChoiceField(
                label=label, choices=SEAT_KINDS, initial=DEFAULT_SEAT_KIND, required=False
            )
            self.fields[seat_field(number, "level")] = forms.ChoiceField(
                label=_("Bot level"), choices=BotLevel.choices, initial=BotLevel.MEDIUM, required=False
            )
            self.fields[seat_field(number, "style")] = forms.ChoiceField(
                label=_("Bot style"), choices=BotStyle.choices, initial=BotStyle.BALANCED, required=False
            )

    @classmethod
    def initial_for(cls, preset_slug: str | None) -> dict:
        preset = PRESETS_BY_SLUG.get(preset_slug or "", DEFAULT_PRESET)
        chosen = rules_for(preset.rules)
        # Every rule set's fields start at its defaults for the preset's players; the preset's own win a shared name.
        initial = {}
        for ruleset in [*(ruleset for ruleset in RULE_SETS if ruleset is not chosen), chosen]:
            initial.update(ruleset.default_options(preset.players))
        return {**initial, **preset.fields()}

    def seats(self):
        """(number, kind, level, style) bound fields for the template, one row per seat after yours."""
        for number in OTHER_SEATS:
            yield {
                "number": number,
                "kind": self[seat_field(number)],
                "level": self[seat_field(number, "level")],
                "style": self[seat_field(number, "style")],
            }

    def options(self) -> dict:
        data = self.cleaned_data
        names = rules_for(data["rules"]).default_options(data["players"])  # every option of the chosen game
        # An empty choice (the field was hidden) leaves the engine's default.
        return {name: data[name] for name in names if data.get(name) not in (None, "")}

    def bots(self) -> list[actions.BotSpec]:
        data = self.cleaned_data
        return [
            actions.BotSpec(
                seat=number,
                level=data.get(seat_field(number, "level")) or BotLevel.MEDIUM,
                style=data.get(seat_field(number, "style")) or BotStyle.BALANCED,
            )
            for number in range(1, data["players"])
            if data.get(seat_field(number)) == "bot"
        ]

    def create(self, user, challenged=()):
        """The new table, or None with the service's (engine's) reason added to the form.

        `challenged`: the people challenged, for whom seats 2 on are kept (a challenge, with its invites)."""
        data = self.cleaned_data
        fields = {
            "rules": data["rules"],
            "players": data["players"],
            "options": self.options(),
            "seconds_per_move": data["seconds_per_move"],
            "private": data["private"],
            "bots": self.bots(),
            "rated": data["rated"],
            "min_reliability": data.get("min_reliability"),
        }
        try:
            if challenged:
                return create_challenge(user, list(challenged), **fields).table
            return actions.create_table(user, **fields)
        except actions.ServiceError as refusal:
            self.add_error(None, refusal.message)
            return None
