#!/usr/bin/env python3
"""gemmscope.gemm called from Python, timed the way `gemmscope bench` times kernels, next
to torch.matmul; and the host time of one call from Python against the same launch
made from C++.

    PYTHONPATH=build/python python3 python/bench_gemm.py [--csv out.csv]

Shapes: 4096^3 and the shape set (default bench/shapes/llm_projections.csv, 48 shapes).
For each shape, gemmscope.gemm (kernel --kernel, default auto) and torch.matmul
(torch.mm(A, B.T, out=C)) run in the same rounds: --warmup untimed rounds, then
--repeats timed ones; each turn is one batch: a spin kernel of about 300 us (so that the
host queues ahead of the GPU), then 4 launches back to back, each between its own pair
of CUDA events. Operands rotate through as many A, B, C sets as exceed 3x L2. A row
gives the median time of each and their ratio. The same kernel timed by the command line,
for the comparison:

    build/bin/gemmscope bench --kernels auto --shapes 4096x4096x4096 --warmup 5 --repeats 30
    build/bin/gemmscope bench --kernels auto --shapes bench/shapes/llm_projections.csv --warmup 5 --repeats 30

Host time per call: --overhead-calls launches of a small product (256^3, the GPU keeps up)
timed on the host with no waiting, for gemmscope.gemm from Python, for the same launch
from C++ (gemmscope::gemm in a loop, no Python), and for torch.mm; the first minus the
second is what Python adds to a call.
"""
import argparse
import csv
import math
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# This file sits next to the package's sources, which hold no library: take the built
# package from PYTHONPATH (build/python), not the folder Python puts first.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != HERE]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shapes", default=os.path.join(ROOT, "bench", "shapes", "llm_projections.csv"),
                   help="shape-set CSV (model,layer,m,n,k); 'none' for 4096^3 alone")
    p.add_argument("--kernel", default="auto", help="gemmscope kernel name (default auto)")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--repeats", type=int, default=30)
    p.add_argument("--overhead-calls", type=int, default=2000)
    p.add_argument("--csv", help="write the rows here too")
    return p.parse_args()


def spin_cycles(torch):
    """Clock cycles of about 300 us at the SM clock PyTorch reports (or 1.98 GHz)."""
    try:
        mhz = torch.cuda.get_device_properties(0).clock_rate / 1000  # kHz in older versions
    except AttributeError:
        mhz = 1980
    return int(300e-6 * (mhz if mhz > 100 else 1980) * 1e6)


class Shape:
    def __init__(self, torch, m, n, k, label):
        self.m, self.n, self.k, self.label = m, n, k, label
        l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 60 << 20)
        bytes_per_set = 2 * (m * k + n * k + m * n)
        self.sets = max(2, math.ceil(3 * l2 / bytes_per_set))
        g = torch.Generator(device="cuda").manual_seed(m * 31 + n * 17 + k)
        self.a = [torch.randn((m, k), generator=g, device="cuda").to(torch.bfloat16) for _ in range(self.sets)]
        self.b = [torch.randn((n, k), generator=g, device="cuda").to(torch.bfloat16) for _ in range(self.sets)]
        self.c = [torch.empty((m, n), dtype=torch.bfloat16, device="cuda") for _ in range(self.sets)]
        self.next = 0

    def operands(self):
        i = self.next
        self.next = (self.next + 1) % self.sets
        return self.a[i], self.b[i], self.c[i]


def time_batches(torch, shape, launchers, warmup, repeats, cycles):
    """Per launcher, the event times (ms) of all timed launches, interleaved by round."""
    times = {name: [] for name in launchers}
    for round_index in range(warmup + repeats):
        for name, launch in launchers.items():
            events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                      for _ in range(4)]
            torch.cuda._sleep(cycles)
            for start, end in events:
                a, b, c = shape.operands()
                start.record()
                launch(a, b, c)
                end.record()
            torch.cuda.synchronize()
            if round_index >= warmup:
                times[name].extend(start.elapsed_time(end) for start, end in events)
    return times


