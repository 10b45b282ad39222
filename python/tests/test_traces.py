"""Traces from Python: read, write, build from arrays, analyse, compare, and pictures."""
import json
import shutil

import numpy as np
import pytest

import gemmscope

HAVE_DOT = shutil.which("dot") is not None


def test_model_trace_and_its_analysis():
    t = gemmscope.trace_model("k04")
    assert (t.kernel, t.source) == ("k04", "model")
    assert len(t) == 288   # gemmscope trace model --kernel k04: "records":288
    a = t.analyse()
    assert set(a) >= {"kernels", "stages", "total"} and "instructions" not in a
    assert a["total"]["conflicts"] == 0   # the 128B-swizzled kernel is conflict-free
    assert len(t.analyse(per_instruction=True)["instructions"]) == 288
    assert t.analysis_text().startswith("trace: 288 instructions, kernel k04, source model")


def test_pattern_trace_known_cli_output():
    # gemmscope banks --kernel3: ldmatrix-x4-k-major-64x64, 16 instructions:
    # unswizzled 512 wavefronts (ideal 64), 128B swizzle 64 (ideal 64)
    plain = gemmscope.trace_pattern("ldmatrix-x4-k-major-64x64").analyse()["total"]
    swizzled = gemmscope.trace_pattern("ldmatrix-x4-k-major-64x64", "128B").analyse()["total"]
    assert (plain["instructions"], plain["wavefronts"], plain["ideal"]) == (16, 512, 64)
    assert (swizzled["wavefronts"], swizzled["conflicts"]) == (64, 0)


def test_analysis_matches_the_cli_json(cli, tmp_path):
    t = gemmscope.trace_model("k02", k_blocks=2)
    path = tmp_path / "k02.jsonl"
    t.write(path)
    rc, out, _ = cli("banks", "--trace", path, "--json", "--summary")
    assert rc == 0
    assert t.analyse() == json.loads(out)


def test_write_and_read_both_forms(tmp_path):
    t = gemmscope.trace_model("k03")
    t.write(tmp_path / "k03.jsonl")
    back = gemmscope.read_trace(tmp_path / "k03.jsonl")
    assert back.compare(t) is None and back.to_text() == t.to_text()
    gemmscope.write_trace(t, tmp_path / "k03.txt", format="text")
    text = gemmscope.read_trace(tmp_path / "k03.txt")
    # The text form keeps width, kind, mask and addresses (stage, CTA, warp and label go).
    a, b = t.arrays(), text.arrays()
    for key in ("addresses", "mask", "width"):
        assert np.array_equal(a[key], b[key])
    assert list(a["kind"]) == list(b["kind"]) and set(b["stage"]) == {"user"}


def test_arrays_round_trip():
    t = gemmscope.trace_model("k04")
    again = gemmscope.trace_from_arrays(**t.arrays(), kernel=t.kernel, source=t.source,
                                        description=t.description, smem_base=t.smem_base)
    assert again.compare(t) is None
    assert again.to_text() == t.to_text()   # labels, kernels and the header too


def test_from_arrays_lanes_masks_and_broadcasting():
    rows = np.stack([np.arange(32) * 4, np.arange(32) * 8])
    t = gemmscope.trace_from_arrays(rows, width=[4, 8], kind=["load", "store"], mask=[0xFFFFFFFF, 0xFFFF],
                                    stage="ldmatrix", warp=3, label=["first", "second"], kernel="mine")
    a = t.arrays()
    assert a["mask"].tolist() == [0xFFFFFFFF, 0xFFFF]
    assert a["addresses"][1, 15] == 120 and a["addresses"][1, 16] == -1   # inactive by the mask
    assert list(a["kind"]) == ["load", "store"] and list(a["stage"]) == ["ldmatrix"] * 2
    assert a["warp"].tolist() == [3, 3] and list(a["label"]) == ["first", "second"]
    short = gemmscope.trace_from_arrays([0, 4, -1, 12])   # negative: inactive; lanes 4-31 inactive
    assert short.arrays()["mask"].tolist() == [0b1011]
    per_stage = gemmscope.trace_from_arrays(np.arange(32) * 128, width=16).analyse()["stages"]
    assert per_stage[0]["stage"] == "user" and per_stage[0]["wavefronts"] == 32


