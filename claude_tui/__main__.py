from claude_tui.cli import main

raise SystemExit(main())
