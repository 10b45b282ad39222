"""gemmscope.check_gemm on GEMMs written here in numpy (array="numpy": bf16 bits in
uint16 arrays), so that no GPU is needed: a correct one passes every case, and broken
ones fail where their bug says they must. The expected outcomes come from the bugs as
written, not from the code under test."""
import sys

import numpy as np
import pytest

import gemmscope


def bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(x):
    """Round to nearest even on the 16 bits kept (no NaN in these products)."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def numpy_gemm(a, b, out):
    out[...] = f32_to_bf16(bf16_to_f32(a) @ bf16_to_f32(b).T)


def test_a_correct_gemm_passes_every_case():
    result = gemmscope.check_gemm(numpy_gemm, cases=12, max_dim=200, seed=3, array="numpy")
    assert result.ok, str(result)
    assert len(result.cases) == 12
    assert result.smallest_failure is None
    assert all(c.nan_elements == 0 and c.worst_elementwise_ratio <= 1 for c in result.cases)
    assert "# 12 passed, 0 failed" in str(result)


def test_fixed_shapes_run_as_given_with_fresh_inputs_per_case():
    seen = []

    def spy(a, b, out):
        seen.append((a.shape, b.shape, int(a[0, 0])))
        numpy_gemm(a, b, out)

    result = gemmscope.check_gemm(spy, shapes=[(1, 1, 1), (7, 5, 3), (7, 5, 3)], seed=10, array="numpy")
    assert result.ok, str(result)
    assert [c.shape for c in result.cases] == [(1, 1, 1), (7, 5, 3), (7, 5, 3)]
    assert [c.seed for c in result.cases] == [10, 11, 12]
    assert seen[0][:2] == ((1, 1), (1, 1)) and seen[1][:2] == ((7, 3), (5, 3))
    assert seen[1][2] != seen[2][2]  # seeds 11 and 12: other inputs for the same shape


def test_a_wrong_row_fails_and_shrinks_to_the_smallest_shape_that_has_it():
    def row_13_zero(a, b, out):
        numpy_gemm(a, b, out)
        if out.shape[0] > 13:
            out[13, :] = 0

    result = gemmscope.check_gemm(row_13_zero, shapes=[(8, 9, 10), (300, 40, 70)], array="numpy")
    assert not result.ok
    assert result.cases[0].ok and not result.cases[1].ok
    assert result.first_failure.first_bad == (13, 0)
    assert result.smallest_failure.shape == (14, 1, 1), str(result)
    assert result.smallest_failure.first_bad == (13, 0)


def test_an_output_never_written_fails_on_its_nans():
    result = gemmscope.check_gemm(lambda a, b, out: None, shapes=[(3, 4, 5)], array="numpy", shrink=0)
    assert not result.ok
    assert result.cases[0].nan_elements == 12
    assert result.smallest_failure.shape == (3, 4, 5)


def test_an_error_past_the_k_scaled_bound_fails():
    # One element off by 3% of its value: past the bf16 output's 2^-8 and, at K = 8, the
    # accumulation term, whatever the inputs.
    def off_by_three_percent(a, b, out):
        numpy_gemm(a, b, out)
        out[2, 1] = f32_to_bf16(bf16_to_f32(out[2, 1 : 2]) * 1.03)[0]

    result = gemmscope.check_gemm(off_by_three_percent, shapes=[(4, 4, 8)], array="numpy", shrink=0)
    assert not result.ok
    assert result.cases[0].first_bad == (2, 1)
    assert result.cases[0].bad_elements == 1


def test_refusals_name_the_value_and_the_rule():
    with pytest.raises(ValueError, match=r"array = 'jax' must be 'torch' or 'numpy'"):
        gemmscope.check_gemm(numpy_gemm, array="jax")
    with pytest.raises(ValueError, match=r"M = 0 must be in 1\.\.2\^31-1"):
        gemmscope.check_gemm(numpy_gemm, shapes=[(0, 1, 1)], array="numpy")
    with pytest.raises(ValueError, match=r"M x N = 67108865 must be at most 2\^26"):
        gemmscope.check_gemm(numpy_gemm, shapes=[(67108865, 1, 1)], array="numpy")
    with pytest.raises(ValueError, match=r"M x N x K = 8192 x 8192 x 512 must be at most 2\^34 multiply-adds"):
        gemmscope.check_gemm(lambda a, b, out: None, shapes=[(8192, 8192, 512)], array="numpy")


def test_the_default_array_without_pytorch_names_it_and_the_alternative(monkeypatch):
    # None in sys.modules fails `import torch` as a machine without PyTorch does.
    monkeypatch.setitem(sys.modules, "torch", None)
    called = []
    with pytest.raises(ModuleNotFoundError, match=r"^array = 'torch' \(the default\) needs PyTorch: no module named "
                       r"'torch'; install it, or give array='numpy' to pass uint16 arrays of bf16 bits$") as e:
        gemmscope.check_gemm(lambda a, b, out: called.append(a), shapes=[(1, 1, 1)])
    assert e.value.name == "torch"
    assert called == []  # refused before any case
    assert gemmscope.check_gemm(numpy_gemm, shapes=[(1, 1, 1)], array="numpy").ok
