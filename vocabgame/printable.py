"""Text made safe to print: a file name or message can never drive the terminal.

A file may be named with an escape sequence (one that sets the terminal's title or writes its
clipboard, say) or with bidirectional controls that make a name read differently than it is
stored. Everything vocabgame prints that came from outside (paths, deck text, error
sentences) goes through `printable` first, which shows such characters as visible escapes.
"""

from __future__ import annotations

import re

# C0 controls (tab and newline too: one problem is one line), DEL and C1 controls; the
# bidirectional marks, embeddings, overrides and isolates; the line and paragraph separators;
# and lone surrogates, which is how Python keeps a file name's bytes that are not UTF-8.
_UNPRINTABLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with every control character shown as a visible escape such as `\\x1b`."""
    return _UNPRINTABLE.sub(_escape, text)


def has_unprintable(text: str) -> bool:
    """Whether `text` holds a character `printable` would show as an escape."""
    return _UNPRINTABLE.search(text) is not None
