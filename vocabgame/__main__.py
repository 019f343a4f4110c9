from vocabgame.cli import entry

raise SystemExit(entry())
