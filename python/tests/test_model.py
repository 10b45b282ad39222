"""The model from Python: swizzles, descriptors, the instruction descriptor and TMEM
maps. Expected values are the PTX ISA's bit layouts written out by hand, or outputs
the gemmscope command line prints, never the code under test."""
import os

import numpy as np
import pytest

import gemmscope


def test_package_is_the_built_one():
    here = os.path.dirname(gemmscope.__file__)
    assert os.path.exists(os.path.join(here, "libgemmscope_capi.so"))
    assert gemmscope.__version__.count(".") == 2


# ---- swizzle ----------------------------------------------------------------------
# 128B = Swizzle<3,4,3>: bits 7-9 of the byte address XOR into bits 4-6, so 16-byte
# chunk c of 128-byte row r (of an aligned 1024-byte block) lands in chunk c ^ (r % 8).
# 64B = <2,4,3>: bits 7-8 into 4-5; 32B = <1,4,3>: bit 7 into bit 4.

def test_swizzle_known_cli_output():
    assert gemmscope.swizzle("128B", 944) == 960  # gemmscope swizzle --mode 128B --offset 944


@pytest.mark.parametrize("row", range(8))
@pytest.mark.parametrize("chunk", range(8))
def test_swizzle_128B_chunk_table(row, chunk):
    assert gemmscope.swizzle("128B", 128 * row + 16 * chunk) == 128 * row + 16 * (chunk ^ row)


@pytest.mark.parametrize("mode, offset, expected", [
    ("none", 944, 944),
    ("32B", 128, 144), ("32B", 256, 256), ("32B", 384, 400),
    ("64B", 128, 144), ("64B", 256, 288), ("64B", 512, 512),
    ("128B", 256, 288), ("128B", 512, 576), ("128B", 1024, 1024),
    ("128B", 128 + 5, 144 + 5),  # the bytes within a chunk stay in place
])
def test_swizzle_modes(mode, offset, expected):
    assert gemmscope.swizzle(mode, offset) == expected


def test_swizzle_array_keeps_shape_and_dtype():
    offsets = np.array([[0, 16, 128], [944, 1024, 1040]], dtype=np.int32)
    out = gemmscope.swizzle("128B", offsets)
    assert out.dtype == np.int32 and out.shape == (2, 3)
    assert out.tolist() == [[0, 16, 144], [960, 1024, 1040]]
    assert gemmscope.swizzle("128B", np.uint64(944)) == 960
    assert gemmscope.swizzle("64B", np.arange(0, 0)).shape == (0,)


def test_swizzle_is_an_involution_on_arrays():
    offsets = np.arange(0, 1 << 14, 2, dtype=np.int64)
    for mode in ("none", "32B", "64B", "128B", "128B-atom32B"):
        once = gemmscope.swizzle(mode, offsets)
        assert np.array_equal(gemmscope.swizzle(mode, once), offsets)


def test_swizzle_refusals():
    with pytest.raises(ValueError, match="swizzle mode = '129B' must be one of none, 32B, 64B, 128B, 128B-atom32B"):
        gemmscope.swizzle("129B", 0)
    with pytest.raises(ValueError, match=r"^offset = -16 must be >= 0$"):
        gemmscope.swizzle("128B", np.array([0, -16]))
    with pytest.raises(ValueError, match="outside the 64-bit integer range"):
        gemmscope.swizzle("128B", 1 << 64)
    with pytest.raises(TypeError):
        gemmscope.swizzle("128B", np.array([1.5]))


# ---- shared-memory matrix descriptors ---------------------------------------------
# sm90: bits 0-13 start >> 4, 16-29 LBO >> 4, 32-45 SBO >> 4, 49-51 base offset,
# 62-63 swizzle (1 128B, 2 64B, 3 32B). sm100: the same fields, version 1 at bits 46-48,
# bit 52 LBO mode, 61-63 swizzle (1 128B-atom32B, 2 128B, 4 64B, 6 32B).

