"""Map ids from names a player wrote: ASCII, lower case, words joined by ``-``.

``ascii_text`` transliterates: Unicode NFKD first (``é`` -> ``e``, ``ﬁ`` -> ``fi``, ``²`` ->
``2``), then Greek letter by letter as it sounds (``GREEK_LETTERS``: ``Κένταυροι`` ->
``kentayroi``, ``Ω`` -> ``o``), then each letter still outside ASCII by its Unicode name
(``ID_LETTER_NAMES``): ``ж`` (CYRILLIC SMALL LETTER ZHE) -> ``zhe``.  ``slug`` makes an id of
the result, unique among ``taken``.  A name that is a code (``IDEOGRAPH-6F22``) is a word of its own.  Other
characters (symbols, punctuation, spaces) split words.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["ID_LETTER_NAMES", "GREEK_LETTERS", "ascii_text", "slug"]

#: named default (no rule text: how a player reads a name aloud): a letter with no ASCII form
#: after NFKD is written as its Unicode name's last word in lower case ("GREEK CAPITAL LETTER
#: OMEGA" -> omega), leaving out a diacritic's "WITH ..." part ("LATIN SMALL LETTER O WITH
#: STROKE" -> o); when the text right after it spells the rest of that word, as in the stylised
#: "Ωmega", the letter stands for the word's first letter only ("Ωmega" -> omega, not
#: omegamega).  A few letters players spell out differently are given here.
ID_LETTER_NAMES = {"ß": "ss", "ẞ": "ss", "þ": "th", "Þ": "th", "ð": "d", "Ð": "d"}

#: named default (no rule text: ids a player can type): Greek is written letter by letter as
#: it sounds, after ELOT 743 (the Greek standard for Latin transcription), simplified to one
#: spelling per letter - "Κένταυροι Ιππείς" -> kentayroi-ippeis, not the Unicode names
#: kappaepsilonnu...; capitals as their small letters ("Ωmega" -> omega).  Scripts with no
#: table here keep the Unicode-name rule (``ID_LETTER_NAMES``).
GREEK_LETTERS = {"α": "a", "β": "v", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i",
                 "θ": "th", "ι": "i", "κ": "k", "λ": "l", "μ": "m", "ν": "n", "ξ": "x",
                 "ο": "o", "π": "p", "ρ": "r", "σ": "s", "ς": "s", "τ": "t", "υ": "y",
                 "φ": "f", "χ": "ch", "ψ": "ps", "ω": "o"}


def _letter_word(ch: str) -> str:
    """A non-ASCII letter's ASCII word (``ID_LETTER_NAMES``), or "" when it has none."""
    if ch in ID_LETTER_NAMES:
        return ID_LETTER_NAMES[ch]
    if ch.lower() in GREEK_LETTERS:
        return GREEK_LETTERS[ch.lower()]
    name = unicodedata.name(ch, "")
    if not name:
        return ""
    word = name.split(" WITH ")[0].split()[-1].lower()
    return word if re.fullmatch(r"[a-z0-9][a-z0-9-]*", word) else ""


def ascii_text(text: str) -> str:
    """``text`` in ASCII (see the module docstring); characters that are not letters or
    digits and have no ASCII form become spaces."""
    flat = unicodedata.normalize("NFKD", text)
    flat = "".join(c for c in flat if not unicodedata.combining(c))
    out: list[str] = []
    k = 0
    while k < len(flat):
        ch = flat[k]
        k += 1
        if ch.isascii():
            out.append(ch)
            continue
        word = _letter_word(ch) if ch.isalpha() else ""
        if not word:
            out.append(" ")
            continue
        rest = word[1:]
        if len(rest) >= 2 and flat[k:k + len(rest)].lower() == rest:
            out.append(word[0])          # "Ωmega": the letter is the word's first letter
        elif "-" in word:
            out.append(f" {word} ")      # "CJK UNIFIED IDEOGRAPH-6F22": a word of its own
        else:
            out.append(word)
    return "".join(out)


def slug(name: str, taken: set[str], fallback: str = "unit") -> str:
    """An id for ``name``: ``ascii_text`` lower-cased, runs of anything but a-z and 0-9 as
    one ``-``, ``fallback`` when nothing is left; ``-2``, ``-3``, ... added until it is not in
    ``taken``, to which it is added.  ``slug("Ωmega Squad", set())`` is ``omega-squad``."""
    base = re.sub(r"[^a-z0-9]+", "-", ascii_text(name).lower()).strip("-") or fallback
    out, n = base, 2
    while out in taken:
        out, n = f"{base}-{n}", n + 1
    taken.add(out)
    return out
