"""Progress and the data folder: `export-progress` and `import-progress` (a player's whole
progress as one file), `backup`, `restore` and `check` (the progress database)."""

from __future__ import annotations

import argparse
from pathlib import Path

from vocabgame.cli.common import (
    EXIT_OK,
    EXIT_PROBLEM,
    EXIT_USAGE,
    Command,
    Where,
    err,
    no_options,
    not_a_regular_file,
    open_store,
    print_json,
)
from vocabgame.cli.options import json_option
from vocabgame.printable import printable
from vocabgame.settings import Settings

# -- export-progress, import-progress -----------------------------------------------------------


def export_progress_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument("file", type=Path, metavar="FILE", help="the file to write (.json)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")


def run_export_progress(args: argparse.Namespace, where: Where) -> int:
    return cmd_export_progress(where.data_dir, args.file, args.force)


EXPORT_PROGRESS = Command(
    "export-progress",
    "write all your progress to one file",
    "Write everything needed to carry your progress to another machine (answers, "
    "schedules, rounds and scores, flags, settings) as one versioned JSON file.",
    export_progress_options,
    run_export_progress,
    uses_data_folder=True,
)


def cmd_export_progress(data_dir: Path, file: Path, force: bool) -> int:
    """Write the whole progress to `file` as versioned JSON lines; the exit code."""
    from datetime import UTC, datetime

    from vocabgame.cli.bar import Bar
    from vocabgame.progress import write_progress
    from vocabgame.store import StoreError

    if file.exists() and not force:
        err(f"{file} exists; choose another file or add --force to replace it")
        return EXIT_USAGE
    store = open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    scratch = file.with_name(f".{file.name}.partial")
    try:  # written whole, then renamed: a crash never leaves half a file under FILE
        with scratch.open("w", encoding="utf-8") as out, Bar.on_terminal("Exporting") as bar:
            counts = write_progress(store, datetime.now(UTC), out, bar)
        scratch.replace(file)
    except StoreError as exc:
        scratch.unlink(missing_ok=True)
        err(str(exc))
        return EXIT_PROBLEM
    except OSError as exc:
        scratch.unlink(missing_ok=True)
        err(f"cannot write {file} ({exc.strerror})")
        return EXIT_PROBLEM
    finally:
        store.close()
    print(
        f"Wrote {counts['reviews']} answers, {counts['rounds']} rounds and "
        f"{counts['cards']} schedules to {file}."
    )
    return EXIT_OK


def import_progress_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument("file", type=Path, metavar="FILE", help="a file from export-progress")


def run_import_progress(args: argparse.Namespace, where: Where) -> int:
    return cmd_import_progress(where.data_dir, args.file)


IMPORT_PROGRESS = Command(
    "import-progress",
    "merge a progress file into this data folder",
    "Merge a file written by export-progress into this data folder. Nothing is doubled: "
    "importing the same file twice changes nothing. The whole file is checked first and "
    "nothing is written if any part is bad. Schedules of faces answered on both sides are "
    "recomputed from the merged history.",
    import_progress_options,
    run_import_progress,
    uses_data_folder=True,
)


def cmd_import_progress(data_dir: Path, file: Path) -> int:
    """Merge a progress file into the store, after a backup when there is progress here."""
    from vocabgame.cli.bar import Bar
    from vocabgame.progress import ProgressError, import_progress_file, open_progress_file
    from vocabgame.srs import ROLLOVER_KEY, DayCount, Srs, rollover_history
    from vocabgame.store import StoreError

    if (why := not_a_regular_file(file)) is not None:
        err(why)
        return EXIT_PROBLEM
    try:
        opened = open_progress_file(file)
    except ProgressError as exc:
        err(str(exc))
        return EXIT_PROBLEM
    except OSError as exc:
        err(f"cannot read {file} ({exc.strerror})")
        return EXIT_PROBLEM
    store = open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        if store.answers.count():  # something to lose: a backup first, as before a restore
            from datetime import UTC, datetime

            from vocabgame.backup import BackupError, backup_now

            try:
                saved = backup_now(store.conn, data_dir, datetime.now(UTC))
            except BackupError as exc:
                err(f"{exc} Nothing was imported.")
                return EXIT_PROBLEM
            print(printable(f"Backed up the progress here to {saved} first."))
        settings, _ = store.preferences.read()
        parameters, _ = store.preferences.parameters()
        rollover, _ = store.preferences.rollover()
        if store.preferences.get(ROLLOVER_KEY) is None:  # the file's fills it: replay by it
            rollover, _ = rollover_history(opened.header.get("settings", {}).get(ROLLOVER_KEY))
        days = DayCount(rollover, None)  # the machine's local zone, as play counts days
        srs = Srs(settings.desired_retention, parameters=parameters, days=days)
        with Bar.on_terminal("Importing", bytes_=True) as bar:
            merged = import_progress_file(store, opened, srs, bar)
    except ProgressError as exc:  # a bad row: the merge was rolled back whole
        err(f"{exc} Nothing was imported.")
        return EXIT_PROBLEM
    except OSError as exc:
        err(f"cannot read {file} ({exc.strerror}). Nothing was imported.")
        return EXIT_PROBLEM
    except StoreError as exc:
        err(str(exc))
        return EXIT_PROBLEM
    finally:
        store.close()
    print(merged)
    return EXIT_OK


