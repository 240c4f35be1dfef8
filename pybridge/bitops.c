/* bitops: the C form of pybridge/bitops.py, which specifies every function
 * here (same names, same answers) and is used wherever this is not built.
 *
 * Why C: the search asks whether a domain (a set of words as a Python int)
 * still holds a word with some letter at some position tens of millions of
 * times a run. Python answers `domain & mask` by building a new int as long
 * as the shorter of the two, then testing it; here the two ints' digits are
 * read in place, nothing is allocated, and the loop stops at the first digit
 * they share. Counting (at_most, common) stops as soon as the bound is
 * passed, and never builds the intersection either.
 *
 * Built by pybridge/compiled.py's build() (./setup.sh) with the mypyc
 * modules, as one build: pybridge/compiled.py loads bitops.py instead when
 * that build is missing or stale, or when CROSSWORD_INTERPRETED is set.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* An int's magnitude is ndigits `digit`s of PyLong_SHIFT bits each, least
 * significant first, every bit above PyLong_SHIFT zero; its layout changed
 * in 3.12. */
#if PY_VERSION_HEX >= 0x030C0000
#define DIGITS(v) ((const digit *)((PyLongObject *)(v))->long_value.ob_digit)
#define NDIGITS(v) ((Py_ssize_t)(((PyLongObject *)(v))->long_value.lv_tag >> 3))
#define NEGATIVE(v) ((((PyLongObject *)(v))->long_value.lv_tag & 3) == 2)
#define DIGITS_TO_WRITE(v) ((v)->long_value.ob_digit)
#else
#define DIGITS(v) ((const digit *)((PyLongObject *)(v))->ob_digit)
#define NDIGITS(v) Py_ABS(Py_SIZE(v))
#define NEGATIVE(v) (Py_SIZE(v) < 0)
#define DIGITS_TO_WRITE(v) ((v)->ob_digit)
#endif

/* The loops read 64 bits (WORD digits) at a time where they can: the
 * unused high bits of each digit are zero, so an AND or a count over the
 * packed digits answers as one over the digits. */
#define WORD ((Py_ssize_t)(sizeof(uint64_t) / sizeof(digit)))

static inline uint64_t
load(const digit *p)
{
    uint64_t word;
    memcpy(&word, p, sizeof word); /* no alignment assumed; a plain load */
    return word;
}

/* The index of the lowest set bit of d != 0. */
static inline int
lowest(digit d)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz((unsigned int)d);
#else
    int bit = 0;
    while (!((d >> bit) & 1)) {
        bit++;
    }
    return bit;
#endif
}

/* The set bits of x, counted in a few steps on the whole word: a compiler's
 * __builtin_popcount becomes a call into libgcc unless the build targets a
 * processor with a popcount instruction, which a portable build cannot. */
static inline int
popcount(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (int)((x * 0x0101010101010101u) >> 56);
}

/* A set: an int >= 0; else a TypeError or ValueError and 0. */
static int
is_set(PyObject *v)
{
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "bitops: an int expected, not %.100s", Py_TYPE(v)->tp_name);
        return 0;
    }
    if (NEGATIVE(v)) {
        PyErr_SetString(PyExc_ValueError, "bitops: a set is an int >= 0");
        return 0;
    }
    return 1;
}

/* Whether the sets a and b share a member (both checked by is_set). */
static int
share(PyObject *a, PyObject *b)
{
    const digit *p = DIGITS(a), *q = DIGITS(b);
    Py_ssize_t n = Py_MIN(NDIGITS(a), NDIGITS(b)), k = 0;
    for (; k + 2 * WORD <= n; k += 2 * WORD) {
        if ((load(p + k) & load(q + k)) | (load(p + k + WORD) & load(q + k + WORD))) {
            return 1;
        }
    }
    for (; k < n; k++) {
        if (p[k] & q[k]) {
            return 1;
        }
    }
    return 0;
}

