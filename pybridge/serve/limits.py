"""The limits of `crossword serve`, in one place (docs/serve.md#safety-and-limits): a
request's answer, a search's memory, the requests that may wait, the time
a request's head may take to arrive. Plain numbers: the command reads its
defaults here without loading the server."""

from __future__ import annotations

# An answer: at most so many solutions (with `all`, or a larger `limit`, the
# search stops after one more, and the answer says `"truncated": true`), and
# at most so many bytes of JSON (solutions left out from the end past it,
# `truncated` too). A request for every fill of an open 2x7 grid took 5.2 GB
# and answered 431 MB without them.
MAX_SOLUTIONS = 1000
MAX_ANSWER_BYTES = 16 << 20

MEMORY_MB = 2048  # a worker process's address space, at most (--memory)
QUEUE = 16  # searches that may wait for a worker when all are busy (--queue)
HEAD_SECONDS = 10.0  # the most a request's line and headers may take to arrive
BODY_SECONDS = 60.0  # and its body, once its head has come
CONNECTIONS = 200  # connections at once: uvicorn answers 503 past them
