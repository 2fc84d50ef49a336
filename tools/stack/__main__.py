import sys

from tools.stack.cli import main

sys.exit(main(sys.argv[1:]))
