"""Queries through SWI-Prolog's foreign interface, below pyswip's public
API: a query opened with its arguments put as terms we write ourselves,
strings (never read as terms) or lists of integers put whole through GMP;
its solutions read as strings; Ctrl-C let into it while it runs
(session.interrupt); its failure raised as KeyboardInterrupt, ResourceLimit
or pyswip's PrologError (which session.engine_errors turns into EngineError).
"""

from __future__ import annotations

import ctypes
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from pybridge.bridge import session
from pybridge.errors import ResourceLimit


class _Mpz(ctypes.Structure):
    """GMP's mpz_t, the integer that PL_unify_mpz copies from."""

    _fields_ = [("alloc", ctypes.c_int), ("size", ctypes.c_int), ("limbs", ctypes.c_void_p)]


LIMB_BYTES = 8


@lru_cache(maxsize=1)
def whole_integers() -> tuple[Any, Any] | None:
    """SWI-Prolog's PL_unify_mpz and PL_cons_list (with the int results
    pyswip's own bindings drop), when libswipl has PL_unify_mpz (it is built
    with GMP, as Debian's is) and GMP's limbs are 64 bits; else None.  They
    put a mask in time linear in its bits, where the text path parses hex.
    GMP's limb size is looked up through libswipl, which links GMP: a symbol
    looked up in a library is found in the libraries it loaded too (where
    ctypes.util.find_library would run `ldconfig -p` in a child process)."""
    from pyswip import core

    try:
        unify, cons = core._lib["PL_unify_mpz"], core._lib["PL_cons_list"]
        bits = ctypes.c_int.in_dll(core._lib, "__gmp_bits_per_limb").value
    except (AttributeError, OSError, ValueError):
        return None
    if bits != 8 * LIMB_BYTES:
        return None
    unify.argtypes = [core.term_t, ctypes.POINTER(_Mpz)]
    cons.argtypes = [core.term_t, core.term_t, core.term_t]
    unify.restype = cons.restype = ctypes.c_int
    return unify, cons


