"""Assembles each kernel of a `dist-opt --emit=ptx` file with ptxas.

Usage: ptxas_each.py PTXAS ARCH FILE. Prints one line per failure (with
ptxas's message), one per kernel whose registers spill to local memory
(from `ptxas -v`'s spill stores and loads), and a summary; exits non-zero
if any kernel fails.
"""
import re
import subprocess
import sys
import tempfile

ptxas, arch, path = sys.argv[1:4]
kernels = []
for line in open(path):
    if line.startswith("// gpu.binary @"):
        kernels.append([line.split("@", 1)[1].strip(), ""])
    elif kernels:
        kernels[-1][1] += line
failed = spilled = 0
with tempfile.TemporaryDirectory() as tmp:
    for name, text in kernels:
        source = f"{tmp}/{name}.ptx"
        with open(source, "w") as f:
            f.write(text)
        run = subprocess.run([ptxas, "-v", f"-arch={arch}", source, "-o", f"{tmp}/{name}.cubin"],
                             capture_output=True, text=True)
        if run.returncode:
            failed += 1
            print(f"ptxas rejected @{name}: {run.stderr.strip()}")
            continue
        spills = [int(n) for n in re.findall(r"(\d+) bytes spill (?:stores|loads)", run.stderr)]
        if any(spills):
            spilled += 1
            print(f"@{name} spills registers: {max(spills)} bytes")
print(f"ptxas assembled {len(kernels) - failed} of {len(kernels)} kernels for {arch}, {spilled} spilling registers")
sys.exit(1 if failed or not kernels else 0)