static int
one_set(const char *name, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes 1 argument (%zd given)", name, nargs);
        return 0;
    }
    return is_set(args[0]);
}

/* The members of the set v (checked by is_set), counted until the count
 * passes bound (PY_SSIZE_T_MAX: all of them). */
static Py_ssize_t
counted(PyObject *v, Py_ssize_t bound)
{
    const digit *p = DIGITS(v);
    Py_ssize_t n = NDIGITS(v), k = 0, count = 0;
    for (; k + WORD <= n; k += WORD) {
        count += popcount(load(p + k));
        if (count > bound) {
            return count;
        }
    }
    for (; k < n; k++) {
        count += popcount(p[k]);
    }
    return count;
}

static int
two_sets(const char *name, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "%s() takes 2 arguments (%zd given)", name, nargs);
        return 0;
    }
    return is_set(args[0]) && is_set(args[1]);
}

/* overlap(a, b) -> bool */
static PyObject *
overlap(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!two_sets("overlap", args, nargs)) {
        return NULL;
    }
    return PyBool_FromLong(share(args[0], args[1]));
}

/* missing(domain, letters, masks) -> int: letters and the answer are sets of
 * letters, bit c standing for letter c, whose words are masks[c] (a list) */
static PyObject *
missing(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "missing() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *domain = args[0], *letters = args[1], *masks = args[2];
    if (!is_set(domain) || !is_set(letters)) {
        return NULL;
    }
    if (!PyList_Check(masks)) {
        PyErr_SetString(PyExc_TypeError, "missing(): masks must be a list");
        return NULL;
    }
    /* the letters' bits, 64 at a time; a word list has rarely more than 64
     * letters, and then the answer is built in a uint64_t */
    const digit *p = DIGITS(letters);
    Py_ssize_t n = NDIGITS(letters);
    uint64_t gone = 0;
    PyObject *wide = NULL; /* the answer's bits from 64 up, once there are any */
    for (Py_ssize_t k = 0; k < n; k++) {
        for (digit d = p[k]; d; d &= d - 1) {
            Py_ssize_t c = k * PyLong_SHIFT + lowest(d);
            if (c >= PyList_GET_SIZE(masks)) {
                PyErr_SetString(PyExc_IndexError, "missing(): a letter without its words");
                Py_XDECREF(wide);
                return NULL;
            }
            PyObject *mask = PyList_GET_ITEM(masks, c); /* borrowed */
            if (!is_set(mask)) {
                Py_XDECREF(wide);
                return NULL;
            }
            if (share(domain, mask)) {
                continue;
            }
            if (c < 64) {
                gone |= (uint64_t)1 << c;
                continue;
            }
            /* wide |= 1 << c, in Python's ints */
            PyObject *one = PyLong_FromLong(1), *at = PyLong_FromSsize_t(c), *bit = NULL, *both = NULL;
            if (one != NULL && at != NULL) {
                bit = PyNumber_Lshift(one, at);
            }
            if (bit != NULL && wide == NULL) {
                both = bit;
                Py_INCREF(both);
            }
            else if (bit != NULL) {
                both = PyNumber_Or(wide, bit);
            }
            Py_XDECREF(one);
            Py_XDECREF(at);
            Py_XDECREF(bit);
            Py_XDECREF(wide);
            wide = both;
            if (wide == NULL) {
                return NULL;
            }
        }
    }
    PyObject *low = PyLong_FromUnsignedLongLong(gone);
    if (wide == NULL || low == NULL) {
        return low;
    }
    PyObject *all = PyNumber_Or(wide, low);
    Py_DECREF(wide);
    Py_DECREF(low);
    return all;
}

/* The int whose magnitude is the n digits at p (the highest nonzero). */
static PyObject *
from_digits(const digit *p, Py_ssize_t n)
{
    if (n == 0) {
        return PyLong_FromLong(0);
    }
    PyLongObject *made = _PyLong_New(n);
    if (made == NULL) {
        return NULL;
    }
    memcpy(DIGITS_TO_WRITE(made), p, (size_t)n * sizeof(digit));
    return (PyObject *)made;
}

