"""The table's sounds, made on the spot with Web Audio: no sound file, no request.

Pure Python (MicroPython and CPython): the browser's ``window`` is handed to :class:`Player` by the
shell (``ui/shell/app.py``), so the tests can hand it a stand-in. Sound is off by default
(``UIState.settings.sound``); the flow (``ui/core/flow.py``) emits a ``Sound(kind)`` effect only when it is on.

Browsers let a page start sound only after the player has touched it (the autoplay policy): the
audio context is created or resumed in a tap or key press (:meth:`Player.gesture`), or at the first
sound once the page has had one (``navigator.userActivation.hasBeenActive``); before that, sounds
are skipped, never queued.
"""

from ui.core.effects import SIGNAL_SOUNDS

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    #: A note: (start s, length s, frequency at its start Hz, at its end Hz, wave, loudness 0..1).
    Note = tuple[float, float, float, float, str, float]

#: Each sound, as notes of one oscillator each.
SOUNDS = {
    # a card put on the table: a short dry tick, falling in pitch
    "card": ((0.0, 0.06, 1500.0, 600.0, "triangle", 0.22),),
    # a trick taken: two soft rising notes
    "trick": ((0.0, 0.11, 587.0, 587.0, "sine", 0.16), (0.08, 0.16, 880.0, 880.0, "sine", 0.16)),
    # the pig: two low grunts
    "pig": (
        (0.08, 0.18, 210.0, 130.0, "sawtooth", 0.12),
        (0.3, 0.24, 190.0, 110.0, "sawtooth", 0.12),
    ),
    # the goat: a wavering bleat
    "goat": (
        (0.08, 0.09, 560.0, 520.0, "square", 0.07),
        (0.17, 0.09, 600.0, 540.0, "square", 0.07),
        (0.26, 0.09, 560.0, 520.0, "square", 0.07),
        (0.35, 0.14, 600.0, 480.0, "square", 0.07),
    ),
    # the transformer: a quick rising arpeggio
    "transformer": (
        (0.08, 0.09, 523.0, 523.0, "triangle", 0.16),
        (0.16, 0.09, 659.0, 659.0, "triangle", 0.16),
        (0.24, 0.09, 784.0, 784.0, "triangle", 0.16),
        (0.32, 0.2, 1047.0, 1047.0, "triangle", 0.16),
    ),
}  # type: dict[str, tuple[Note, ...]]

#: The signal cards' sounds, by the card code the toast shows (``ui.core.effects.Toast``).
SIGNALS = SIGNAL_SOUNDS

#: The quietest gain an exponential ramp may reach (it cannot reach zero).
SILENT = 0.0001


class Player:
    """Plays :data:`SOUNDS` through one audio context, created at the first chance the browser allows."""

    def __init__(self, window: "Any") -> None:
        self.window = window  # the browser's window (or a stand-in in the tests)
        self.context = None  # type: Any  # the AudioContext, once created

    def _create(self) -> None:
        try:
            make = self.window.AudioContext
        except AttributeError:
            make = None
        if make is None:  # (no Web Audio: silence)
            return
        self.context = make.new()

    def gesture(self, enabled: bool) -> None:
        """The player tapped or pressed a key (the moment a browser lets sound start): with sound
        on, create the audio context or wake it up."""
        if not enabled:
            return
        if self.context is None:
            self._create()
        elif str(self.context.state) == "suspended":
            self.context.resume()

    def _had_gesture(self) -> bool:
        try:
            return bool(self.window.navigator.userActivation.hasBeenActive)
        except AttributeError:
            return False

    def play(self, kind: str) -> None:
        """Play the sound ``kind`` now (skipped before the page had a gesture)."""
        if kind not in SOUNDS:
            return
        if self.context is None and self._had_gesture():
            self._create()
        context = self.context
        if context is None:
            return
        now = float(context.currentTime)
        for start, length, high, low, wave, level in SOUNDS[kind]:
            begin = now + start
            end = begin + length
            oscillator = context.createOscillator()
            gain = context.createGain()
            oscillator.type = wave
            oscillator.frequency.setValueAtTime(high, begin)
            if low != high:
                oscillator.frequency.exponentialRampToValueAtTime(low, end)
            gain.gain.setValueAtTime(SILENT, begin)
            gain.gain.exponentialRampToValueAtTime(level, begin + 0.01)
            gain.gain.exponentialRampToValueAtTime(SILENT, end)
            oscillator.connect(gain)
            gain.connect(context.destination)
            oscillator.start(begin)
            oscillator.stop(end + 0.02)
