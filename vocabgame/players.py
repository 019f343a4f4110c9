"""The players of a data folder, each with a store of their own.

Layout of a data folder:

- `vocabgame.db`, `backups/`, `vocabgame.lock`: the default player, the single player of a
  data folder made before there were players, so a store of today opens unchanged;
- `players.json`: the registry, each player's id, display name and leaderboard consent;
- `players/<id>/vocabgame.db`, `players/<id>/backups/`, `players/<id>/vocabgame.lock`: every
  other player, under a number the registry hands out and never hands out again;
- `players/removed/<id>-<time>/`: a removed player's folder, kept whole (never deleted);
- `decks/`, `deck-cache/`: shared by every player.

A name is only ever shown: it never becomes part of a path, so a name such as `../x` or
`C:\\x` is a name like any other.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from vocabgame.backup import DataLock, InUseError
from vocabgame.printable import has_unprintable, printable
from vocabgame.sharedfile import held_alone, write_whole

REGISTRY = "players.json"
PLAYERS_DIR = "players"
REMOVED_DIR = "removed"
DEFAULT_ID = "default"
DEFAULT_NAME = "default"
MAX_NAME = 40
FORMAT = 1
_REGISTRY_LOCK = "players.lock"
_ID = re.compile(r"^[0-9]{1,9}$")


class PlayerError(Exception):
    """A player that cannot be found, named or changed, in one sentence."""


@dataclass(frozen=True, slots=True)
class Player:
    """One player: `id` names their folder, `name` is only ever shown; `leaderboard` is
    their consent to appear on the data folder's leaderboard."""

    id: str
    name: str
    leaderboard: bool = False

    @property
    def is_default(self) -> bool:
        return self.id == DEFAULT_ID

    def folder(self, data_dir: Path) -> Path:
        """The folder of this player's store, backups and lock."""
        return data_dir if self.is_default else data_dir / PLAYERS_DIR / self.id


@dataclass(frozen=True, slots=True)
class Registry:
    """The players of a data folder, the default one first, and the next id to hand out."""

    players: tuple[Player, ...]
    next_id: int = 2

    def find(self, name: str) -> Player | None:
        """The player of that name, whatever its case."""
        wanted = _key(name)
        return next((p for p in self.players if _key(p.name) == wanted), None)


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().strip()


def check_name(name: str) -> str:
    """The name as it will be kept (spaces around it taken off); raises PlayerError with one
    sentence for a name that is empty, too long or holds control characters."""
    name = name.strip()
    if not name:
        raise PlayerError("A player's name cannot be empty.")
    if len(name) > MAX_NAME:
        raise PlayerError(
            f"A player's name has at most {MAX_NAME} characters; this one has {len(name):,}."
        )
    if has_unprintable(name):
        raise PlayerError(
            f"The name '{printable(name)}' holds control characters or direction marks; "
            "a player's name may hold only printable text."
        )
    return name


def read_registry(data_dir: Path) -> Registry:
    """The data folder's players; only the default one when there is no registry yet.
    Raises PlayerError when the registry cannot be read."""
    path = data_dir / REGISTRY
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Registry((Player(DEFAULT_ID, DEFAULT_NAME),))
    except (OSError, UnicodeDecodeError) as exc:
        raise PlayerError(f"Cannot read the players of {path} ({exc}).") from None
    try:
        return _parse(json.loads(text))
    except (ValueError, TypeError, KeyError, PlayerError) as exc:
        raise PlayerError(
            f"The list of players {path} is damaged ({exc}); move it aside to start again "
            "with the default player (no player's progress is in it)."
        ) from None


def _parse(data: object) -> Registry:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a format {FORMAT} list of players")
    players: list[Player] = []
    for row in data["players"]:
        pid, name, board = row["id"], row["name"], row.get("leaderboard", False)
        if not isinstance(pid, str) or not (pid == DEFAULT_ID or _ID.match(pid)):
            raise ValueError(f"the id '{printable(str(pid))}' is not one vocabgame gives")
        if not isinstance(name, str) or not isinstance(board, bool):
            raise ValueError("a name must be text and a consent true or false")
        players.append(Player(pid, check_name(name), board))
    if not players or players[0].id != DEFAULT_ID:
        players.insert(0, Player(DEFAULT_ID, DEFAULT_NAME))
    next_id = data.get("next", 2)
    if not isinstance(next_id, int) or isinstance(next_id, bool):
        raise ValueError("the next id is not a number")
    return Registry(tuple(players), next_id)