/* revise(domain, has, gone, alive, without, masks) -> int: the domain's
 * words are ORed (the alive letters' masks) or ANDed (the gone letters'
 * without) in one buffer of the domain's size, and one int is built at the
 * end, none if nothing went (the domain itself is the answer) */
static PyObject *
revise(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError, "revise() takes 6 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *domain = args[0], *has = args[1], *gone = args[2], *alive = args[3];
    for (int k = 0; k < 4; k++) {
        if (!is_set(args[k])) {
            return NULL;
        }
    }
    if (!PyList_Check(args[4]) || !PyList_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "revise(): without and masks must be lists");
        return NULL;
    }
    int keeping = counted(alive, PY_SSIZE_T_MAX) < counted(gone, PY_SSIZE_T_MAX);
    PyObject *table = keeping ? args[5] : args[4], *pick = keeping ? alive : gone;
    const digit *d = DIGITS(domain);
    Py_ssize_t n = NDIGITS(domain); /* the buffer's digits still to reckon with */
    digit small[128], *buf = small;
    if (n > (Py_ssize_t)(sizeof small / sizeof small[0])) {
        buf = PyMem_Malloc((size_t)n * sizeof(digit));
        if (buf == NULL) {
            return PyErr_NoMemory();
        }
    }
    if (keeping) {
        memset(buf, 0, (size_t)n * sizeof(digit));
    }
    else {
        memcpy(buf, d, (size_t)n * sizeof(digit));
    }
    const digit *p = DIGITS(pick), *h = DIGITS(has);
    Py_ssize_t letters = Py_MIN(NDIGITS(pick), NDIGITS(has)), width = n;
    for (Py_ssize_t k = 0; k < letters; k++) {
        for (digit bits = p[k] & h[k]; bits; bits &= bits - 1) {
            Py_ssize_t c = k * PyLong_SHIFT + lowest(bits);
            PyObject *mask = c < PyList_GET_SIZE(table) ? PyList_GET_ITEM(table, c) : NULL;
            if (mask == NULL) {
                PyErr_SetString(PyExc_IndexError, "revise(): a letter without its words");
            }
            if (mask == NULL || !is_set(mask)) {
                if (buf != small) {
                    PyMem_Free(buf);
                }
                return NULL;
            }
            const digit *m = DIGITS(mask);
            Py_ssize_t shared = Py_MIN(width, NDIGITS(mask));
            if (keeping) {
                for (Py_ssize_t i = 0; i < shared; i++) {
                    buf[i] |= m[i];
                }
            }
            else {
                for (Py_ssize_t i = 0; i < shared; i++) {
                    buf[i] &= m[i];
                }
                width = shared; /* the digits above the mask's are 0 now */
            }
        }
    }
    if (keeping) {
        for (Py_ssize_t i = 0; i < n; i++) {
            buf[i] &= d[i];
        }
    }
    while (width > 0 && buf[width - 1] == 0) {
        width--;
    }
    PyObject *kept;
    if (width == n && memcmp(buf, d, (size_t)n * sizeof(digit)) == 0) {
        Py_INCREF(domain);
        kept = domain;
    }
    else {
        kept = from_digits(buf, width);
    }
    if (buf != small) {
        PyMem_Free(buf);
    }
    return kept;
}

/* at_most(words, n) -> bool: counts until the count passes n */
static PyObject *
at_most(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "at_most() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    if (!is_set(args[0])) {
        return NULL;
    }
    Py_ssize_t bound = PyLong_AsSsize_t(args[1]);
    if (bound == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyBool_FromLong(counted(args[0], bound) <= bound);
}

