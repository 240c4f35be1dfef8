"""Mutated corpus files for fuzzing the command line: the cases, the
mutations, and (run as a script) a count of what the CLI made of them.

    .venv/bin/python tests/fuzzgen.py [--cases N] [--seed S] [--timeout T]

prints, per engine, how many mutated files ended in each exit code (0
solved, 1 unsolvable, 2 a clean error, 3 a timeout) and how many ended any
other way (an internal error or a traceback: there should be none).
tests/test_robust_cli.py runs a bounded number of the same cases.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"

# what a mutation inserts, deletes the length of, or overwrites with
PIECES = [b"_", b".", b"#", b" ", b"\n", b"\x00", b"\xff", b"\x1b[2J", b"\r", b"A", b"\xc3"]
PIECES += [b"\t", b"\n\n"]

Edit = tuple[int, int, bytes]  # (where, kind: 0 insert / 1 delete / 2 overwrite, bytes)


def corpus_cases(shared: Path) -> list[tuple[str, bytes, bytes | None]]:
    """(name, puzzle bytes, word list bytes or None) of every P-99 and
    fill-in puzzle of the corpus that has its words."""
    p99 = [
        (p.name, p.read_bytes(), None) for p in sorted((shared / "corpus" / "p99").glob("*.dat"))
    ]
    fillin_dir = shared / "corpus" / "fillin"
    fillin = [
        (p.name, p.read_bytes(), (fillin_dir / p.name.replace("puzzle", "words")).read_bytes())
        for p in sorted(fillin_dir.glob("puzzle*"))
        if (fillin_dir / p.name.replace("puzzle", "words")).is_file()
    ]
    return p99 + fillin


def mutate(data: bytes, edits: list[Edit]) -> bytes:
    for where, kind, blob in edits:
        at = where % (len(data) + 1)
        if kind == 0:
            data = data[:at] + blob + data[at:]
        elif kind == 1:
            data = data[:at] + data[at + len(blob) + 1 :]
        else:
            data = data[:at] + blob + data[at + len(blob) :]
    return data


def random_edits(rng: random.Random) -> list[Edit]:
    def piece() -> bytes:
        if rng.random() < 0.2:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(5)))
        return rng.choice(PIECES)

    return [(rng.randrange(10_001), rng.randrange(3), piece()) for _ in range(rng.randrange(5))]


def argv_for(
    folder: Path, case: tuple[str, bytes, bytes | None], edits: list[Edit], words: list[Edit]
) -> list[str]:
    """Write the mutated case into `folder`; the CLI arguments naming it."""
    name, puzzle, listed = case
    path = folder / name
    path.write_bytes(mutate(puzzle, edits))
    argv = [str(path)]
    if listed is not None:
        words_path = folder / f"{name}.words"
        words_path.write_bytes(mutate(listed, words))
        argv += ["--words", str(words_path)]
    return argv


def main() -> int:
    from pybridge import cli  # the project's package, as installed in .venv

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="mutated files (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", default="2", help="--timeout of each run (default 2)")
    parser.add_argument("--shared", type=Path, default=SHARED)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    cases = corpus_cases(options.shared)
    counts: dict[str, Counter[str]] = {"python": Counter(), "prolog": Counter()}
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(options.cases):
            case, edits, words = rng.choice(cases), random_edits(rng), random_edits(rng)
            mode = rng.choice(["solve", "check"])
            for engine, seen in counts.items():
                argv = [mode, *argv_for(Path(tmp), case, edits, words)]
                argv += ["--engine", engine, "--timeout", options.timeout]
                err = io.StringIO()
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                    try:
                        code = cli.main(argv)
                    except BaseException as exc:
                        seen[f"escaped {type(exc).__name__}"] += 1
                        continue
                broken = "Traceback" in err.getvalue() or "internal error" in err.getvalue()
                seen["traceback or internal error" if broken else f"exit {code}"] += 1
            if (n + 1) % 100 == 0:
                print(f"{n + 1} files...", file=sys.stderr)
    names = {
        "exit 0": "solved",
        "exit 1": "unsolvable",
        "exit 2": "clean error",
        "exit 3": "timeout",
    }
    print(f"{options.cases} mutated files, seed {options.seed}, --timeout {options.timeout}")
    for engine, seen in counts.items():
        parts = [f"{names.get(k, k)} {v}" for k, v in sorted(seen.items())]
        print(f"{engine}: {', '.join(parts)}")
    bad = sum(v for c in counts.values() for k, v in c.items() if k not in names)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
