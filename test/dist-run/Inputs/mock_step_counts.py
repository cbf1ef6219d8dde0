"""The driver calls of one training step, from the stand-in driver's counts
(Inputs/mock_cuda.c) of a run with one step and a run with two: the
difference is what every further step costs, without the start-up (module
loads, the blocks the allocator pool keeps).

usage: mock_step_counts.py ONE_STEP_LOG TWO_STEP_LOG [DEVICE]
"""
import re
import sys


def counts(path, device):
    for line in open(path):
        if line.startswith(f"cuda: device {device} "):
            words = line.split()[3:]
            return {k: int(v) for k, v in zip(words[::2], words[1::2])}
    sys.exit(f"mock_step_counts: no counts of device {device} in {path}")


def main():
    one, two = sys.argv[1:3]
    device = sys.argv[3] if len(sys.argv) > 3 else "0"
    a, b = counts(one, device), counts(two, device)
    step = {k: b[k] - a[k] for k in a}
    print(
        f"per step: {step['launches']} launches, {step['memsets']} fills, {step['copies']} copies, "
        f"{step['transfers']} host transfers, {step['syncs']} host synchronisations, "
        f"{step['allocs']} new allocations ({step['managed']} managed); "
        f"start-up: {a['loads']} modules, {a['allocs'] - step['allocs']} blocks"
    )


if __name__ == "__main__":
    main()
