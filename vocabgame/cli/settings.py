"""`vocabgame settings`: show the settings, or change them; each option is a setting's
`flag` in `vocabgame.settings.SPECS`, with its help and range from there."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path

from vocabgame.cli.common import EXIT_OK, EXIT_PROBLEM, EXIT_USAGE, Command, Where, err, open_store
from vocabgame.printable import printable
from vocabgame.settings import SPEC, SPECS, Settings, Spec


def settings_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    for spec in SPECS:
        if not spec.flag:  # a setting changed only on the settings screen
            continue
        current = getattr(settings, spec.key)
        current = "not set" if current == "" else current
        p.add_argument(
            spec.flag,
            dest=spec.key,
            type=setting_type(spec),
            metavar=metavar(spec),
            help=f"{spec.help} ({spec.describe()}; now {current})",
        )


def metavar(spec: Spec) -> str:
    """How `--help` names a setting's value: DATE, TEXT, VALUE (a choice), R or N."""
    if spec.choices:
        return "VALUE"
    if isinstance(spec.default, str):
        return "DATE" if spec.key.endswith("_date") else "TEXT"
    return "R" if isinstance(spec.default, float) else "N"


def setting_type(spec: Spec) -> Callable[[str], object]:
    """The setting's Python type for argparse; its range is checked by the settings module."""
    kind = type(spec.default)

    def convert(text: str) -> object:
        try:
            return kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a valid {spec.label}") from None

    return convert


def run_settings(args: argparse.Namespace, where: Where) -> int:
    changes = {s.key: getattr(args, s.key) for s in SPECS if s.flag}
    return cmd_settings(where.data_dir, {k: v for k, v in changes.items() if v is not None})


SETTINGS = Command(
    "settings",
    "show or change settings",
    "Show the settings, or change them with the options below. They are kept in the data folder.",
    settings_options,
    run_settings,
    uses_data_folder=True,
)


def cmd_settings(data_dir: Path, changes: dict[str, object]) -> int:
    """Change the settings in `changes` (key to value), then print them all; the exit code."""
    from vocabgame.settings import SettingError, check_interview_date
    from vocabgame.store import StoreError

    store = open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        settings, problems = store.preferences.read()
        for problem in problems:
            err(problem)
        if changes:
            try:
                before = settings.interview_date
                settings = settings.changed(**changes)
                if settings.interview_date != before:  # only a new date must be to come
                    check_interview_date(settings.interview_date, date.today())
            except SettingError as exc:
                err(str(exc))
                return EXIT_USAGE
            # a new rollover hour counts days from now on; answers before keep theirs
            store.preferences.save(settings, datetime.now(UTC))
        for key, value in settings.as_dict().items():
            shown = "(not set)" if value == "" else value
            print(printable(f"{SPEC[key].label:<18} {shown}"))
        print(f"{'data folder':<18} {printable(str(data_dir))}")
    except StoreError as exc:
        err(str(exc))
        return EXIT_PROBLEM
    finally:
        store.close()
    return EXIT_OK