# -- backup, restore, check ---------------------------------------------------------------------


def run_backup(args: argparse.Namespace, where: Where) -> int:
    return cmd_backup(where.data_dir)


BACKUP = Command(
    "backup",
    "back up the progress database now",
    "Write a backup of the progress database to the data folder's backups/ folder and "
    "print its name. The game also writes one by itself at the first session of each day "
    "and keeps the last 7 daily and 4 weekly ones.",
    no_options,
    run_backup,
    uses_data_folder=True,
)


def cmd_backup(data_dir: Path) -> int:
    """Write a backup of the progress database now and print its name; the exit code."""
    from vocabgame.backup import BackupError, backup_now
    from vocabgame.srs import utc_now
    from vocabgame.store import DB_NAME, orphaned_log

    if orphan := orphaned_log(data_dir / DB_NAME):
        err(orphan)
        return EXIT_PROBLEM
    if not (data_dir / DB_NAME).is_file():
        err(f"there is no progress database in {data_dir} yet; nothing to back up")
        return EXIT_PROBLEM
    store = open_store(data_dir)
    if store is None:
        return EXIT_PROBLEM
    try:
        path = backup_now(store.conn, data_dir, utc_now())
    except BackupError as exc:
        err(str(exc))
        return EXIT_PROBLEM
    finally:
        store.close()
    print(printable(str(path)))
    return EXIT_OK


def restore_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument(
        "file",
        nargs="?",
        type=Path,
        metavar="FILE",
        help="the backup to restore: a path, or a file name in backups/ (default: the newest)",
    )
    p.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")


def run_restore(args: argparse.Namespace, where: Where) -> int:
    return cmd_restore(where.data_dir, args.file, args.yes)


# Not `uses_data_folder`: it takes the data folder's lock alone, itself.
RESTORE = Command(
    "restore",
    "put a backup back in place of the progress database",
    "Replace the progress database with a backup: FILE, or the newest one in the data "
    "folder's backups/ folder. Shows what it will restore and asks first; the current "
    "database is kept as backups/vocabgame-before-restore-DATE.db. Refused while another "
    "vocabgame runs on the same data folder.",
    restore_options,
    run_restore,
)


def describe(path: Path) -> str:
    """A backup or database with its answers, rounds and last answer, for the question."""
    import sqlite3

    from vocabgame.backup import contents

    try:
        found = contents(path)
    except sqlite3.Error as exc:  # say so; the restore itself decides
        return f"{path} (cannot be read: {exc})"
    last = f", last answer {found.last_answer[:16].replace('T', ' ')}" if found.last_answer else ""
    answers = f"{found.reviews} answer{'s' * (found.reviews != 1)}"
    rounds = f"{found.rounds} round{'s' * (found.rounds != 1)}"
    return f"{path} ({answers}, {rounds}{last})"


def cmd_restore(data_dir: Path, file: Path | None, yes: bool) -> int:
    """Put a backup in place of the progress database, after asking; the exit code."""
    from vocabgame.backup import BackupError, DataLock, check_backup, find_backup, restore
    from vocabgame.srs import utc_now
    from vocabgame.store import DB_NAME

    db = data_dir / DB_NAME
    try:
        # Refused at once while another vocabgame runs; the lock is let go while asking, so a
        # game started meanwhile is not left waiting on an unanswered question.
        with DataLock(data_dir).exclusive() as lock:
            enforced = lock.enforced
        source = find_backup(data_dir, file)
        check_backup(source)  # refused before the question, not after it
        if not enforced:
            err(
                "cannot tell whether another vocabgame is running on this data folder "
                "(no file locks here); make sure none is"
            )
        print(printable(f"Restore {describe(source)}"))
        if db.exists():
            print(printable(f"over     {describe(db)}?"))
            print("The current database is kept in the backups folder first.")
        if not yes and not confirm("Restore it? [y/N] "):
            print("Nothing was restored.")
            return EXIT_PROBLEM
        with DataLock(data_dir).exclusive():
            before = restore(data_dir, source, utc_now())
    except BackupError as exc:
        err(str(exc))
        return EXIT_PROBLEM
    print(printable(f"Restored {source} to {db}."))
    if before is not None:
        print(printable(f"The progress it replaced is kept in {before}."))
    return EXIT_OK


