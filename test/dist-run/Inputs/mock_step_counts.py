"""The driver calls of one training step, from the stand-in driver's counts
(Inputs/mock_cuda.c) of a run with one step and a run with two: the
difference is what every further step costs, without the start-up (module
loads, the blocks the allocator pool keeps). Where the cuBLASLt stand-in
(Inputs/mock_cublaslt.c) counted too, a second line: its products per step
(and heuristic queries, which a shape makes once), and its bad calls and
matrices outside device memory in the whole run of two steps.

usage: mock_step_counts.py ONE_STEP_LOG TWO_STEP_LOG [DEVICE]
"""
import re
import sys


def counts(path, prefix):
    for line in open(path):
        if line.startswith(prefix):
            words = line[len(prefix):].split()
            return {k: int(v) for k, v in zip(words[::2], words[1::2])}
    return None


def main():
    one, two = sys.argv[1:3]
    device = sys.argv[3] if len(sys.argv) > 3 else "0"
    a, b = counts(one, f"cuda: device {device} "), counts(two, f"cuda: device {device} ")
    if a is None or b is None:
        sys.exit(f"mock_step_counts: no counts of device {device} in {one} and {two}")
    step = {k: b[k] - a[k] for k in a}
    print(
        f"per step: {step['launches']} launches, {step['memsets']} fills, {step['copies']} copies, "
        f"{step['transfers']} host transfers, {step['syncs']} host synchronisations, "
        f"{step['allocs']} new allocations ({step['managed']} managed); "
        f"start-up: {a['loads']} modules, {a['allocs'] - step['allocs']} blocks"
    )
    lt_one, lt_two = counts(one, "cublaslt: "), counts(two, "cublaslt: ")
    if lt_one and lt_two:
        print(
            f"cuBLASLt per step: {lt_two['matmuls'] - lt_one['matmuls']} products, "
            f"{lt_two['heuristics'] - lt_one['heuristics']} heuristic queries; "
            f"start-up: {lt_one['heuristics']} heuristic queries; "
            f"{lt_two['bad']} bad calls, {lt_two['host']} host matrices"
        )


if __name__ == "__main__":
    main()
