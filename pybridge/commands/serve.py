"""The `serve` command: the web workbench, a page to edit, fill and check
grids in the browser and the HTTP JSON API behind it (docs/serve.md)."""

from __future__ import annotations

import argparse
import ipaddress
import secrets
import socket
import sys
import webbrowser
from dataclasses import replace
from pathlib import Path

from pybridge.commands.common import out, positive_int, positive_seconds, whole_number
from pybridge.errors import UsageError, shown
from pybridge.serve.limits import MEMORY_MB, QUEUE

SERVE_EPILOG = """\
The server binds to 127.0.0.1 (this machine only) unless --host says
otherwise; it reads the files under --root and the --dict files, nothing
else. Stop it with Ctrl-C.

exit codes:
  0    the server stopped
  2    bad usage: a --root that is not a folder, a bad dictionary, a port
       in use (the message is on stderr)
  4    an internal error (the message is on stderr)
  130  interrupted (Ctrl-C)
"""


def positive_megabytes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of MiB, got {text!r}") from None
    if not 0 < value < 1 << 20:
        raise argparse.ArgumentTypeError(f"must be a positive number of MiB, got {text!r}")
    return value


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    serve = commands.add_parser(
        "serve",
        help=summary,
        description=(
            "Serve the workbench page and its HTTP JSON API: open or draw a grid, see the\n"
            "words that fit the slot under the cursor, autofill it, and when it cannot\n"
            "be filled, see why (the proof's core on the grid)."
        ),
        epilog=SERVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this machine only; "
        "0.0.0.0 opens the server to the network)",
    )
    serve.add_argument(
        "--port",
        type=whole_number(0),
        default=8000,
        help="the port (default: 8000; 0 picks a free one)",
    )
    serve.add_argument("--open", action="store_true", help="open the page in a web browser")
    serve.add_argument(
        "--dict",
        action="append",
        dest="dicts",
        default=[],
        metavar="FILE",
        help="a dictionary the page may fill from (repeat for several); the shipped word "
        "list is served too, after them",
    )
    serve.add_argument(
        "--encoding", help="the dictionaries' encoding (default: UTF-8, else cp1252, per file)"
    )
    serve.add_argument(
        "--ban",
        action="append",
        default=[],
        metavar="WORD|FILE",
        help="no fill uses this word, or the words of this file (one a line); repeat for more",
    )
    serve.add_argument(
        "--prefer",
        action="append",
        default=[],
        metavar="FILE",
        help="the words of this file (one a line) score 20 more (added when missing)",
    )
    serve.add_argument(
        "--no-default-ban",
        action="store_true",
        help="with the shipped word list, keep its offensive words too (its default ban list "
        "leaves them out)",
    )
    serve.add_argument(
        "--root",
        metavar="DIR",
        help="a folder whose puzzle files the page may open (default: none, uploads only)",
    )
    serve.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=60.0,
        metavar="SECONDS",
        help="the longest a search or fill may run (default: 60)",
    )
    serve.add_argument(
        "--max-upload",
        type=positive_megabytes,
        default=16.0,
        metavar="MIB",
        help="the largest request body, in MiB (default: 16)",
    )
    serve.add_argument(
        "--fills",
        type=positive_int,
        default=2,
        metavar="N",
        help="fills (worker processes) running at once, at most (default: 2)",
    )
    serve.add_argument(
        "--memory",
        type=positive_int,
        default=MEMORY_MB,
        metavar="MIB",
        help="the memory a search or fill may use, in MiB: each runs in a worker process "
        f"limited to it (default: {MEMORY_MB})",
    )
    serve.add_argument(
        "--queue",
        type=whole_number(0),
        default=QUEUE,
        metavar="N",
        help="searches that may wait for a worker when all are busy; the next is refused "
        f"with 503 (default: {QUEUE})",
    )
    serve.set_defaults(handler=serve_command)


def is_loopback(host: str) -> bool:
    """Whether `host` names this machine only (localhost, 127.x, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int) -> socket.socket:
    """A listening socket; UsageError when the address cannot be had."""
    where = f"{shown(host)}:{port}"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except OSError as err:
        raise UsageError(f"cannot listen on {where}: {err.strerror or err}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as err:
        sock.close()
        raise UsageError(f"cannot listen on {where}: {err.strerror or err}") from None
    return sock


def page_address(sock: socket.socket, token: str | None = None) -> str:
    host, port = sock.getsockname()[:2]
    if sock.family == socket.AF_INET6:
        host = f"[{host}]"
    if host in ("0.0.0.0", "[::]"):
        host = "127.0.0.1"
    return f"http://{host}:{port}/" + ("" if token is None else f"?token={token}")


def with_shipped(dicts: list[str], shipped: Path) -> list[str]:
    """The dictionaries to serve: those given, then the shipped word list
    (the page's choice when none is given), unless it is among them."""
    given = {Path(path).resolve() for path in dicts}
    return [*dicts] if shipped.resolve() in given else [*dicts, str(shipped)]


def serve_command(args: argparse.Namespace) -> int:
    from pybridge import bridge
    from pybridge.curation import banned_words, preferred_words
    from pybridge.serve.app import MEBIBYTE, Settings, serve
    from pybridge.serve.files import Files
    from pybridge.serve.guard import host_names
    from pybridge.wordlist import BANNED_PATH, LIST_PATH

    files = Files.make(args.root, with_shipped(args.dicts, LIST_PATH), args.encoding)
    # the shipped list is always served: its default ban list applies
    ban = args.ban if args.no_default_ban else [str(BANNED_PATH), *args.ban]
    files = replace(
        files,
        banned=banned_words(ban, args.encoding),
        preferred=preferred_words(args.prefer, args.encoding),
    )
    for name in files.dictionaries:  # read each now: a bad one stops the server here
        print(f"dictionary {name}: {files.dictionary([name]).summary()}", file=sys.stderr)
    token = None
    if not is_loopback(args.host):
        token = secrets.token_urlsafe(32)
        print(
            f"crossword serve: warning: listening on {shown(args.host)}: other machines can "
            "reach this server; it asks for the token in the address below",
            file=sys.stderr,
        )
    settings = Settings(
        files=files,
        time_limit=args.time_limit,
        max_upload=int(args.max_upload * MEBIBYTE),
        fills=args.fills,
        hosts=host_names(args.host),
        warm=True,
        token=token,
        log=True,
        memory_mb=args.memory,
        queue=args.queue,
    )
    # SWI-Prolog started from the main thread, before the request threads
    # use it, ends cleanly with the server (see bridge.session.attach_thread)
    bridge.available()
    sock = listen(args.host, args.port)
    address = page_address(sock, token)
    out(f"crossword serve: the workbench is at {address} (Ctrl-C stops it)")
    if args.open and not _opened_in_browser(address):
        print(
            f"crossword serve: no web browser could be started here: open {address} in one",
            file=sys.stderr,
        )
    serve(settings, sock)
    return 0


def _opened_in_browser(address: str) -> bool:
    """Whether a web browser was started on `address` (webbrowser finds
    none on a machine without a display, or with a BROWSER that fails)."""
    try:
        return webbrowser.open(address)
    except webbrowser.Error:
        return False
