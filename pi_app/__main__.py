import sys

from pi_app.cli import main

sys.exit(main())
