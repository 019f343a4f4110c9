from vocabgame.cli import main

raise SystemExit(main())
