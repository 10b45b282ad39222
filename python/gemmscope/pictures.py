"""Pictures: the traces library writes Graphviz DOT text, and `dot` turns it into SVG,
which a notebook shows inline (_repr_svg_), or PNG. The program is `dot` from the
PATH, or $GEMMSCOPE_DOT."""
import os
import subprocess
import warnings

from . import _capi
from ._capi import int64, lib, text

__all__ = ["Picture", "swizzle_picture"]


def _dot_program():
    return os.environ.get("GEMMSCOPE_DOT", "dot")


def render(dot_text, fmt="svg"):
    """DOT text rendered by Graphviz as bytes of format `fmt` (svg, png)."""
    program = _dot_program()
    try:
        done = subprocess.run([program, "-T" + fmt], input=dot_text.encode("utf-8"), capture_output=True,
                              check=False)
    except OSError:
        raise RuntimeError(f"cannot run '{program}': install Graphviz (tools/setup) or set GEMMSCOPE_DOT") from None
    if done.returncode != 0:
        raise RuntimeError(f"'{program} -T{fmt}' failed: {done.stderr.decode('utf-8', 'replace').strip()}")
    return done.stdout


class Picture:
    """A picture as DOT text; svg() renders it, a notebook shows it inline."""

    def __init__(self, dot, title=""):
        self.dot = dot
        self.title = title
        self._svg = None

    def svg(self):
        """The SVG text (Graphviz `dot -Tsvg`)."""
        if self._svg is None:
            self._svg = render(self.dot, "svg").decode("utf-8")
        return self._svg

    def _repr_svg_(self):
        try:
            return self.svg()
        except RuntimeError as e:  # no Graphviz: the notebook falls back to the text form
            warnings.warn(str(e), RuntimeWarning, stacklevel=2)
            return None

    def save(self, path):
        """Writes the picture; the extension picks the form, as for `gemmscope viz -o`:
        .svg or .png (rendered by dot), .dot or .gv (the DOT text)."""
        path = os.fspath(path)
        ext = os.path.splitext(path)[1]
        if ext in (".dot", ".gv"):
            data = self.dot.encode("utf-8")
        elif ext in (".svg", ".png"):
            data = self.svg().encode("utf-8") if ext == ".svg" else render(self.dot, "png")
        else:
            raise ValueError(f"path = {path} must end in .svg, .png, .dot or .gv")
        with open(path, "wb") as f:
            f.write(data)

    def __repr__(self):
        first = self.title or self.dot.split("\n", 1)[0]
        return f"<gemmscope.Picture {first!r}: {len(self.dot)} bytes of DOT>"


def swizzle_picture(mode, rows=8, row_bytes=128, base=0):
    """A tile's 16-byte chunks in logical order under swizzle `mode`, each coloured by the
    group of four banks its physical address falls in: `gemmscope viz --swizzle`."""
    dot = _capi.call_text(lib.gs_swizzle_dot, text(mode), int64("rows", rows), int64("row_bytes", row_bytes),
                          int64("base", base))
    return Picture(dot, f"swizzle {mode}: {rows} rows x {row_bytes} bytes at {base}")
