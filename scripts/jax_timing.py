"""What scripts/jax_gpt.py and scripts/jax_llama.py measure of a jitted step:
XLA's compile time, its FLOP count and the median time of REPEAT calls; how
far a step's results are from a reference; dist-run's results of several
runs; and the AdamW update both apply for `dist-gen --optimizer adamw`."""

import os
import statistics
import time

import jax
import numpy as np


def load_results(results, count=None):
    """dist-run's results in each of the comma-separated directories
    `results`: result0.npy up to result<count-1>.npy, or every result the
    directory holds."""
    def count_in(directory):
        return len([f for f in os.listdir(directory) if f.startswith("result")]) if count is None else count
    return [[np.load(os.path.join(d, f"result{k}.npy")) for k in range(count_in(d))] for d in results.split(",")]


def relative_error(got, exact):
    """The largest over the results of |got - exact| / |exact| (2-norms of
    whole tensors): a mixed-precision step's error against its float64
    reference."""
    return max(float(np.linalg.norm(np.asarray(a, np.float64) - np.asarray(b, np.float64))
                     / max(float(np.linalg.norm(np.asarray(b, np.float64))), 1e-300))
               for a, b in zip(got, exact))


def compile_and_time(step, args, repeat):
    """(compile ms, median step ms, flops, the last call's value and
    gradients) of `step`, a `jax.jit(value_and_grad(...))`, on `args`."""
    started = time.perf_counter()
    compiled = step.lower(*args).compile()
    compile_ms = (time.perf_counter() - started) * 1e3
    cost = compiled.cost_analysis()
    flops = (cost[0] if isinstance(cost, list) else cost).get("flops", 0.0)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        value, grads = compiled(*args)
        jax.block_until_ready(grads)
        times.append((time.perf_counter() - started) * 1e3)
    return compile_ms, statistics.median(times), flops, value, grads


def adamw(params, grads, m, v, t):
    """dist.adamw with dist-gen's attributes (PyTorch's defaults, weight
    decay 0.01) on lists of arrays: each parameter's new value, m and v, in
    dist-gen's result order."""
    lr, beta1, beta2, eps, decay = 1e-3, 0.9, 0.999, 1e-8, 0.01
    out = []
    for p, g, m0, v0 in zip(params, grads, m, v):
        m1 = beta1 * m0 + (1 - beta1) * g
        v1 = beta2 * v0 + (1 - beta2) * g * g
        adam = (m1 / (1 - beta1 ** t)) / ((v1 / (1 - beta2 ** t)) ** 0.5 + eps)
        out += [p - lr * (adam + decay * p), m1, v1]
    return out