def test_from_arrays_refusals_name_the_record():
    rows = np.stack([np.arange(32) * 4] * 3)
    with pytest.raises(ValueError, match=r"^record 2: warp = 40 must be at most 31$"):
        gemmscope.trace_from_arrays(rows, warp=[0, 1, 40])
    with pytest.raises(ValueError, match=r"^record 0: width = 5 must be 4, 8 or 16 \(bytes per lane\)$"):
        gemmscope.trace_from_arrays(rows, width=5)
    with pytest.raises(ValueError, match=r"^record 1: address of lane 0 = 2 must be a multiple of the access width"):
        gemmscope.trace_from_arrays(rows + np.array([[0], [2], [0]]))
    with pytest.raises(ValueError, match=r"^record 0: stage = 'bogus' must be one of tma-write, "):
        gemmscope.trace_from_arrays(rows, stage="bogus")
    with pytest.raises(ValueError, match=r'^record 0: kind = .read. must be "load" or "store"$'):
        gemmscope.trace_from_arrays(rows, kind="read")
    with pytest.raises(ValueError, match=r"^trace header: smem_base = '-1' must be an unsigned integer"):
        gemmscope.trace_from_arrays(rows, smem_base=-1)
    with pytest.raises(ValueError, match="cta has 2 entries for 3 records"):
        gemmscope.trace_from_arrays(rows, cta=[0, 1])


def test_parse_errors_name_the_input_and_line():
    good = gemmscope.trace_model("k02").to_text().splitlines()
    broken = "\n".join(good[:2] + [good[2].replace('"width":16', '"width":12')] + good[3:])
    with pytest.raises(ValueError, match=r"^mine\.jsonl:3: width = 12 must be 4, 8 or 16"):
        gemmscope.parse_trace(broken, "mine.jsonl")
    with pytest.raises(ValueError, match="truncated"):
        gemmscope.parse_trace("\n".join(good[:-1]), "cut.jsonl")
    with pytest.raises(ValueError, match="cannot open the trace file"):
        gemmscope.read_trace("/nonexistent/trace.jsonl")


def test_compare_and_model_for():
    a = gemmscope.trace_from_arrays(np.arange(32) * 4)
    b = gemmscope.trace_from_arrays(np.arange(32) * 8)
    assert a.compare(a) is None
    assert "record 0" in a.compare(b)
    with pytest.raises(ValueError):
        a.model_for()   # only k04's stmatrix stage is recorded on the GPU


def test_pictures_dot_text():
    t = gemmscope.trace_model("k04")
    assert t.heatmap("k04").dot.startswith("digraph")
    assert "lane" in t.instruction_picture(0).dot
    with pytest.raises(ValueError, match=r"^instruction = 288 must be below the trace's 288 records$"):
        t.instruction_picture(288)
    sw = gemmscope.swizzle_picture("128B", rows=8, row_bytes=128)
    assert "Swizzle 128B: 8 rows x 128 bytes at 0x0" in sw.dot
    with pytest.raises(ValueError, match="rows = 300 must be at most 256 for a picture"):
        gemmscope.swizzle_picture("128B", rows=300)


@pytest.mark.skipif(not HAVE_DOT, reason="Graphviz (dot) is not installed")
def test_pictures_render_as_svg(tmp_path):
    t = gemmscope.trace_from_arrays(np.arange(32) * 128)
    svg = t._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    sw = gemmscope.swizzle_picture("64B", rows=4, row_bytes=64)
    assert "<svg" in sw._repr_svg_()
    sw.save(tmp_path / "s.svg")
    sw.save(tmp_path / "s.dot")
    assert (tmp_path / "s.svg").read_text().count("<svg") == 1
    assert (tmp_path / "s.dot").read_text() == sw.dot
    with pytest.raises(ValueError, match="must end in .svg, .png, .dot or .gv"):
        sw.save(tmp_path / "s.jpg")
    bank_picture = gemmscope.banks(np.arange(32) * 128).picture()
    assert "<svg" in bank_picture.svg()


def test_a_missing_dot_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("GEMMSCOPE_DOT", "/nonexistent/dot")
    p = gemmscope.swizzle_picture("128B")
    with pytest.raises(RuntimeError, match="cannot run '/nonexistent/dot': install Graphviz"):
        p.svg()
    with pytest.warns(RuntimeWarning):
        assert p._repr_svg_() is None   # a notebook then shows the text form
