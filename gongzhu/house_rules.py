"""House rules: the variants of Gong Zhu a match may be played with, as one frozen value.

A match chooses its :class:`Rules` when it starts (:func:`gongzhu.game.new_match`) and keeps them in
its state as JSON (``state["rules"]``: ``{"match_end", "exposing", "first_lead", "all_hearts"}``,
every value a string). The defaults are the game's standard rules (docs/rules.md); anything that
has no rules recorded — an older save, log or bot transcript — is played by the defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from .vocab import RULE_VALUES

#: Every rule and its choices, the default first (docs/rules.md "House rules"; defined in
#: :data:`gongzhu.vocab.RULE_VALUES`, which the page reads too).
CHOICES: dict[str, tuple[str, ...]] = dict(RULE_VALUES)


class RulesError(ValueError):
    """A rule or a value no variant has; the message is one line naming the choices."""


@dataclass(frozen=True)
class Rules:
    """The rules of one match (each field a value of :data:`CHOICES`)."""

    match_end: str = CHOICES["match_end"][0]  # a total that ends the match ("-1000", "-500") or "hands:N"
    exposing: str = CHOICES["exposing"][0]  # "off": no expose phase, the exposure multipliers never apply
    first_lead: str = CHOICES["first_lead"][0]  # the card whose holder leads the first hand of the match
    all_hearts: str = CHOICES["all_hearts"][
        0
    ]  # "flip": all thirteen hearts flip the pig and the goat for everyone

    def __post_init__(self) -> None:
        for key, choices in CHOICES.items():
            value = getattr(self, key)
            if value not in choices:
                raise RulesError(f"rule {key} has no value {_short(value)}; choose {'/'.join(choices)}")

    @property
    def elimination(self) -> int | None:
        """The total that ends the match once a player reaches it, or None for a fixed number of hands."""
        return None if self.match_end.startswith("hands:") else int(self.match_end)

    @property
    def hands(self) -> int | None:
        """The number of hands after which the match ends (a tie at the top plays on), or None."""
        return int(self.match_end.split(":")[1]) if self.match_end.startswith("hands:") else None

    @property
    def exposing_on(self) -> bool:
        return self.exposing == "on"

    @property
    def flip(self) -> bool:
        """Whether all thirteen hearts in one hand flip the sign of the pig and the goat for everyone."""
        return self.all_hearts == "flip"

    def to_json(self) -> dict[str, str]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def changed(self) -> dict[str, str]:
        """The rules that differ from the defaults (what a badge or a summary line names)."""
        return {k: v for k, v in self.to_json().items() if v != CHOICES[k][0]}


DEFAULT_RULES = Rules()


def rules_from_json(data: object) -> Rules:
    """The rules a JSON value records; None (absent) is the defaults. :class:`RulesError` otherwise."""
    if data is None:
        return DEFAULT_RULES
    if not isinstance(data, Mapping):
        raise RulesError(f"rules {_short(data)} are not an object of {', '.join(CHOICES)}")
    unknown = [k for k in data if k not in CHOICES]
    if unknown:
        raise RulesError(f"unknown rule {_short(unknown[0])}; rules are {', '.join(CHOICES)}")
    return Rules(**{str(k): v for k, v in data.items()})


def parse_rules(text: str) -> Rules:
    """``"match_end=-500,exposing=off"`` → :class:`Rules` (unnamed rules keep their default)."""
    values: dict[str, str] = {}
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        key, sep, value = piece.partition("=")
        key, value = key.strip(), value.strip()
        if not sep:
            raise RulesError(f"rule {_short(piece)} is not KEY=VALUE; rules are {', '.join(CHOICES)}")
        if key in values:
            raise RulesError(f"rule {key} given twice")
        values[key] = value
    return rules_from_json(values)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
