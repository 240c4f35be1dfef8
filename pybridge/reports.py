"""What the tools' reports share: text tables with aligned columns, and the
check that matplotlib is there before a long run promises a plot."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pybridge.errors import MissingDependency, pip_hint

PLOT_HINT = f"matplotlib is needed for --plot: install it with `{pip_hint('matplotlib')}`"


def column_widths(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    """The width of each column: its widest cell, header included."""
    return [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]


def aligned_line(cells: Sequence[str], widths: Sequence[int], right: Callable[[int], bool]) -> str:
    """The cells padded to `widths`, column i right-aligned when right(i),
    two spaces apart, trailing spaces stripped."""
    return "  ".join(
        cell.rjust(width) if right(i) else cell.ljust(width)
        for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
    ).rstrip()


def require_matplotlib() -> None:
    """MissingDependency unless matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MissingDependency(PLOT_HINT) from None
