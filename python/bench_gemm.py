#!/usr/bin/env python3
"""gemmscope.gemm called from Python against the same kernel timed by the C++ benchmark
harness, in one process, on the same shapes and buffers; next to torch.mm; and the host
time of one call from Python against the same launch made from C++.

    PYTHONPATH=build/python python3 python/bench_gemm.py [--csv shapes.csv] [--overhead-csv host.csv]

Shapes: 4096^3 and the shape set (default bench/shapes/llm_projections.csv, 48 shapes).
Each shape is timed in rounds (--warmup untimed, then --repeats timed), and each round
takes one batch of each of:
  python  gemmscope.gemm(a, b, c, kernel=K) called from Python, each call between its own
          pair of CUDA events (torch.cuda.Event) recorded from Python;
  native  the same kernel name, run and timed by the harness `gemmscope bench` uses
          (gemmscope.timing.batch: launched and its events recorded in C++);
  torch   torch.mm(a, b.T, out=c), timed as python.
A batch is the harness's: its spin kernel (about 300 us, so that the host has queued the
batch before the GPU reaches it), then 4 launches back to back; the operands rotate
through as many (A, B, C) sets as gemmscope bench uses (together more than 3x L2), one
rotation shared by all three. python and native alternate which goes first. A row gives
each one's median over the timed launches and python / native: 1.00 when calling from
Python costs the GPU nothing. The last line counts the shapes within --tolerance.

Host time per call (--overhead-shapes, tiny products the GPU keeps up with): --overhead-calls
calls timed on the host with no waiting, in batches of 200, the median per call, taken
--overhead-rounds times in turn for: gemmscope.gemm from Python into a given output, and
with out=None (a new tensor), the same launch from C++ (gemmscope::gemm in a loop in the
library, gemmscope.timing.host_seconds), and torch.mm. python - C++ is what Python adds.

The same kernels from the command line, in a process of their own:

    build/bin/gemmscope bench --kernels auto --shapes 4096x4096x4096 --warmup 5 --repeats 30
    build/bin/gemmscope bench --kernels auto --shapes bench/shapes/llm_projections.csv --warmup 5 --repeats 30
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
    p.add_argument("--tolerance", type=float, default=0.02, help="python / native within 1 +- this (default 0.02)")
    p.add_argument("--no-torch", action="store_true", help="leave torch.mm out of the rounds")
    p.add_argument("--overhead-shapes", default="256x256x256,64x64x64")
    p.add_argument("--overhead-calls", type=int, default=2000)
    p.add_argument("--overhead-rounds", type=int, default=5)
    p.add_argument("--csv", help="write the shapes' rows here")
    p.add_argument("--overhead-csv", help="write the host-time rows here")
    return p.parse_args()


class Operands:
    """The rotating (A, B, C) sets of one shape, as many as gemmscope bench uses."""

    def __init__(self, torch, m, n, k, sets):
        g = torch.Generator(device="cuda").manual_seed(m * 31 + n * 17 + k)
        self.sets = [(torch.randn((m, k), generator=g, device="cuda").to(torch.bfloat16),
                      torch.randn((n, k), generator=g, device="cuda").to(torch.bfloat16),
                      torch.empty((m, n), dtype=torch.bfloat16, device="cuda")) for _ in range(sets)]
        self.next = 0

    def take(self, count):
        out = []
        for _ in range(count):
            out.append(self.sets[self.next])
            self.next = (self.next + 1) % len(self.sets)
        return out


def python_batch(torch, timing, stream, spin_us, launch, operands):
    """One batch timed from Python: the harness's spin, then each launch between events."""
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in operands]
    timing.spin(stream, microseconds=spin_us)
    for (start, end), (a, b, c) in zip(events, operands):
        start.record()
        launch(a, b, c)
        end.record()
    events[-1][1].synchronize()
    return [start.elapsed_time(end) for start, end in events]


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def time_shapes(args, torch, gemmscope, shapes):
    timing = gemmscope.timing
    kernel = args.kernel
    rows = []
    print(f"{'shape':>20} {'label':<24} {'python_us':>10} {'native_us':>10} {'py/native':>9} {'torch_us':>9}  ran",
          flush=True)
    for m, n, k, label in shapes:
        plan = timing.plan(m, n, k)
        ops = Operands(torch, m, n, k, plan.sets)
        a, b, c = ops.sets[0]
        ran = gemmscope.gemm_kernel(a, b, c, kernel=kernel)
        stream = torch.cuda.current_stream().cuda_stream
        launchers = {"python": lambda a, b, c: gemmscope.gemm(a, b, c, kernel=kernel)}
        if not args.no_torch:
            launchers["torch"] = lambda a, b, c: torch.mm(a, b.T, out=c)
        times = {"python": [], "native": [], "torch": []}
        for round_index in range(args.warmup + args.repeats):
            order = ["python", "native"] if round_index % 2 == 0 else ["native", "python"]
            if not args.no_torch:
                order.append("torch")
            for name in order:
                batch = ops.take(plan.launches)
                if name == "native":
                    ms = timing.batch(batch, kernel=kernel, stream=stream)
                else:
                    ms = python_batch(torch, timing, stream, plan.spin_us, launchers[name], batch)
                if round_index >= args.warmup:
                    times[name].extend(ms)
        py, nat = statistics.median(times["python"]), statistics.median(times["native"])
        th = statistics.median(times["torch"]) if times["torch"] else float("nan")
        row = {"m": m, "n": n, "k": k, "label": label, "kernel": ran,
               "python_median_ms": py, "native_median_ms": nat, "python_over_native": py / nat,
               "python_min_ms": min(times["python"]), "native_min_ms": min(times["native"]),
               "torch_median_ms": th, "tflops_python": 2 * m * n * k / (py * 1e-3) / 1e12,
               "within_tolerance": abs(py / nat - 1) <= args.tolerance}
        rows.append(row)
        print(f"{f'{m}x{n}x{k}':>20} {label:<24} {py * 1e3:10.1f} {nat * 1e3:10.1f} {py / nat:9.4f} {th * 1e3:9.1f}  "
              f"{ran}", flush=True)
        if args.csv:  # rewritten after every shape: a run cut short keeps what it measured
            write_csv(args.csv, rows, quiet=True)
        del ops
        torch.cuda.empty_cache()
    return rows


