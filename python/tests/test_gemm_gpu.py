"""gemmscope.gemm on the GPU against torch.matmul in float32. Skipped, with a reason
that starts GEMMSCOPE_NO_GPU, without PyTorch, a Hopper GPU or the kernels.

Tolerance: C is rounded to bf16 (relative 2^-8 covers it, with margin), and the
accumulation order of an fp32 sum of K products differs from the reference's (at most
about K * 2^-24 of the sum of |a||b| each way): |C - ref| <= 2^-8 |ref| + K 2^-23 (|A| |B|^T).
The output is filled with NaN first, so an element the kernel never writes fails."""
import random

import pytest

import gemmscope

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def torch():
    try:
        import torch
    except ImportError:
        pytest.skip("GEMMSCOPE_NO_GPU: PyTorch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("GEMMSCOPE_NO_GPU: PyTorch sees no CUDA GPU")
    if not gemmscope.have_kernels:
        pytest.skip("GEMMSCOPE_NO_GPU: this gemmscope was built without the CUDA kernels")
    major, minor = torch.cuda.get_device_capability()
    if (major, minor) != (9, 0):
        pytest.skip(f"GEMMSCOPE_NO_GPU: the kernels are built for sm_90a, this GPU is sm_{major}{minor}")
    return torch


def operands(torch, m, n, k, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn((m, k), generator=g, device="cuda").to(torch.bfloat16)
    b = torch.randn((n, k), generator=g, device="cuda").to(torch.bfloat16)
    return a, b


def assert_close(torch, c, a, b):
    k = a.shape[1]
    ref = a.float() @ b.float().T
    bound = ref.abs() * 2.0 ** -8 + (a.float().abs() @ b.float().abs().T) * (k * 2.0 ** -23)
    cf = c.float()
    assert not torch.isnan(cf).any(), "NaN in C: an element was never written"
    err = (cf - ref).abs()
    worst = int(torch.argmax(err - bound))
    i, j = divmod(worst, c.shape[1])
    assert bool((err <= bound).all()), (f"C[{i}, {j}] = {cf[i, j].item()} vs {ref[i, j].item()} "
                                        f"(bound {bound[i, j].item()})")


FIXED_SHAPES = [
    (1, 1, 1), (1, 1, 8), (2, 3, 5), (7, 13, 17), (16, 8, 24), (64, 64, 64), (127, 129, 65),
    (128, 256, 64), (255, 257, 1000), (300, 200, 8), (1, 4096, 4096), (4096, 1, 128), (1000, 1000, 1000),
    (4096, 4096, 4096), (8192, 5120, 1024),
]
_rng = random.Random(20240)
RANDOM_SHAPES = [(_rng.randint(1, 3000), _rng.randint(1, 3000), _rng.choice([_rng.randint(1, 3000),
                                                                                8 * _rng.randint(1, 400)]))
                 for _ in range(24)]


@pytest.mark.parametrize("m, n, k", FIXED_SHAPES + RANDOM_SHAPES)
def test_against_torch_matmul(torch, m, n, k):
    a, b = operands(torch, m, n, k, seed=m * 1_000_003 + n * 1009 + k)
    c = torch.full((m, n), float("nan"), dtype=torch.bfloat16, device="cuda")
    assert gemmscope.gemm(a, b, c) is c
    torch.cuda.synchronize()
    assert_close(torch, c, a, b)


def test_out_none_makes_the_output(torch):
    a, b = operands(torch, 96, 80, 64, seed=1)
    c = gemmscope.gemm(a, b)
    assert c.shape == (96, 80) and c.dtype == torch.bfloat16 and c.device == a.device
    torch.cuda.synchronize()
    assert_close(torch, c, a, b)


def test_named_kernels(torch):
    a, b = operands(torch, 256, 256, 256, seed=2)
    for kernel in ("k01", "k08", "auto"):
        c = torch.full((256, 256), float("nan"), dtype=torch.bfloat16, device="cuda")
        gemmscope.gemm(a, b, c, kernel=kernel)
        torch.cuda.synchronize()
        assert_close(torch, c, a, b)
    assert gemmscope.gemm_kernel(a, b).startswith("k")


def test_runs_on_the_current_stream(torch):
    """Queued behind a long sleep on the caller's stream: not yet run while it sleeps."""
    a, b = operands(torch, 256, 256, 256, seed=3)
    c = torch.full((256, 256), float("nan"), dtype=torch.bfloat16, device="cuda")
    torch.cuda.synchronize()
    s, reader = torch.cuda.Stream(), torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(500_000_000)   # about a quarter of a second
        gemmscope.gemm(a, b, c)
    with torch.cuda.stream(reader):
        early = c.to("cpu", non_blocking=False)
    assert torch.isnan(early.float()).all(), "C was written before the work queued ahead of it on its stream"
    s.synchronize()
    assert_close(torch, c, a, b)


def test_explicit_stream(torch):
    a, b = operands(torch, 200, 136, 72, seed=6)
    s = torch.cuda.Stream()
    for stream in (s, s.cuda_stream):
        c = torch.full((200, 136), float("nan"), dtype=torch.bfloat16, device="cuda")
        torch.cuda.synchronize()
        gemmscope.gemm(a, b, c, stream=stream)
        s.synchronize()
        assert_close(torch, c, a, b)


def test_dlpack_inputs(torch):
    a, b = operands(torch, 64, 48, 32, seed=4)
    c = torch.full((64, 48), float("nan"), dtype=torch.bfloat16, device="cuda")

    class Foreign:   # a tensor of another library: DLPack only
        def __init__(self, t):
            self.t = t

        def __dlpack__(self, stream=None):
            return self.t.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    out = gemmscope.gemm(Foreign(a), torch.utils.dlpack.to_dlpack(b), Foreign(c))
    assert isinstance(out, Foreign)
    torch.cuda.synchronize()
    assert_close(torch, c, a, b)


def test_refusals(torch):
    a, b = operands(torch, 64, 64, 64, seed=5)
    with pytest.raises(ValueError, match="A has dtype float32: gemmscope.gemm needs bfloat16"):
        gemmscope.gemm(a.float(), b)
    with pytest.raises(ValueError, match=r"^B has strides \(1, 64\)"):
        gemmscope.gemm(a, b.T)
    with pytest.raises(ValueError, match="A is on cpu: gemmscope.gemm needs CUDA device memory"):
        gemmscope.gemm(a.cpu(), b)
    with pytest.raises(ValueError, match="K must agree"):
        gemmscope.gemm(a, b[:, :32].contiguous())
    with pytest.raises(ValueError, match=r"out has shape \(64, 63\)"):
        gemmscope.gemm(a, b, torch.empty((64, 63), dtype=torch.bfloat16, device="cuda"))
    with pytest.raises(ValueError, match="^M = 0 must be at least 1$"):
        gemmscope.gemm(a[:0], b)
    with pytest.raises(ValueError, match="'k99' is unknown"):
        gemmscope.gemm(a, b, kernel="k99")
    with pytest.raises(ValueError, match="C overlaps A"):
        gemmscope.gemm(a, b, a)
    misaligned = torch.empty(64 * 64 + 1, dtype=torch.bfloat16, device="cuda")[1:].view(64, 64)
    misaligned.copy_(a)
    with pytest.raises(ValueError, match="aligned"):
        gemmscope.gemm(misaligned, b, kernel="k10")
    c = torch.full((64, 64), float("nan"), dtype=torch.bfloat16, device="cuda")
    gemmscope.gemm(misaligned, b, c)   # "auto" falls back down the ladder
    torch.cuda.synchronize()
    assert_close(torch, c, a, b)


def test_native_batch_computes_and_times(torch):
    """gemmscope.timing.batch launches the kernel from C++ on the caller's operands: each
    output is the product, each launch has a time, and the plan is bench's."""
    plan = gemmscope.timing.plan(512, 520, 3000)
    assert plan.sets >= 2 and plan.launches == 4 and plan.spin_us > 0
    sets = []
    for seed in range(plan.launches):
        a, b = operands(torch, 300, 520, 3000, seed=40 + seed)
        sets.append((a, b, torch.full((300, 520), float("nan"), dtype=torch.bfloat16, device="cuda")))
    for kernel in ("auto", "k10:128x256x64.s4.wg2.c2x1.static.g0.sk3", "k10:128x256x64.s4.wg2.c2x1.static.g0.streamk"):
        for _, _, c in sets:
            c.fill_(float("nan"))
        ms = gemmscope.timing.batch(sets, kernel=kernel)
        assert len(ms) == plan.launches and all(0 < t < 1000 for t in ms), ms
        for a, b, c in sets:
            assert_close(torch, c, a, b)
    with pytest.raises(ValueError, match=r"^launches = 5 must be in 1\.\.4$"):
        gemmscope.timing.batch(sets + sets[:1])
    s = torch.cuda.Stream()
    gemmscope.timing.spin(s.cuda_stream, microseconds=1000)
    s.synchronize()
    assert gemmscope.timing.host_seconds(*sets[0], calls=10) > 0


# gemmscope.check_gemm with CUDA tensors: gemmscope.gemm passes it, and a torch GEMM with
# row 13 zeroed fails, shrunk to the smallest shape that has the row.
def test_check_gemm_holds_gemm_and_catches_a_wrong_row(torch):
    result = gemmscope.check_gemm(lambda a, b, out: gemmscope.gemm(a, b, out=out), cases=12, max_dim=1500, seed=5)
    assert result.ok, str(result)

    def row_13_zero(a, b, out):
        out.copy_((a.float() @ b.float().T).to(torch.bfloat16))
        if out.shape[0] > 13:
            out[13].zero_()

    broken = gemmscope.check_gemm(row_13_zero, shapes=[(300, 40, 70)])
    assert not broken.ok
    assert broken.smallest_failure.shape == (14, 1, 1), str(broken)
