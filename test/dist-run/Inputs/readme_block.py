"""Prints the N-th (from 1) ```mlir block of a Markdown file, so that a test
runs the README's own text: `readme_block.py README.md N`."""

import re
import sys

path, n = sys.argv[1], int(sys.argv[2])
blocks = re.findall(r"```mlir\n(.*?)```", open(path).read(), re.S)
sys.stdout.write(blocks[n - 1])
