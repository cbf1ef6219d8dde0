"""Checks a `dist-run --trace` file: valid JSON in Chrome's trace format,
one named process per rank, complete spans ("X") that nest on each track
(two spans of a track are disjoint or one holds the other), every compute
span inside a step span (the collectives outside are the generated main's,
completing the results), each step tiled by its compute and communication
spans, and every async collective begun and ended. Prints what it found,
for FileCheck.

usage: check_trace.py TRACE.json RANKS
"""
import collections
import json
import sys


def main():
    path, ranks = sys.argv[1], int(sys.argv[2])
    events = json.load(open(path))["traceEvents"]
    names = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    assert names == {r: f"rank {r}" for r in range(ranks)}, names
    spans = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            spans[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], e["name"], e["cat"]))
    eps = 1e-3  # the microseconds are printed with 3 decimals
    kinds = set()
    for track, items in spans.items():
        items.sort(key=lambda s: (s[0], -s[1], s[3] != "step"))
        open_spans = []
        for start, end, name, cat in items:
            while open_spans and open_spans[-1][1] <= start + eps:
                open_spans.pop()
            if open_spans:
                assert end <= open_spans[-1][1] + eps, f"{track}: {name} overlaps {open_spans[-1][2]}"
            elif cat not in ("step", "comm"):
                raise AssertionError(f"{track}: {name} is outside every step")
            open_spans.append((start, end, name, cat))
            if cat == "comm":
                kinds.add(name.split()[1] if name.startswith(("start ", "wait ")) else name.split()[0])
        for start, end, name, cat in items:
            if cat == "step":
                inside = sum(e - s for s, e, _, c in items if c != "step" and s >= start - eps and e <= end + eps)
                assert abs(inside - (end - start)) <= 1e-3 * (end - start) + 0.01, f"{track}: {name} is not tiled"
    begun = collections.Counter((e["pid"], e["id"]) for e in events if e["ph"] == "b")
    ended = collections.Counter((e["pid"], e["id"]) for e in events if e["ph"] == "e")
    assert begun == ended, "an async collective is begun and not ended"
    steps = sum(1 for items in spans.values() for s in items if s[3] == "step")
    print(f"{len(names)} ranks, {steps} step spans, {sum(begun.values())} async collectives")
    print("spans nest; each step is tiled by compute and communication")
    print("collectives: " + " ".join(sorted(kinds)))
    # A pipelined step names its compute after the part of a microbatch's
    # work (F3: the forward of microbatch 3).
    work = sorted({name.rstrip("0123456789") for items in spans.values() for _, _, name, cat in items if cat == "compute"})
    print("compute: " + " ".join(work))


if __name__ == "__main__":
    main()