/* count(words) -> int */
static PyObject *
count(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!one_set("count", args, nargs)) {
        return NULL;
    }
    return PyLong_FromSsize_t(counted(args[0], PY_SSIZE_T_MAX));
}

/* common(a, b) -> int */
static PyObject *
common(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!two_sets("common", args, nargs)) {
        return NULL;
    }
    const digit *p = DIGITS(args[0]), *q = DIGITS(args[1]);
    Py_ssize_t n = Py_MIN(NDIGITS(args[0]), NDIGITS(args[1])), k = 0, count = 0;
    for (; k + WORD <= n; k += WORD) {
        count += popcount(load(p + k) & load(q + k));
    }
    for (; k < n; k++) {
        count += popcount(p[k] & q[k]);
    }
    return PyLong_FromSsize_t(count);
}

/* differ(a, b) -> int: -1 equal, -2 more than one member apart, else the
 * one member; stops at the second difference */
static PyObject *
differ(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!two_sets("differ", args, nargs)) {
        return NULL;
    }
    const digit *p = DIGITS(args[0]), *q = DIGITS(args[1]);
    Py_ssize_t na = NDIGITS(args[0]), nb = NDIGITS(args[1]), n = Py_MAX(na, nb);
    Py_ssize_t at = -1; /* the digit of the one difference so far */
    digit apart = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        digit x = (k < na ? p[k] : 0) ^ (k < nb ? q[k] : 0);
        if (x) {
            if (at >= 0 || (x & (x - 1))) {
                return PyLong_FromLong(-2);
            }
            at = k;
            apart = x;
        }
    }
    if (at < 0) {
        return PyLong_FromLong(-1);
    }
    return PyLong_FromSsize_t(at * PyLong_SHIFT + lowest(apart));
}

/* members(words) -> list of ints, ascending */
static PyObject *
members(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!one_set("members", args, nargs)) {
        return NULL;
    }
    const digit *p = DIGITS(args[0]);
    Py_ssize_t n = NDIGITS(args[0]), at = 0;
    PyObject *found = PyList_New(counted(args[0], PY_SSIZE_T_MAX));
    if (found == NULL) {
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        for (digit d = p[k]; d; d &= d - 1) {
            PyObject *member = PyLong_FromSsize_t(k * PyLong_SHIFT + lowest(d));
            if (member == NULL) {
                Py_DECREF(found);
                return NULL;
            }
            PyList_SET_ITEM(found, at++, member);
        }
    }
    return found;
}

static PyMethodDef methods[] = {
    {"overlap", (PyCFunction)(void (*)(void))overlap, METH_FASTCALL,
     "overlap(a, b): whether the sets a and b share a member."},
    {"missing", (PyCFunction)(void (*)(void))missing, METH_FASTCALL,
     "missing(domain, letters, masks): the letters (bits) none of whose words masks[c] is in domain."},
    {"revise", (PyCFunction)(void (*)(void))revise, METH_FASTCALL,
     "revise(domain, has, gone, alive, without, masks): domain less the words of gone letters."},
    {"at_most", (PyCFunction)(void (*)(void))at_most, METH_FASTCALL,
     "at_most(words, n): whether the set holds at most n members."},
    {"count", (PyCFunction)(void (*)(void))count, METH_FASTCALL,
     "count(words): how many members the set holds."},
    {"common", (PyCFunction)(void (*)(void))common, METH_FASTCALL,
     "common(a, b): how many members a and b share."},
    {"differ", (PyCFunction)(void (*)(void))differ, METH_FASTCALL,
     "differ(a, b): the one member a and b differ in; -1 if equal, -2 if more."},
    {"members", (PyCFunction)(void (*)(void))members, METH_FASTCALL,
     "members(words): the set's members, ascending."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pybridge.bitops",
    "The C form of pybridge/bitops.py: its tests on bitsets, building no int.", -1, methods,
};

PyMODINIT_FUNC
PyInit_bitops(void)
{
    return PyModule_Create(&module);
}