def test_desc_encode_known_cli_output():
    # gemmscope desc encode --arch sm90 --start 1024 --lbo 16 --sbo 1024 --swizzle 128B
    assert gemmscope.desc_encode("sm90", 1024, 16, 1024, "128B") == 0x4000004000010040


@pytest.mark.parametrize("swizzle, sm90_code, sm100_code", [
    ("none", 0, 0), ("128B", 1, 2), ("64B", 2, 4), ("32B", 3, 6)])
def test_desc_encode_fields(swizzle, sm90_code, sm100_code):
    fields = (1024 >> 4) | (16 >> 4) << 16 | (1024 >> 4) << 32
    assert gemmscope.desc_encode("sm90", 1024, 16, 1024, swizzle) == fields | sm90_code << 62
    assert gemmscope.desc_encode("sm100", 1024, 16, 1024, swizzle) == fields | 1 << 46 | sm100_code << 61


def test_desc_encode_base_offset_and_lbo_mode():
    assert gemmscope.desc_encode("sm90", 0, 0, 0, "128B", base_offset=3) == 3 << 49 | 1 << 62
    word = gemmscope.desc_encode("sm100", 0, 0, 0, "128B-atom32B", lbo_mode="absolute")
    assert word == 1 << 46 | 1 << 52 | 1 << 61


def test_desc_decode_keys_and_values():
    d = gemmscope.desc_decode("sm90", 0x4000004000010040)
    assert d == {"start_address": 1024, "lbo_bytes": 16, "sbo_bytes": 1024, "base_offset": 0, "swizzle": "128B"}
    # gemmscope desc decode --arch sm100 0x4000004000010040 --json
    assert gemmscope.desc_decode("sm100", "0x4000004000010040") == {
        "start_address": 1024, "lbo_bytes": 16, "sbo_bytes": 1024, "base_offset": 0, "swizzle": "128B",
        "version": 0, "lbo_mode": "relative"}
    assert gemmscope.desc_decode("sm100", 1 << 46 | 1 << 52)["lbo_mode"] == "absolute"


def test_desc_decode_matches_the_cli_json(cli):
    for arch, word in (("sm90", "0x4000004000010040"), ("sm100", "0x4000404000010040"), ("sm90", "0x0")):
        import json
        rc, out, _ = cli("desc", "decode", "--arch", arch, word, "--json")
        assert rc == 0
        assert gemmscope.desc_decode(arch, word) == json.loads(out)


def test_desc_refusals():
    with pytest.raises(ValueError, match=r"^arch = 'sm80' must be one of sm90, sm100$"):
        gemmscope.desc_encode("sm80", 0, 0, 0, "none")
    with pytest.raises(ValueError, match="start_address_bytes = 1000 must be a multiple of 16"):
        gemmscope.desc_encode("sm90", 1000, 16, 1024, "128B")
    with pytest.raises(ValueError, match=r"^lbo_mode = 'absolute' exists on sm100 only$"):
        gemmscope.desc_encode("sm90", 0, 0, 0, "none", lbo_mode="absolute")
    with pytest.raises(ValueError, match=r"^start = -16 must be in 0\.\.4294967295 bytes$"):
        gemmscope.desc_encode("sm90", -16, 0, 0, "none")
    with pytest.raises(ValueError, match="reserved bits"):
        gemmscope.desc_decode("sm90", 1 << 15)
    with pytest.raises(ValueError, match=r"^descriptor = 'xyz' must be a hexadecimal value of at most 64 bits$"):
        gemmscope.desc_decode("sm90", "xyz")
    with pytest.raises(ValueError, match="at most 64 bits"):
        gemmscope.desc_decode("sm90", 1 << 64)


# ---- descriptor element maps ------------------------------------------------------
# K-major, 128B swizzle: element (row r, k) at start + 128 r + 2 k (bf16), then swizzled.
# K-major, no swizzle ("interleave"): core matrices of 8 rows x 16 bytes; row r % 8 at
# +16 B, the 8-row group r // 8 at +SBO, the 8-element K chunk k // 8 at +LBO.