def confirm(prompt: str) -> bool:
    """Whether the player answered yes; no answer (end of input) is no."""
    try:
        answer = input(prompt)
    except EOFError:
        print()
        return False
    return answer.strip().lower() in ("y", "yes")


def check_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument(
        "--fix",
        action="store_true",
        help="repair what can be repaired, after writing a backup first",
    )
    json_option(p)


def run_check(args: argparse.Namespace, where: Where) -> int:
    return cmd_check(where.data_dir, args.fix, args.json)


CHECK = Command(
    "check",
    "check the progress database for damage and inconsistencies",
    "Check the progress database: SQLite's integrity check, answers whose round is "
    "missing, schedules without answers, and schedules that do not follow from their "
    "answers. Prints one line per finding and a summary; exits 1 if anything was found "
    "(0 when --fix repaired all of it).",
    check_options,
    run_check,
    uses_data_folder=True,
)


def _up_to_date(db: Path, as_json: bool) -> bool:
    """Migrate a store left at an older schema before checking it, saying so; False (and the
    sentence why) when it cannot be, or when only its -wal is there (nothing is touched)."""
    from vocabgame.check import bring_up_to_date
    from vocabgame.store import StoreError, orphaned_log

    if orphan := orphaned_log(db):
        err(orphan)
        return False
    try:
        migrated = bring_up_to_date(db)
    except StoreError as exc:
        err(str(exc))
        return False
    if migrated and not as_json:
        print(printable(migrated))
    return True


def cmd_check(data_dir: Path, fix: bool, as_json: bool) -> int:
    """Check the progress database (and with `fix`, repair it after a backup)."""
    import sqlite3

    from vocabgame.backup import BackupError, backup_now, damage_hint
    from vocabgame.check import INTEGRITY, Finding, Report, check, run, srs_for
    from vocabgame.srs import utc_now
    from vocabgame.store import DB_NAME

    db = data_dir / DB_NAME
    if not _up_to_date(db, as_json):
        return EXIT_PROBLEM
    if not db.is_file():
        print(printable(f"There is no progress database in {data_dir} yet; nothing to check."))
        return EXIT_OK
    remaining: list[Finding] | None = None
    try:
        conn = sqlite3.connect(db, isolation_level=None, timeout=2.0)
    except sqlite3.Error as exc:
        err(f"cannot open {db} ({exc})")
        return EXIT_PROBLEM

    def backup_first() -> Path:
        source = sqlite3.connect(db)
        try:
            return backup_now(source, data_dir, utc_now())
        finally:
            source.close()

    from vocabgame.cli.bar import Bar

    try:
        with Bar.on_terminal("Checking", as_json) as bar:
            report = check(conn, fix, backup=backup_first, tick=bar)
        if fix and report.fixed:
            remaining = run(conn, srs_for(conn))[0]
    except BackupError as exc:
        err(f"{exc} Nothing was repaired.")
        return EXIT_PROBLEM
    except sqlite3.OperationalError as exc:
        err(f"cannot check {db} ({exc})")
        return EXIT_PROBLEM
    except sqlite3.DatabaseError as exc:
        hint = damage_hint(data_dir)
        report = Report([Finding(INTEGRITY, f"{db} cannot be read ({exc}). {hint}".strip(), False)])
    finally:
        conn.close()
    left = report.findings if remaining is None else remaining
    if as_json:
        out = {
            "database": str(db),
            "findings": [f.as_dict() for f in report.findings],
            "fixed": report.fixed,
            "backup": str(report.backup) if report.backup else None,
            "remaining": [f.as_dict() for f in left],
        }
        print_json(out)
        return EXIT_PROBLEM if left else EXIT_OK
    for finding in report.findings:
        print(printable(f"{finding.kind}: {finding.message}"))
    found = len(report.findings)
    if not found:
        print(printable(f"{db}: no problems found."))
        return EXIT_OK
    fixable = sum(f.fixable for f in report.findings)
    summary = f"{db}: {found} problem{'s' * (found != 1)} found"
    if report.backup is not None:
        summary += f"; backed up to {report.backup}, then repaired {report.fixed}"
        if left:
            summary += f"; {len(left)} remain"
    elif fixable:
        summary += f"; {fixable} can be repaired with: vocabgame check --fix"
    print(printable(summary + "."))
    return EXIT_PROBLEM if left else EXIT_OK