def host_per_call(torch, fn, calls, batch=200):
    """Median over batches of host seconds per call, launches not waited for."""
    per_call = []
    for _ in range(max(1, calls // batch)):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        per_call.append((time.perf_counter() - t0) / batch)
    torch.cuda.synchronize()
    return statistics.median(per_call)


def time_host(args, torch, gemmscope, shapes):
    timing = gemmscope.timing
    kernel = args.kernel
    rows = []
    for m, n, k in shapes:
        a = torch.randn((m, k), device="cuda").to(torch.bfloat16)
        b = torch.randn((n, k), device="cuda").to(torch.bfloat16)
        c = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")
        for _ in range(100):
            gemmscope.gemm(a, b, c, kernel=kernel)
        samples = {"python": [], "python_new_out": [], "cpp": [], "torch": []}
        for _ in range(args.overhead_rounds):  # in turn, so that drift reaches all alike
            samples["python"].append(host_per_call(torch, lambda: gemmscope.gemm(a, b, c, kernel=kernel),
                                                   args.overhead_calls))
            samples["python_new_out"].append(host_per_call(torch, lambda: gemmscope.gemm(a, b, kernel=kernel),
                                                           args.overhead_calls))
            torch.cuda.synchronize()
            samples["cpp"].append(statistics.median(timing.host_seconds(a, b, c, kernel=kernel, calls=200)
                                                    for _ in range(max(1, args.overhead_calls // 200))))
            torch.cuda.synchronize()
            samples["torch"].append(host_per_call(torch, lambda: torch.mm(a, b.T, out=c), args.overhead_calls))
        us = {key: statistics.median(v) * 1e6 for key, v in samples.items()}
        row = {"m": m, "n": n, "k": k, "kernel": gemmscope.gemm_kernel(a, b, c, kernel=kernel),
               "python_us": us["python"], "python_new_out_us": us["python_new_out"], "cpp_us": us["cpp"],
               "python_adds_us": us["python"] - us["cpp"], "torch_mm_us": us["torch"]}
        rows.append(row)
        print(f"# host time per call at {m}x{n}x{k} ({args.overhead_calls} calls x {args.overhead_rounds}): "
              f"gemmscope.gemm from Python {us['python']:.2f} us (out=None {us['python_new_out']:.2f} us), the same "
              f"launch from C++ {us['cpp']:.2f} us: Python adds {us['python'] - us['cpp']:.2f} us; "
              f"torch.mm {us['torch']:.2f} us", flush=True)
    return rows


def write_csv(path, rows, quiet=False):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    if not quiet:
        print(f"# wrote {path}")


def parse_mnk(text):
    out = []
    for item in text.split(","):
        m, n, k = (int(x) for x in item.lower().split("x"))
        out.append((m, n, k))
    return out


def main():
    args = parse_args()
    import torch
    import gemmscope
    if not torch.cuda.is_available():
        sys.exit("bench_gemm: PyTorch sees no CUDA GPU")
    if not gemmscope.have_kernels:
        sys.exit("bench_gemm: this gemmscope was built without the CUDA kernels")
    print(f"# {torch.cuda.get_device_name(0)}, torch {torch.__version__}, gemmscope {gemmscope.__version__}, "
          f"kernel {args.kernel}, warmup {args.warmup}, repeats {args.repeats} x "
          f"{gemmscope.timing.plan(1, 1, 1).launches} launches", flush=True)

    shapes = [(4096, 4096, 4096, "4096^3")]
    if args.shapes != "none":
        shapes += [(s["m"], s["n"], s["k"], f"{s['model']}/{s['layer']}") for s in gemmscope.load_shape_set(args.shapes)]
    rows = time_shapes(args, torch, gemmscope, shapes)
    host_rows = time_host(args, torch, gemmscope, parse_mnk(args.overhead_shapes)) if args.overhead_shapes else []
    if args.csv:
        write_csv(args.csv, rows)
    if args.overhead_csv and host_rows:
        write_csv(args.overhead_csv, host_rows)

    ratios = [r["python_over_native"] for r in rows]
    worst = max(rows, key=lambda r: abs(r["python_over_native"] - 1))
    within = sum(r["within_tolerance"] for r in rows)
    summary = (f"# python/native over {len(rows)} shapes: {within} within {args.tolerance:.0%}, geomean "
               f"{geomean(ratios):.4f}, worst {worst['python_over_native']:.4f} at {worst['m']}x{worst['n']}x"
               f"{worst['k']} ({worst['label']})")
    if not args.no_torch:
        summary += f"; torch.mm/python geomean {geomean([r['torch_median_ms'] / r['python_median_ms'] for r in rows]):.3f}"
    if host_rows:
        h = host_rows[0]
        summary += (f"; host per call at {h['m']}x{h['n']}x{h['k']}: Python {h['python_us']:.2f} us, C++ "
                    f"{h['cpp_us']:.2f} us, Python adds {h['python_adds_us']:.2f} us")
    print(summary)


if __name__ == "__main__":
    main()