def test_desc_map_known_cli_output():
    m = gemmscope.desc_map("sm90", rows=8, k=64, start=1024, lbo=16, sbo=1024, swizzle="128B")
    assert m.shape == (8 * 64, 3) and m.dtype == np.int64
    # gemmscope desc map --arch sm90 --rows 8 --k 64 --start 1024 --lbo 16 --sbo 1024 --swizzle 128B
    assert m[:9].tolist() == [[0, k, 1024 + 2 * k] for k in range(9)]


def test_desc_map_swizzled_k_major():
    m = gemmscope.desc_map("sm90", rows=8, k=64, start=1024, lbo=16, sbo=1024, swizzle="128B")
    address = {(int(r), int(k)): int(a) for r, k, a in m}
    assert address[(1, 0)] == 1024 + 128 + 16   # row 1: chunk 0 -> chunk 1
    assert address[(7, 63)] == 1024 + 7 * 128 + 0 * 16 + 14   # row 7, chunk 7 -> chunk 0, byte 14
    assert sorted(address.values()) == list(range(1024, 2048, 2))   # a bijection onto the tile


def test_desc_map_interleaved_k_major():
    m = gemmscope.desc_map("sm90", rows=16, k=16, start=0, lbo=128, sbo=256, swizzle="none")
    address = {(int(r), int(k)): int(a) for r, k, a in m}
    assert address[(1, 0)] == 16
    assert address[(8, 0)] == 256
    assert address[(0, 8)] == 128
    assert address[(9, 9)] == 16 + 256 + 2 + 128
    assert [(int(r), int(k)) for r, k, _ in m[:3]] == [(0, 0), (0, 1), (0, 2)]   # row-major over (row, k)


def test_desc_map_from_a_word_equals_from_fields():
    fields = gemmscope.desc_map("sm100", rows=16, k=32, start=2048, lbo=16, sbo=1024, swizzle="64B")
    word = gemmscope.desc_encode("sm100", 2048, 16, 1024, "64B")
    assert np.array_equal(gemmscope.desc_map("sm100", rows=16, k=32, desc=hex(word)), fields)


def test_desc_map_refusals():
    with pytest.raises(ValueError, match=r"^rows = 0 must be in 1\.\.4096$"):
        gemmscope.desc_map("sm90", rows=0, k=64, swizzle="128B", sbo=1024)
    with pytest.raises(ValueError, match="rows = 12 must be a multiple of 8"):
        gemmscope.desc_map("sm90", rows=12, k=64, swizzle="128B", sbo=1024)
    with pytest.raises(ValueError, match="major 'X' is not one of K, MN"):
        gemmscope.desc_map("sm90", rows=8, k=64, swizzle="128B", sbo=1024, major="X")


# ---- tcgen05 instruction descriptor (kind::f16) -------------------------------------
# bits 4-5 D type (1 f32), 7-9 A type (1 bf16), 10-12 B type, 13/14 negate A/B,
# 15/16 A/B major (1 MN), 17-22 N >> 3, 24-28 M >> 4.

def test_idesc_encode_known_cli_output():
    assert gemmscope.idesc_encode(128, 256) == 0x08400490  # gemmscope idesc encode --m 128 --n 256


def test_idesc_encode_fields():
    bf16_f32 = 1 << 4 | 1 << 7 | 1 << 10
    assert gemmscope.idesc_encode(64, 8) == bf16_f32 | 1 << 17 | 4 << 24
    assert gemmscope.idesc_encode(128, 64, a_major="MN", negate_b=True) == \
        bf16_f32 | 1 << 15 | 1 << 14 | 8 << 17 | 8 << 24
    assert gemmscope.idesc_encode(128, 64, a="f16", b="f16", d="f16") == 8 << 17 | 8 << 24
    assert gemmscope.idesc_encode(256, 256, cta_group=2) == bf16_f32 | 32 << 17 | 16 << 24


