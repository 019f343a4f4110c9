"""The topic map: the serving-interview topics every built-in item is tagged with, one each.

The map is package data (`topics.yaml` beside this module), an id and a one-line description a
line, in the order an interviewer's ground is laid out. A deck's `topic:` keys name these ids;
a user's deck may name topics of its own, which `validate --strict` points out.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

TOPICS_FILE = "topics.yaml"


@cache
def topic_map() -> Mapping[str, str]:
    """Topic id -> its one-line description, in the map's order."""
    # here: a game whose decks come from the deck cache never reads the map, and resources
    # loads tempfile and random with it
    from importlib import resources

    import yaml

    text = resources.files(__package__).joinpath(TOPICS_FILE).read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{TOPICS_FILE} should map each topic id to its description")
    return MappingProxyType(dict(data))


def topic_ids() -> tuple[str, ...]:
    """The topic ids, in the map's order."""
    return tuple(topic_map())


__all__ = ["TOPICS_FILE", "topic_ids", "topic_map"]
