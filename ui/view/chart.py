"""The match chart: the four totals after each hand, with the −1000 line, as SVG (pure).

Drawn from the view's ``history`` (the engine's ``{number, scores, totals}`` per hand). The SVG
scales to its box (``viewBox``; readable at 360 px), each seat has its own colour and dash
pattern, and screen readers get a text alternative: the SVG is an image named by a one-line
summary, followed by a visually hidden table of every total.
"""

from gongzhu.vocab import ELIMINATION
from ui.view import texts
from ui.view.html import attrs, esc
from ui.view.i18n import _

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

#: The drawing's size in SVG units (it scales to the width of its box).
WIDTH = 320
HEIGHT = 190
#: Margins: left (the axis labels), right (the seat labels), top, bottom (the hand numbers).
LEFT, RIGHT, TOP, BOTTOM = 40, 42, 10, 20
#: Per seat: its line's colour and dash pattern (told apart without colour too).
STYLES = (("#0b3d91", ""), ("#c0392b", "6 3"), ("#2e7d32", "2 3"), ("#8e44ad", "8 3 2 3"))


def _scale(low: int, high: int, line: "int | None" = ELIMINATION) -> "tuple[int, int]":
    """A range rounded out to hundreds that holds 0, the ending total's line and every total."""
    low = min(low, line if line is not None else low) - 100
    high = max(high, 0) + 100
    return (low // 100) * 100, -((-high) // 100) * 100


def _step(span: int) -> int:
    for step in (100, 200, 250, 500, 1000, 2000, 5000):
        if span // step <= 6:
            return step
    return 10000


def chart_html(history: "list[dict[str, Any]]", line: "int | None" = ELIMINATION) -> str:
    """The chart of a match whose finished hands are ``history`` ("" before the first hand); ``line``:
    the total that ends the match (the house rules' −500, or None when a number of hands ends it)."""
    if not history:
        return ""
    series = [[0] + [int(h["totals"][seat]) for h in history] for seat in range(4)]
    low, high = _scale(min(min(s) for s in series), max(max(s) for s in series), line)
    hands = len(history)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / hands

    def y(v: int) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    def rule(value: int, cls: str, label: str, label_cls: str, anchor: str, label_x: int, dy: float) -> str:
        """A horizontal line across the plot at ``value``, with its label."""
        return (
            '<line x1="{a}" x2="{b}" y1="{y}" y2="{y}" class="{cls}"/>'
            '<text x="{lx}" y="{ly}" class="{lcls}" text-anchor="{anchor}">{label}</text>'
        ).format(
            a=LEFT,
            b=WIDTH - RIGHT,
            y=round(y(value), 1),
            cls=cls,
            lx=label_x,
            ly=round(y(value) + dy, 1),
            lcls=label_cls,
            anchor=anchor,
            label=esc(label),
        )

    out = []
    step = _step(high - low)
    tick = -((-low) // step) * step
    while tick <= high:
        out.append(rule(tick, "grid", str(tick), "axis", "end", LEFT - 4, 3.5))
        tick += step
    if line is not None:
        out.append(rule(line, "elimination", "−" + str(-line), "axis elim-label", "start", LEFT, -3))
    every = max(1, -((-hands) // 8))
    for i in range(0, hands + 1, every):
        out.append(
            '<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text>'.format(
                round(x(i), 1), HEIGHT - 6, esc(i)
            )
        )
    ends = []  # type: list[tuple[float, int]]
    for seat in range(4):
        colour, dash = STYLES[seat]
        points = " ".join("{},{}".format(round(x(i), 1), round(y(v), 1)) for i, v in enumerate(series[seat]))
        out.append(
            "<polyline{}/>".format(
                attrs(
                    (
                        ("points", points),
                        ("fill", "none"),
                        ("stroke", colour),
                        ("stroke-width", "2.5" if seat == 0 else "1.8"),
                        ("stroke-dasharray", dash or None),
                        ("data-seat-line", seat),
                    )
                )
            )
        )
        ends.append((y(series[seat][-1]), seat))
    # The seat labels at the right end, pushed apart so they never overlap.
    ends.sort()
    label_ys = [ends[0][0]]
    for k in range(1, 4):
        label_ys.append(max(ends[k][0], label_ys[-1] + 11))
    for k in range(4):
        label_y, seat = label_ys[k], ends[k][1]
        out.append(
            "<text{}>{}</text>".format(
                attrs(
                    (
                        ("x", WIDTH - RIGHT + 4),
                        ("y", round(label_y + 3.5, 1)),
                        ("fill", STYLES[seat][0]),
                        ("class", "who"),
                    )
                ),
                esc(texts.seat_name(seat)),
            )
        )
    summary = chart_summary(history)
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" data-testid="match-chart" class="match-chart" role="img"'
        ' viewBox="0 0 {w} {h}"{label}><title>{title}</title>{body}</svg>'
    ).format(
        w=WIDTH, h=HEIGHT, label=attrs((("aria-label", summary),)), title=esc(summary), body="".join(out)
    )
    return '<figure class="chart">{}{}</figure>'.format(svg, chart_table(history))


def chart_summary(history: "list[dict[str, Any]]") -> str:
    """One line for screen readers: the totals after the last hand."""
    last = history[-1]["totals"]
    totals = ", ".join(texts.seat_name(seat) + " " + texts.signed(last[seat]) for seat in range(4))
    return _("Totals after hand {n}: {totals}").format(n=len(history), totals=totals)


def chart_table(history: "list[dict[str, Any]]") -> str:
    """The chart's figures as a visually hidden table (for screen readers)."""
    head = "".join('<th scope="col">{}</th>'.format(esc(texts.seat_name(seat))) for seat in range(4))
    rows = "".join(
        '<tr><th scope="row">{}</th>{}</tr>'.format(
            esc(_("Hand {n}").format(n=h["number"])),
            "".join("<td>{}</td>".format(esc(texts.signed(t))) for t in h["totals"]),
        )
        for h in history
    )
    return '<table class="sr-only"><caption>{}</caption><thead><tr><td></td>{}</tr></thead><tbody>{}</tbody></table>'.format(
        esc(_("Totals after each hand")), head, rows
    )
