"""The player's settings: the one table of their names, defaults and values (pure).

``UIState.settings`` holds a :class:`Settings`; the saves (``ui/core/store.py``), the boot
(``ui/features/boot.py``), the settings sheet (``ui/view/settings_view.py``) and its transitions
(``ui/core/flow.py``) all read the table here: :data:`CHOICES` (a setting chosen among values, the
first the default), :data:`SWITCHES` (on or off, off by default) and the house rules
(:data:`RULE_VALUES`, named in ``ui/view/house_rules.py``).
"""

# The difficulty levels, easiest first, and the default one; the house rules a match may be played
# by (docs/rules.md "House rules"): rule -> its values, the default first. The engine's vocabulary.
from gongzhu.vocab import DEFAULT_LEVEL, LEVELS, RULE_VALUES

#: The play speeds of the settings, slowest first, and how long a finished trick stays on show.
PLAY_SPEEDS = ("slow", "normal", "fast")
TRICK_PAUSES = ("short", "normal", "long")

#: The settings chosen among values: name -> (its default, its values).
CHOICES = {
    "level": (DEFAULT_LEVEL, LEVELS),
    "play_speed": ("normal", PLAY_SPEEDS),
    "trick_pause": ("normal", TRICK_PAUSES),
}
#: The settings switched on and off (off by default).
SWITCHES = ("four_colour", "memory_aid", "sound")

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any


def default_rules() -> "dict[str, str]":
    """The standard rules: each rule's default."""
    return {key: values[0] for key, values in RULE_VALUES}


def read_rules(data: object) -> "dict[str, str]":
    """The house rules chosen for the next match, from saved settings: known values only, the
    defaults for anything else."""
    out = default_rules()
    if isinstance(data, dict):
        for key, values in RULE_VALUES:
            if data.get(key) in values:
                out[key] = data[key]
    return out


class Settings:
    """The player's settings (saved apart from the match). One field a line."""

    __slots__ = ("four_colour", "house_rules", "level", "memory_aid", "play_speed", "sound", "trick_pause")

    def __init__(self) -> None:
        self.level = DEFAULT_LEVEL  # type: str  # the difficulty chosen in the menu (from the next hand): one of LEVELS
        self.four_colour = False  # type: bool  # the four-colour deck
        self.memory_aid = False  # type: bool  # the table-memory aid is shown (off by default)
        self.play_speed = "normal"  # type: str  # how fast the opponents play: one of PLAY_SPEEDS
        self.trick_pause = "normal"  # type: str  # how long a finished trick stays on the table: one of TRICK_PAUSES
        self.sound = False  # type: bool  # sound effects (off by default)
        self.house_rules = default_rules()  # type: dict[str, str]  # the house rules chosen for the next match


def read(data: object) -> Settings:
    """The settings stored as ``data`` (:func:`as_json`'s), checked: a value that is not one of its
    setting's is that setting's default, and so is anything missing."""
    settings = Settings()
    if not isinstance(data, dict):
        return settings
    for name in CHOICES:
        if data.get(name) in CHOICES[name][1]:
            setattr(settings, name, data[name])
    for name in SWITCHES:
        setattr(settings, name, data.get(name) is True)
    settings.house_rules = read_rules(data.get("house_rules"))
    return settings


def as_json(settings: Settings) -> "dict[str, Any]":
    """The settings as stored: ``{name: value}``, each of :data:`CHOICES` and :data:`SWITCHES` and
    the house rules."""
    data = {}  # type: dict[str, Any]
    for name in tuple(CHOICES) + SWITCHES:
        data[name] = getattr(settings, name)
    data["house_rules"] = read_rules(settings.house_rules)
    return data


#: The settings sheet's house-rule selects: their ``data-action`` -> the rule each one sets.
RULE_ACTIONS = {"rule-" + key.replace("_", "-"): key for key, _values in RULE_VALUES}
#: The same, by rule.
RULE_ACTIONS_BY_KEY = {key: action for action, key in RULE_ACTIONS.items()}
