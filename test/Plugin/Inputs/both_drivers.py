"""Runs every `dist-opt` command of the pass tests (the RUN lines of the
given test directories) through both drivers, dist-opt and upstream mlir-opt
with the plugin loaded, and compares what they print byte for byte: stdout,
stderr (the driver's name and mlir-opt's quotes of source lines under its
diagnostics aside) and the exit status.

Usage: both_drivers.py DIST_OPT MLIR_OPT PLUGIN TEST_DIR...

mlir-opt builds its pass flags before it loads a plugin, so a plugin's
passes are reached through `--pass-pipeline` only (as upstream's own plugin
tests do): a command's pass flags go to mlir-opt as the one textual pipeline
dist-opt builds from them (`dist-opt --dump-pass-pipeline`), its other flags
as they are. A command that uses a flag only dist-opt has (--emit,
--help-passes, ...) runs in dist-opt only; the summary names those flags.
Exits 1 when any output differs, printing the command and the first
differing line.
"""

import difflib
import glob
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
from lit_runs import dist_opt_commands  # noqa: E402


def name_of(flag):
    """`--name` of a flag as written (`-x`, `--x=v`, `--x[=<v>]` alike)."""
    return "--" + re.split(r"[=\[<, ]", flag.lstrip("-"), maxsplit=1)[0]


def driver_flags(help_text):
    """The driver's own options in its --help (two-space indented, not a
    pass: a pass's line reads `--name   -   summary`)."""
    names = set()
    for line in help_text.splitlines():
        if re.match(r"  -[^ -]|  --\S", line) and not re.search(r"\s-\s{2,}\S", line):
            names.update(name_of(word) for word in re.findall(r"-[-\w]+", line.split("  ")[1]))
    return names


def run(argv):
    done = subprocess.run(argv, capture_output=True, timeout=600)
    return done.stdout, done.stderr, done.returncode


def without_unchecked_expectations(stderr):
    """mlir-opt 22 reports `expected-*` comments it was not asked to check
    (no --verify-diagnostics), three lines each: dropped."""
    lines, kept = stderr.split(b"\n"), []
    skip = 0
    for line in lines:
        if skip:
            skip -= 1
        elif re.search(rb": error: expected (error|warning|remark|note) .* was not produced$", line):
            skip = 2
        else:
            kept.append(line)
    return b"\n".join(kept)


def without_snippets(stderr):
    """mlir-opt quotes the source line under each diagnostic, a caret line
    under it; dist-opt prints the `file:line:col: severity: message` lines
    alone. The quotes are dropped."""
    lines = stderr.split(b"\n")
    kept = []
    for line in lines:
        if re.fullmatch(rb" *\^[~^ ]*", line) and kept:
            kept.pop()
        else:
            kept.append(line)
    return b"\n".join(kept)


REFUSED = b"dist-opt: invalid pass pipeline: "


def same_refusal(ours, theirs):
    """Both drivers refused the pipeline (a bad pass option) with the pass's
    own message; each frames it its own way."""
    if not (ours[2] and theirs[2] and ours[1].startswith(REFUSED)):
        return False
    reason, _, added = ours[1][len(REFUSED):].strip().partition(b" failed to add ")
    framed = b" ".join(line.replace(b"<unknown>:0: error: ", b"").strip() for line in theirs[1].splitlines() if line.strip())
    return reason in framed and b"failed to add " + added in framed


def main():
    dist_opt, mlir_opt, plugin, *dirs = sys.argv[1:]
    loading = [f"--load-dialect-plugin={plugin}", f"--load-pass-plugin={plugin}"]
    theirs_driver = driver_flags(run([mlir_opt, *loading, "--help-hidden"])[0].decode())
    ours_only = driver_flags(run([dist_opt, "--help"])[0].decode()) - theirs_driver
    compared, only_dist_opt, failed = 0, set(), []
    tests = sorted(f for d in dirs for f in glob.glob(os.path.join(d, "*.mlir")))
    for path in tests:
        for command in dist_opt_commands(path):
            argv = shlex.split(command)[1:]
            if "-" in argv or all(a.startswith("-") for a in argv):
                continue  # its input comes down a pipe
            flags = [a for a in argv if a.startswith("-") and a != "-"]
            if any(name_of(f) in ours_only for f in flags):
                only_dist_opt |= {name_of(f) for f in flags} & ours_only
                continue
            passes = [f for f in flags if name_of(f) not in theirs_driver]
            others = [a for a in argv if a not in passes]
            if passes:
                dumped = run([dist_opt, *passes, "--dump-pass-pipeline", "-o", os.devnull, "-"])
                pipeline = dumped[1].decode().strip().splitlines()
                if dumped[2] or not pipeline:
                    # dist-opt refuses the pass flags (a bad option): compare
                    # the refusal with mlir-opt's of the same pipeline text.
                    pipeline = ["builtin.module(" + ",".join(p.lstrip("-").replace("=", "{", 1) + ("}" if "=" in p else "") for p in passes) + ")"]
                others.append(f"--pass-pipeline={pipeline[0]}")
            ours = run([dist_opt, *argv])
            # dist-opt attaches no op to a diagnostic unless asked (a
            # function's verifier error would print the whole function).
            if not any(name_of(a) == "--mlir-print-op-on-diagnostic" for a in argv):
                others.append("--mlir-print-op-on-diagnostic=false")
            theirs = run([mlir_opt, *loading, *others])
            # Each driver names itself in its own messages.
            stderr = theirs[1].replace(os.path.basename(mlir_opt).encode(), b"dist-opt")
            if "--verify-diagnostics" not in argv:
                stderr = without_snippets(without_unchecked_expectations(stderr))
            theirs = (theirs[0], stderr, theirs[2])
            compared += 1
            if ours != theirs and not same_refusal(ours, theirs):
                what = "exit status" if ours[2] != theirs[2] else "stdout" if ours[0] != theirs[0] else "stderr"
                k = {"stdout": 0, "stderr": 1}.get(what)
                diff = "" if k is None else next(
                    (line for line in difflib.unified_diff(
                        ours[k].decode(errors="replace").splitlines(),
                        theirs[k].decode(errors="replace").splitlines(), "dist-opt", "mlir-opt", n=0, lineterm="")
                     if line[:1] in "+-" and line[:3] not in ("---", "+++")), "")
                failed.append(f"{os.path.relpath(path)}: dist-opt {' '.join(argv)}\n  {what} differs: {diff}")
    print(f"{compared} commands of {len(tests)} tests gave the same output in dist-opt and mlir-opt with the plugin")
    print(f"run in dist-opt only (its own flags): {', '.join(sorted(only_dist_opt)) or 'none'}")
    for line in failed:
        print(line)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
