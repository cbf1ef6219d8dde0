"""The command line scripts/jax-export.py and scripts/torch-export.py share:
their arguments, the --mesh they read and the module they write."""
import argparse
import sys


def arguments(tool, doc, spec_help, grad_help):
    """The options of `tool`: SPEC, --mesh (as NAME=SIZE pairs), --out,
    --pretty and --grad."""
    ap = argparse.ArgumentParser(prog=tool, description=doc.splitlines()[0])
    ap.add_argument("spec", help=spec_help)
    ap.add_argument("--mesh", required=True, help="e.g. dp=2,tp=2")
    ap.add_argument("--out", help="output file (default: stdout)")
    ap.add_argument("--pretty", action="store_true", help="custom form instead of generic")
    ap.add_argument("--grad", action="store_true", help=grad_help)
    opts = ap.parse_args()
    opts.axes = []
    for item in opts.mesh.split(","):
        name, _, size = item.partition("=")
        if not name or not size.isdigit() or int(size) < 1:
            sys.exit(f"{tool}: bad --mesh entry {item!r} (want NAME=SIZE)")
        opts.axes.append((name.strip(), int(size)))
    return opts


def write(module, opts):
    """`module` in MLIR's generic form (custom with --pretty), without debug
    locations, to --out or stdout."""
    text = module.operation.get_asm(print_generic_op_form=not opts.pretty, enable_debug_info=False)
    if not text.endswith("\n"):
        text += "\n"
    if opts.out:
        with open(opts.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