def _write(data_dir: Path, registry: Registry) -> None:
    """Write the registry whole under a temporary name, then rename it into place."""
    path = data_dir / REGISTRY
    body = {
        "format": FORMAT,
        "next": registry.next_id,
        "players": [
            {"id": p.id, "name": p.name, "leaderboard": p.leaderboard} for p in registry.players
        ],
    }
    write_whole(
        path,
        json.dumps(body, indent=2, ensure_ascii=False) + "\n",
        lambda exc: PlayerError(f"Cannot write the list of players {path} ({exc.strerror})."),
    )


@contextlib.contextmanager
def _changing(data_dir: Path) -> Iterator[Registry]:
    """The registry, held alone while it is read, changed and written (two tabs adding a
    player at once must not lose one)."""
    with held_alone(
        data_dir / _REGISTRY_LOCK,
        lambda exc: PlayerError(f"Cannot change the players in {data_dir} ({exc.strerror})."),
    ):
        yield read_registry(data_dir)


def find_player(data_dir: Path, name: str) -> Player:
    """The player of that name (any case); raises PlayerError naming the players there are."""
    registry = read_registry(data_dir)
    found = registry.find(name)
    if found is None:
        known = ", ".join(printable(p.name) for p in registry.players)
        raise PlayerError(
            f"No player named '{printable(name[:MAX_NAME])}' in {data_dir} (the players: "
            f"{known}); add one with: vocabgame players add NAME"
        )
    return found


def add_player(data_dir: Path, name: str, leaderboard: bool = False) -> Player:
    """Add a player and their folder (their store is made when they first play); raises
    PlayerError for a name that is not allowed or already taken in any case."""
    name = check_name(name)
    with _changing(data_dir) as registry:
        _not_taken(registry, name)
        player = Player(str(registry.next_id), name, leaderboard)
        try:
            player.folder(data_dir).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PlayerError(
                f"Cannot make a folder for '{printable(name)}' in {data_dir} ({exc.strerror})."
            ) from None
        _write(data_dir, Registry((*registry.players, player), registry.next_id + 1))
    return player


def _not_taken(registry: Registry, name: str, keep: Player | None = None) -> None:
    taken = registry.find(name)
    if taken is not None and taken != keep:
        raise PlayerError(
            f"There is already a player named '{printable(taken.name)}'; names differing "
            "only in case are the same name."
        )


def rename_player(data_dir: Path, old: str, new: str) -> Player:
    """Give a player another name; their store stays where it is."""
    new = check_name(new)
    with _changing(data_dir) as registry:
        player = _existing(data_dir, registry, old)
        _not_taken(registry, new, keep=player)
        renamed = replace(player, name=new)
        _write(data_dir, _swap(registry, player, renamed))
    return renamed


def set_consent(data_dir: Path, name: str, leaderboard: bool) -> Player:
    """Whether the player appears on the leaderboard."""
    with _changing(data_dir) as registry:
        player = _existing(data_dir, registry, name)
        changed = replace(player, leaderboard=leaderboard)
        _write(data_dir, _swap(registry, player, changed))
    return changed


def remove_player(data_dir: Path, name: str, now: datetime) -> Path:
    """Take a player off the data folder, keeping their whole folder (store and backups) in
    `players/removed/`; the folder it went to. Refused for the default player and while a
    vocabgame plays as that player."""
    with _changing(data_dir) as registry:
        player = _existing(data_dir, registry, name)
        if player.is_default:
            raise PlayerError(
                "The default player's store is the data folder's own and cannot be removed; "
                "rename it instead, or move the data folder aside."
            )
        folder = player.folder(data_dir)
        kept = data_dir / PLAYERS_DIR / REMOVED_DIR / f"{player.id}-{now:%Y-%m-%dT%H%M%S}"
        try:
            with DataLock(folder).exclusive():
                kept.parent.mkdir(parents=True, exist_ok=True)
                if folder.exists():
                    os.replace(folder, kept)
        except InUseError:
            raise PlayerError(
                f"'{printable(player.name)}' is playing now; close their game and try again "
                "(nothing was removed)."
            ) from None
        except OSError as exc:
            raise PlayerError(
                f"Cannot move {folder} aside ({exc.strerror}); nothing was removed."
            ) from None
        _write(
            data_dir,
            Registry(tuple(p for p in registry.players if p != player), registry.next_id),
        )
    return kept


def _existing(data_dir: Path, registry: Registry, name: str) -> Player:
    found = registry.find(name)
    if found is None:
        return find_player(data_dir, name)  # raises, naming the players there are
    return found


def _swap(registry: Registry, old: Player, new: Player) -> Registry:
    return Registry(tuple(new if p == old else p for p in registry.players), registry.next_id)
