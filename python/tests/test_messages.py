"""A refused input raises ValueError with the message the gemmscope command line prints
for the same input (its --option-name spelled as the Python parameter option_name)."""
import numpy as np
import pytest

import gemmscope

CASES = [
    (["swizzle", "--mode", "129B", "--offset", "1"], lambda: gemmscope.swizzle("129B", 1)),
    (["swizzle", "--mode", "128B", "--offset", "-1"], lambda: gemmscope.swizzle("128B", -1)),
    (["desc", "encode", "--arch", "sm80"], lambda: gemmscope.desc_encode("sm80", 0, 0, 0, "none")),
    (["desc", "encode", "--arch", "sm90", "--start", "1000", "--sbo", "1024", "--swizzle", "128B"],
     lambda: gemmscope.desc_encode("sm90", 1000, 0, 1024, "128B")),
    (["desc", "encode", "--arch", "sm90", "--start", "-16"], lambda: gemmscope.desc_encode("sm90", -16, 0, 0, "none")),
    (["desc", "encode", "--arch", "sm90", "--lbo-mode", "absolute"],
     lambda: gemmscope.desc_encode("sm90", 0, 0, 0, "none", lbo_mode="absolute")),
    (["desc", "encode", "--arch", "sm100", "--lbo-mode", "sideways"],
     lambda: gemmscope.desc_encode("sm100", 0, 0, 0, "none", lbo_mode="sideways")),
    (["desc", "encode", "--arch", "sm90", "--swizzle", "128B-atom32B"],
     lambda: gemmscope.desc_encode("sm90", 0, 0, 0, "128B-atom32B")),
    (["desc", "encode", "--arch", "sm90", "--base-offset", "9", "--swizzle", "128B"],
     lambda: gemmscope.desc_encode("sm90", 0, 0, 0, "128B", base_offset=9)),
    (["desc", "decode", "--arch", "sm90", "0x8000"], lambda: gemmscope.desc_decode("sm90", 0x8000)),
    (["desc", "decode", "--arch", "sm100", "0x6000000000000000"],
     lambda: gemmscope.desc_decode("sm100", 0x6000000000000000)),
    (["desc", "decode", "--arch", "sm90", "xyz"], lambda: gemmscope.desc_decode("sm90", "xyz")),
    (["desc", "map", "--arch", "sm90", "--rows", "0", "--k", "64"], lambda: gemmscope.desc_map("sm90", rows=0, k=64)),
    (["desc", "map", "--arch", "sm90", "--rows", "12", "--k", "64", "--sbo", "1024", "--swizzle", "128B"],
     lambda: gemmscope.desc_map("sm90", rows=12, k=64, sbo=1024, swizzle="128B")),
    (["desc", "map", "--arch", "sm90", "--rows", "8", "--k", "64", "--elem-bytes", "3"],
     lambda: gemmscope.desc_map("sm90", rows=8, k=64, elem_bytes=3)),
    (["idesc", "encode", "--m", "96", "--n", "64"], lambda: gemmscope.idesc_encode(96, 64)),
    (["idesc", "encode", "--m", "-1", "--n", "64"], lambda: gemmscope.idesc_encode(-1, 64)),
    (["idesc", "encode", "--m", "128", "--n", "12"], lambda: gemmscope.idesc_encode(128, 12)),
    (["idesc", "encode", "--m", "64", "--n", "64", "--cta-group", "2"],
     lambda: gemmscope.idesc_encode(64, 64, cta_group=2)),
    (["idesc", "encode", "--m", "128", "--n", "64", "--a", "f16", "--b", "bf16"],
     lambda: gemmscope.idesc_encode(128, 64, a="f16", b="bf16")),
    (["idesc", "decode", "0xffffffff"], lambda: gemmscope.idesc_decode(0xFFFFFFFF)),
    (["tmem", "--shape", "32x32b", "--num", "3"], lambda: gemmscope.tmem_map("32x32b", num=3)),
    (["tmem", "--shape", "32x32b", "--num", "0"], lambda: gemmscope.tmem_map("32x32b", num=0)),
    (["tmem", "--shape", "16x256b", "--num", "64"], lambda: gemmscope.tmem_map("16x256b", num=64)),
    (["tmem", "--shape", "8x8b"], lambda: gemmscope.tmem_map("8x8b")),
    (["banks", "--addresses", "0,4", "--width", "8"], lambda: gemmscope.banks([0, 4], width=8)),
    (["banks", "--addresses", "0", "--width", "5"], lambda: gemmscope.banks([0], width=5)),
    (["banks", "--addresses", ",".join(str(4 * i) for i in range(33))], lambda: gemmscope.banks(np.arange(33) * 4)),
    (["banks", "--addresses", "0", "--swizzle", "16B"], lambda: gemmscope.banks([0], swizzle="16B")),
    (["trace", "pattern", "--name", "bogus"], lambda: gemmscope.trace_pattern("bogus")),
    (["trace", "model", "--kernel", "k99"], lambda: gemmscope.trace_model("k99")),
    (["trace", "model", "--kernel", "k03", "--base", "64"], lambda: gemmscope.trace_model("k03", base=64)),
    (["trace", "model", "--k-blocks", "0"], lambda: gemmscope.trace_model(k_blocks=0)),
    (["viz", "--swizzle", "128B", "--rows", "0", "-o", "/dev/null/x.svg"],
     lambda: gemmscope.swizzle_picture("128B", rows=0)),
    (["viz", "--swizzle", "128B", "--rows", "300", "-o", "/dev/null/x.svg"],
     lambda: gemmscope.swizzle_picture("128B", rows=300)),
]


@pytest.mark.parametrize("args, call", CASES, ids=[" ".join(a[:3]) + f" #{i}" for i, (a, _) in enumerate(CASES)])
def test_same_message_as_the_cli(cli, args, call):
    rc, _, cli_message = cli(*args)
    assert rc == 2, f"the command line took {args}"
    with pytest.raises(ValueError) as refused:
        call()
    assert str(refused.value) == cli_message