def _put_integers(term: int, numbers: Sequence[int]) -> None:
    """Put the list of the nonnegative `numbers` in `term`, big ones whole
    (only when whole_integers() is not None)."""
    from pyswip import core

    functions = whole_integers()
    if functions is None:
        raise RuntimeError("this SWI-Prolog cannot take integers whole: send them as text")
    unify, cons = functions
    bits = 8 * LIMB_BYTES
    pieces = [n.to_bytes(-(-n.bit_length() // bits) * LIMB_BYTES, "little") for n in numbers]
    limbs = ctypes.create_string_buffer(b"".join(pieces))  # one buffer, GMP reads from inside
    end = ctypes.addressof(limbs) + sum(map(len, pieces))
    mpz, head = _Mpz(), core.PL_new_term_ref()
    core.PL_put_nil(term)
    for piece in reversed(pieces):  # the list is built from its last element
        end -= len(piece)
        mpz.alloc = mpz.size = len(piece) // LIMB_BYTES
        mpz.limbs = end
        core.PL_put_variable(head)
        if not unify(head, ctypes.byref(mpz)) or not cons(term, head, term):
            raise MemoryError("SWI-Prolog could not take a mask")


@contextmanager
def _opened(
    module: bytes, name: bytes, controls: list[str], texts: list[str | list[int] | None]
) -> Iterator[tuple[int, int, int]]:
    """The query module:name(Controls..., Texts...) opened through
    SWI-Prolog's foreign interface, as (query, args, arity): the controls
    are terms we write ourselves, each text is put as a string object,
    never read as a term (pyswip's query would read the whole goal as
    text), or as a list of integers; a None text is an output. The query
    is cut and its frame discarded on the way out."""
    from pyswip import core
    from pyswip.prolog import Prolog

    Prolog._init_prolog_thread()
    frame = core.PL_open_foreign_frame()
    try:
        arity = len(controls) + len(texts)
        args = core.PL_new_term_refs(arity)
        for k, term in enumerate(controls):
            if not core.PL_chars_to_term(term, args + k):
                raise ValueError(f"not a term: {term!r}")
        for k, text in enumerate(texts, start=len(controls)):
            if isinstance(text, list):
                _put_integers(args + k, text)
            elif text is not None:
                data = text.encode("utf-8")
                core.PL_put_chars(args + k, core.PL_STRING | core.REP_UTF8, len(data), data)
        predicate = core.PL_predicate(name, arity, module)
        flags = core.PL_Q_NODEBUG | core.PL_Q_CATCH_EXCEPTION
        query = core.PL_open_query(None, flags, predicate, args)
        try:
            yield query, args, arity
        finally:
            core.PL_cut_query(query)
            session.interrupt.drain()
    finally:
        core.PL_discard_foreign_frame(frame)


def once(
    module: bytes, name: bytes, controls: list[str], texts: list[str | list[int] | None]
) -> str:
    """module:name(Controls..., Texts...) once (see _opened): the last
    text's string when it is an output (None), else ""."""
    from pyswip import core
    from pyswip.easy import getString

    with _opened(module, name, controls, texts) as (query, args, arity):
        if not _next_solution(query):
            _raise_failure(core.PL_exception(query), module, name, arity)
        return text(getString(args + arity - 1)) if texts and texts[-1] is None else ""


def solutions(
    module: bytes, name: bytes, controls: list[str], texts: list[str | list[int] | None]
) -> Generator[str, None, None]:
    """The last text's string (an output) at each solution of
    module:name(Controls..., Texts...) (see _opened), as they come."""
    from pyswip import core
    from pyswip.easy import getString

    with _opened(module, name, controls, texts) as (query, args, arity):
        while _next_solution(query):
            yield text(getString(args + arity - 1))
        error = core.PL_exception(query)
        if error:
            _raise_failure(error, module, name, arity)


def _next_solution(query: int) -> bool:
    """PL_next_solution, with Ctrl-C let into Prolog while it runs (see
    session._Interrupt): KeyboardInterrupt if Ctrl-C came already."""
    from pyswip import core

    session.interrupt.enter_query()
    try:
        return bool(core.PL_next_solution(query))
    finally:
        session.interrupt.leave_query()


def _raise_failure(error: int, module: bytes, name: bytes, arity: int) -> None:
    """Why a query failed, raised: KeyboardInterrupt when Ctrl-C stopped it
    (see session.interrupts_stop_prolog), ResourceLimit when Prolog ran out of
    memory, else PrologError."""
    from pyswip.prolog import PrologError

    if _is_atom(error, b"crossword_interrupted"):
        raise KeyboardInterrupt
    text = error_text(error)
    if text.startswith("resource_error("):
        raise ResourceLimit(
            f"the Prolog engine ran out of memory on this puzzle ({text}; its "
            f"stack limit is {session.current_stack_limit() >> 20:,} MiB): use --engine python"
        )
    goal = f"{module.decode()}:{name.decode()}/{arity}"
    raise PrologError(f"{goal} failed: {text}")


def _is_atom(term: int, name: bytes) -> bool:
    from pyswip import core

    atom = core.atom_t()
    return (
        bool(term)
        and bool(core.PL_get_atom(term, ctypes.byref(atom)))
        and (core.PL_atom_chars(atom) == name)
    )


def error_text(error: int) -> str:
    """The exception term `error` as Prolog writes it (error(Formal, _):
    Formal alone, as the context can be a huge term, such as the stack of
    a resource error), cut to session.ERROR_TEXT_MAX characters."""
    from pyswip import core

    if not error:
        return "no exception"
    term = error
    name, arity = core.atom_t(), ctypes.c_int()
    if core.PL_get_name_arity(error, ctypes.byref(name), ctypes.byref(arity)) and arity.value == 2:
        formal = core.PL_new_term_ref()
        if core.PL_atom_chars(name) == b"error" and core.PL_get_arg(1, error, formal):
            term = formal
    chars = ctypes.c_char_p()
    flags = core.CVT_WRITEQ | core.BUF_DISCARDABLE | core.REP_UTF8
    if not core._lib.PL_get_chars(term, ctypes.byref(chars), flags) or chars.value is None:
        return "an exception that cannot be written"
    text = chars.value.decode("utf-8", "replace")
    return (
        text if len(text) <= session.ERROR_TEXT_MAX else text[: session.ERROR_TEXT_MAX - 3] + "..."
    )


def text(value: bytes | str) -> str:
    """pyswip hands SWI strings over as UTF-8 bytes."""
    return value.decode("utf-8") if isinstance(value, bytes) else value
