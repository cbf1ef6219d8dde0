"""Assembles each kernel of a `dist-opt --emit=ptx` file with ptxas.

Usage: ptxas_each.py PTXAS ARCH FILE. Prints one line per failure (with
ptxas's message) and a summary; exits non-zero if any kernel fails.
"""
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
failed = 0
with tempfile.TemporaryDirectory() as tmp:
    for name, text in kernels:
        source = f"{tmp}/{name}.ptx"
        with open(source, "w") as f:
            f.write(text)
        run = subprocess.run([ptxas, f"-arch={arch}", source, "-o", f"{tmp}/{name}.cubin"],
                             capture_output=True, text=True)
        if run.returncode:
            failed += 1
            print(f"ptxas rejected @{name}: {run.stderr.strip()}")
print(f"ptxas assembled {len(kernels) - failed} of {len(kernels)} kernels for {arch}")
sys.exit(1 if failed or not kernels else 0)