def host_time_per_call(torch, fn, calls):
    """Median over batches of host seconds per call, launches not waited for."""
    per_call = []
    batch = 200
    for _ in range(max(1, calls // batch)):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        per_call.append((time.perf_counter() - t0) / batch)
    torch.cuda.synchronize()
    return statistics.median(per_call)


def main():
    args = parse_args()
    import torch
    import gemmscope
    if not torch.cuda.is_available():
        sys.exit("bench_gemm: PyTorch sees no CUDA GPU")
    if not gemmscope.have_kernels:
        sys.exit("bench_gemm: this gemmscope was built without the CUDA kernels")
    print(f"# {torch.cuda.get_device_name(0)}, torch {torch.__version__}, gemmscope {gemmscope.__version__}, "
          f"kernel {args.kernel}, warmup {args.warmup}, repeats {args.repeats} x 4 launches", flush=True)

    shapes = [(4096, 4096, 4096, "4096^3")]
    if args.shapes != "none":
        shapes += [(s["m"], s["n"], s["k"], f"{s['model']}/{s['layer']}") for s in gemmscope.load_shape_set(args.shapes)]

    kernel = args.kernel
    launchers = {
        "gemmscope": lambda a, b, c: gemmscope.gemm(a, b, c, kernel=kernel),
        "torch": lambda a, b, c: torch.mm(a, b.T, out=c),
    }
    cycles = spin_cycles(torch)
    rows = []
    header = f"{'shape':>22} {'label':<22} {'gemmscope_us':>12} {'torch_us':>10} {'TFLOP/s':>8} {'torch/gs':>8}  ran"
    print(header)
    for m, n, k, label in shapes:
        shape = Shape(torch, m, n, k, label)
        a, b, c = shape.operands()
        ran = gemmscope.gemm_kernel(a, b, c, kernel=kernel)
        times = time_batches(torch, shape, launchers, args.warmup, args.repeats, cycles)
        gs, th = statistics.median(times["gemmscope"]), statistics.median(times["torch"])
        tflops = 2 * m * n * k / (gs * 1e-3) / 1e12
        row = {"m": m, "n": n, "k": k, "label": label, "gemmscope_median_ms": gs, "torch_median_ms": th,
               "gemmscope_tflops": tflops, "torch_over_gemmscope": th / gs, "kernel": ran,
               "gemmscope_min_ms": min(times["gemmscope"]), "torch_min_ms": min(times["torch"])}
        rows.append(row)
        print(f"{f'{m}x{n}x{k}':>22} {label:<22} {gs * 1e3:12.1f} {th * 1e3:10.1f} {tflops:8.1f} "
              f"{th / gs:8.3f}  {ran}", flush=True)
        del shape
        torch.cuda.empty_cache()

    ratios = [r["torch_over_gemmscope"] for r in rows]
    print(f"# geomean torch/gemmscope over {len(rows)} shapes: "
          f"{math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f} (> 1: gemmscope faster)")

    # Host time of one call (256^3: a few microseconds of GPU work, so the queue never fills).
    a = torch.randn((256, 256), device="cuda").to(torch.bfloat16)
    b = torch.randn((256, 256), device="cuda").to(torch.bfloat16)
    c = torch.empty((256, 256), dtype=torch.bfloat16, device="cuda")
    from gemmscope._gemm import host_seconds
    for _ in range(100):
        gemmscope.gemm(a, b, c, kernel=kernel)
    py = host_time_per_call(torch, lambda: gemmscope.gemm(a, b, c, kernel=kernel), args.overhead_calls)
    torch.cuda.synchronize()
    cpp = statistics.median(host_seconds(a, b, c, kernel=kernel, calls=200) for _ in range(max(1, args.overhead_calls
                                                                                              // 200)))
    torch.cuda.synchronize()
    tm = host_time_per_call(torch, lambda: torch.mm(a, b.T, out=c), args.overhead_calls)
    print(f"# host time per call (256^3, {args.overhead_calls} calls): gemmscope.gemm from Python "
          f"{py * 1e6:.2f} us, the same launch from C++ {cpp * 1e6:.2f} us (Python adds {(py - cpp) * 1e6:.2f} us), "
          f"torch.mm {tm * 1e6:.2f} us")

    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        print(f"# wrote {args.csv}")


if __name__ == "__main__":
    main()
