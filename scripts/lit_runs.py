"""The `dist-opt` commands of the lit suite's RUN lines, for tools that run
them outside lit: scripts/snapshot-outputs.py and the plugin's comparison of
both drivers (test/Plugin/Inputs/both_drivers.py)."""

import os
import re


def run_lines(path):
    """The RUN lines of `path`, continuation lines joined."""
    lines, pending = [], ""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*//\s*RUN:(.*)", line)
            if not m:
                continue
            text = m.group(1).rstrip()
            if text.endswith("\\"):
                pending += text[:-1] + " "
                continue
            lines.append(pending + text)
            pending = ""
    return lines


def dist_opt_commands(path):
    """Each `dist-opt ...` part of a pipe in `path`'s RUN lines, with `%s`
    and `%S` substituted; commands that need a lit temporary, another
    substitution or a redirection are left out."""
    for line in run_lines(path):
        for segment in line.split("|"):
            words = segment.strip()
            words = re.sub(r"^not\s+", "", words)
            if not words.startswith("dist-opt "):
                continue
            words = re.sub(r"\s*2>&1\s*$", "", words)
            words = words.replace("%S", os.path.dirname(path)).replace("%s", path)
            if "%" in words or ">" in words or "<" in words:
                continue
            yield words
