"""One terminal line per challenge event, for the text output of ``fight`` (see ``event_text``).

The sentences are the rules layer's (``tabletop.rules.challenges.wording``,
shared with the frames' captions through ``describe``); this module only lays
them out: the indent and the clause in brackets (``wording.TERMINAL``).
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop.rules.challenges.wording import SENTENCES, TERMINAL
from tabletop.rules.events import Event


def _line(kind: str) -> Callable[[Event], str]:
    indent, clause = TERMINAL[kind]
    fn = SENTENCES[kind]

    def line(ev: Event) -> str:
        tail = f"  ({ev.rule})" if clause and ev.rule else ""
        return f"{indent}{fn(ev)}{tail}"
    return line


FORMATS: dict[str, Callable[[Event], str]] = {kind: _line(kind) for kind in SENTENCES}
