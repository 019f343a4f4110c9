"""Text and numbers the way people type them: case, spacing and punctuation ignored, one typo
forgiven, numbers with thousands separators and units."""

from __future__ import annotations

import math
import re
import unicodedata

_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).casefold()
    return _WORD.findall(text)


def normalise(text: str) -> str:
    """Case, spacing and punctuation ignored."""
    return "".join(words(text))


def one_typo(given: str, expected: str) -> bool:
    """True if `given` differs from `expected` by one typo (a wrong, missing, extra or swapped
    letter) in one word of five letters or more, and matches everywhere else."""
    a, b = words(given), words(expected)
    if len(a) != len(b):
        # A missing or extra space is not a typo: spacing is already ignored.
        return False
    differing = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    if len(differing) != 1:
        return False
    typed, word = differing[0]
    return len(word) >= 5 and _edit_distance_is_one(typed, word)


def _edit_distance_is_one(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(diffs) == 1:
            return True
        i = diffs[0]
        return len(diffs) == 2 and diffs[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long[k]), len(short))
    return short[i:] == long[i + 1 :]


_NUMBER = re.compile(
    r"""^\s*(?P<num>[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?(?:[eE][-+]?\d+)?
        |[-+]?\.\d+(?:[eE][-+]?\d+)?)\s*(?P<unit>[^\W\d_][\w/%.^ -]*|%)?\s*$""",
    re.VERBOSE,
)


def parse_number(text: str) -> tuple[float, str | None] | None:
    """A number the way people type it: `140`, `140 GB`, `1.4e2`, `1,400`. Returns the value
    and the unit typed after it (or None), or None if the text is not a number."""
    match = _NUMBER.match(text)
    if not match:
        return None
    try:
        value = float(match.group("num").replace(",", ""))
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    unit = match.group("unit")
    return value, unit.strip() if unit else None


def format_number(value: float, unit: str | None = None) -> str:
    """A number as a person writes it: 140, 0.5, 1,310,720, 0.0312."""
    if value == 0:
        text = "0"
    else:
        digits = max(0, 4 - int(math.floor(math.log10(abs(value)))) - 1)
        rounded = round(value, digits)
        text = f"{rounded:,.{digits}f}".rstrip("0").rstrip(".") if digits else f"{rounded:,.0f}"
    return f"{text} {unit}" if unit else text


# Spellings of one unit that mean the same thing, after case, spacing and a plural "s" are
# set aside: "ms" and "milliseconds", "µs" and "us", "tokens per second" and "tokens/s".
_UNIT_SPELLINGS = {
    "μs": "us",
    "microsecond": "us",
    "usec": "us",
    "millisecond": "ms",
    "msec": "ms",
    "nanosecond": "ns",
    "second": "s",
    "sec": "s",
    "minute": "min",
    "hour": "h",
    "hr": "h",
    "percent": "%",
    "kilobyte": "kb",
    "megabyte": "mb",
    "gigabyte": "gb",
    "terabyte": "tb",
    "kibibyte": "kib",
    "mebibyte": "mib",
    "gibibyte": "gib",
    "tebibyte": "tib",
    "tok": "token",
    "req": "request",
}
_UNIT_PART = re.compile(r"(/)")


def _unit_word(word: str) -> str:
    # A plural "s" goes ("GiBs", "tokens", "steps"), but not from a unit of one or two
    # letters, where it is part of the unit ("ms", "us", "s").
    if len(word) > 2 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return _UNIT_SPELLINGS.get(word, word)


def unit_key(unit: str) -> str:
    """A unit with its spelling set aside: "GiB", "gib" and "GiBs" give the same key, "GB" and
    "GiB" do not."""
    text = unicodedata.normalize("NFKC", unit).casefold().strip()
    text = re.sub(r"\s+per\s+", "/", text)
    text = re.sub(r"\s+", "", text)
    return "".join(_unit_word(part) if part != "/" else part for part in _UNIT_PART.split(text))


def same_unit(a: str, b: str) -> bool:
    """True if two units differ only in spelling (case, plural, a common abbreviation)."""
    return unit_key(a) == unit_key(b)


_LEADING_NUMBER = re.compile(r"^\s*(\d{1,3}(?:,\d{3})+|\d+)")


def article_for(text: str) -> str | None:
    """ "a" or "an" before `text` when it starts with a number, chosen by how the number is
    spoken: an 8000-token prompt, an 18-layer model, an 11 ms wait, a 100-token reply. None
    when `text` does not start with a number (the writer's article stands)."""
    match = _LEADING_NUMBER.match(text)
    if not match:
        return None
    digits = match.group(1).replace(",", "")
    # Spoken from its first group of three digits: 18,000 is "eighteen thousand".
    first = int(digits[: len(digits) % 3 or 3])
    if first >= 100:
        vowel = first // 100 == 8  # "eight hundred"
    elif first >= 10:
        vowel = first in (11, 18) or first // 10 == 8  # eleven, eighteen, eighty-
    else:
        vowel = first == 8
    return "an" if vowel else "a"