def test_idesc_decode():
    d = gemmscope.idesc_decode(0x08400490)
    assert d["m"] == 128 and d["n"] == 256 and d["a"] == "bf16" and d["d"] == "f32"
    assert d["valid_cta_group_1"] and d["valid_cta_group_2"]
    assert list(d) == ["m", "n", "d", "a", "b", "a_major", "b_major", "negate_a", "negate_b", "sparse",
                       "sparsity_selector", "saturate", "max_shift", "valid_cta_group_1", "valid_cta_group_2"]
    assert gemmscope.idesc_decode("0x04020490")["valid_cta_group_2"] is False   # M = 64


def test_idesc_refusals():
    with pytest.raises(ValueError, match=r"^m = 96 must be 64 or 128 for cta_group::1$"):
        gemmscope.idesc_encode(96, 64)
    with pytest.raises(ValueError, match=r"^m = 64 must be 128 or 256 for cta_group::2$"):
        gemmscope.idesc_encode(64, 64, cta_group=2)
    with pytest.raises(ValueError, match="input type 'f8' is not one of f16, bf16"):
        gemmscope.idesc_encode(128, 64, a="f8")
    with pytest.raises(ValueError, match=r"^m = -1 must be 64, 128 or 256$"):
        gemmscope.idesc_encode(-1, 64)


# ---- TMEM thread maps ----------------------------------------------------------------
# 32x32b: thread t owns lane t, register j is column j (PTX ISA figure). 16x128b .x1:
# threads 4i..4i+3 hold lane i (columns 0-3) in register 0 and lane i + 8 in register 1.

def test_tmem_32x32b():
    t = gemmscope.tmem_map("32x32b", num=4)
    assert t.registers_per_thread == 4 and t.confirmed
    assert t.cells.shape == (32 * 4, 4)
    assert all(t.cell(thread, j) == (thread, j) for thread in range(32) for j in range(4))


def test_tmem_16x128b():
    t = gemmscope.tmem_map("16x128b")
    assert t.registers_per_thread == 2 and t.confirmed
    assert t.cell(0, 0) == (0, 0) and t.cell(1, 0) == (0, 1) and t.cell(3, 0) == (0, 3)
    assert t.cell(4, 0) == (1, 0) and t.cell(0, 1) == (8, 0) and t.cell(31, 1) == (15, 3)


def test_tmem_known_cli_output():
    t = gemmscope.tmem_map("16x64b", num=2)
    assert not t.confirmed
    # gemmscope tmem --shape 16x64b --num 2
    assert t.cells[:5].tolist() == [[0, 0, 0, 0], [0, 1, 0, 2], [1, 0, 8, 0], [1, 1, 8, 2], [2, 0, 0, 1]]


def test_tmem_refusals():
    with pytest.raises(ValueError, match=r"num = 3 must be a power of two in 1\.\.128 for \.32x32b"):
        gemmscope.tmem_map("32x32b", num=3)
    with pytest.raises(ValueError, match=r"^num = 0 must be in 1\.\.128$"):
        gemmscope.tmem_map("32x32b", num=0)
    with pytest.raises(ValueError, match="shape '8x8b' is not one of"):
        gemmscope.tmem_map("8x8b")


# ---- shape sets ------------------------------------------------------------------------

def test_load_shape_set(tmp_path):
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    shapes = gemmscope.load_shape_set(os.path.join(root, "bench", "shapes", "llm_projections.csv"))
    assert len(shapes) == 48
    assert shapes[0] == {"model": "llama3-8b", "layer": "qkv", "m": 128, "n": 6144, "k": 4096}
    bad = tmp_path / "bad.csv"
    bad.write_text("model,layer,m,n,k\nx,y,1,0,1\n")
    with pytest.raises(ValueError, match=r"bad\.csv:2: n = '0' must be 1\.\.2147483647"):
        gemmscope.load_shape_set(bad)
