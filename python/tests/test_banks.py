"""Bank cost of one warp instruction. The rules (CUDA Programming Guide, shared memory
of compute capability 5.x+, and model/banks.hpp's phase rule): 32 banks of 4 bytes,
bank = (address / 4) % 32; lanes reading one word share it; a phase serves 128
requested bytes (4 B: 32 lanes, 8 B: 16, 16 B: 8); a phase's wavefronts are the most
distinct words asked of one bank; ideal = ceil(distinct words / 32)."""
import numpy as np
import pytest

import gemmscope


def test_consecutive_words_are_one_wavefront():
    r = gemmscope.banks(np.arange(32) * 4)
    assert (r.wavefronts, r.ideal, r.conflicts) == (1, 1, 0)
    assert r.wavefronts_per_phase == [1] and r.colliding_lanes == []


def test_a_128_byte_stride_hits_one_bank():
    # gemmscope banks --addresses 0,128,...,3968: 32 wavefronts, ideal 1, conflicts 31
    r = gemmscope.banks(np.arange(32) * 128)
    assert (r.wavefronts, r.ideal, r.conflicts) == (32, 1, 31)
    (phase,) = r.phases
    (collision,) = phase.collisions
    assert collision.bank == 0 and collision.lanes == list(range(32))
    assert collision.words == list(range(0, 4096, 128))
    assert collision.word_lanes[3] == [3]
    assert r.colliding_lanes == list(range(32))


def test_two_way_conflict():
    # 8-byte stride of 4-byte loads: words 0, 2, ..., 62; lanes t and t + 16 share bank 2t % 32.
    r = gemmscope.banks(np.arange(32) * 8)
    assert (r.wavefronts, r.ideal, r.conflicts) == (2, 1, 1)
    assert r.phases[0].collisions[0].lanes == [0, 16]


def test_broadcast_is_free():
    r = gemmscope.banks([256] * 32)
    assert (r.wavefronts, r.ideal, r.conflicts) == (1, 1, 0)


@pytest.mark.parametrize("width, phases", [(4, 1), (8, 2), (16, 4)])
def test_phases_by_width(width, phases):
    r = gemmscope.banks(np.arange(32) * width, width=width)
    assert r.wavefronts_per_phase == [1] * phases
    assert [p.lanes for p in r.phases] == [list(range(i, i + 32 // phases)) for i in range(0, 32, 32 // phases)]


def test_swizzle_removes_the_column_walk_conflict():
    rows = np.arange(32) * 128   # lane t reads 16 bytes of row t, chunk 0
    plain = gemmscope.banks(rows, width=16)
    swizzled = gemmscope.banks(rows, width=16, swizzle="128B")
    assert plain.wavefronts_per_phase == [8, 8, 8, 8]
    assert swizzled.wavefronts_per_phase == [1, 1, 1, 1]
    assert swizzled.addresses[1] == 128 + 16 and swizzled.swizzle == "128B"


def test_fewer_lanes_a_store_and_many_instructions():
    r = gemmscope.banks([0, 4, 8], store=True)
    assert r.store and r.phases[0].lanes == [0, 1, 2] and r.wavefronts == 1
    results = gemmscope.banks(np.stack([np.arange(32) * 4, np.arange(32) * 128]))
    assert [x.wavefronts for x in results] == [1, 32]


def test_text_form():
    text = str(gemmscope.banks(np.arange(32) * 8))
    assert text.splitlines()[0] == "2 wavefronts, ideal 1, conflicts 1 (32 lanes, 4 bytes, load)"
    assert "bank  0: 2 distinct words from lanes 0,16: 0<-0 128<-16" in text


def test_refusals():
    with pytest.raises(ValueError, match=r"^address of lane 1 = 4 must be a multiple of the access width \(8 bytes\)"):
        gemmscope.banks([0, 4], width=8)
    with pytest.raises(ValueError, match="access width_bytes = 5 must be 4, 8 or 16"):
        gemmscope.banks([0], width=5)
    with pytest.raises(ValueError, match=r"^addresses count = 33 must be at most 32 \(one per lane\)$"):
        gemmscope.banks(np.arange(33) * 4)
    with pytest.raises(ValueError, match=r"^addresses\[1\] = -4 must be from 0 to 4294967295 \(32-bit shared addresses\)$"):
        gemmscope.banks([0, -4])
    with pytest.raises(ValueError, match=r"^addresses\[0\] = 4294967296 must be from 0 to 4294967295"):
        gemmscope.banks([1 << 32])
