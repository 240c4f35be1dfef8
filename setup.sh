#!/usr/bin/env bash
# Prepare a checkout for development and tests: SWI-Prolog on the system, and
# .venv holding this package (editable) with its test tools.
# Safe to run again: each step is skipped when it is already done.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

VENV=.venv
STAMP=$VENV/.crossword-setup-stamp
LOG=$VENV/setup-pip.log

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 2; }

# --- SWI-Prolog -------------------------------------------------------------

apt_install_swipl() {
    local -a run=()
    if [[ $(id -u) -ne 0 ]]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            run=(sudo -n)
        else
            return 1
        fi
    fi
    command -v apt-get >/dev/null 2>&1 || return 1
    say "installing SWI-Prolog (Debian package swi-prolog-nox) with apt-get..."
    local log
    log=$(mktemp)
    if ! { "${run[@]}" apt-get update -qq &&
           "${run[@]}" env DEBIAN_FRONTEND=noninteractive \
               apt-get install -y -qq swi-prolog-nox; } >"$log" 2>&1; then
        tail -n 20 "$log" >&2
        rm -f "$log"
        die "apt-get could not install swi-prolog-nox (output above)"
    fi
    rm -f "$log"
}

ensure_swipl() {
    command -v swipl >/dev/null 2>&1 && return 0
    if ! apt_install_swipl; then
        cat >&2 <<'EOF'
setup: error: SWI-Prolog (the `swipl` command) is not installed, and this script
cannot install it (it needs root, password-less sudo, or apt-get).
Install it yourself, then run ./setup.sh again:
    Debian/Ubuntu:  sudo apt-get install swi-prolog-nox
    macOS:          brew install swi-prolog
    other systems:  https://www.swi-prolog.org/download/stable
EOF
        exit 2
    fi
    command -v swipl >/dev/null 2>&1 || die "swi-prolog-nox was installed but swipl is not on PATH"
}

# --- Chromium, for the browser tests of `crossword serve` ------------------
# Optional: without it those tests skip with a reason (.ci/run requires it).

ensure_chromium() {
    [[ -x /usr/bin/chromium ]] && return 0
    local -a run=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && run=(sudo -n)
    fi
    if [[ $(id -u) -eq 0 || ${#run[@]} -gt 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "installing Chromium for the browser tests (Debian packages chromium, chromium-driver)..."
        if { "${run[@]}" apt-get update -qq &&
             "${run[@]}" env DEBIAN_FRONTEND=noninteractive \
                 apt-get install -y -qq chromium chromium-driver; } >/dev/null 2>&1; then
            return 0
        fi
    fi
    say "note: Chromium is not installed (apt-get install chromium chromium-driver): the browser tests will be skipped"
}

# --- Data and tools from Debian ----------------------------------------------
# WordNet (wordnet-base), the lexical database that `make` suggests clues
# from; DejaVu Sans (fonts-dejavu-core), the font of the PNG pictures and PDF
# sheets; poppler-utils, whose pdftoppm the tests render PDF pages with.
# Without them make leaves its clues to write and the tests that need them
# skip with a reason (.ci/run requires them).

DEBIAN_DATA=(wordnet-base fonts-dejavu-core poppler-utils)
DEBIAN_MARKS=(/usr/share/wordnet/data.noun /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/bin/pdftoppm)

ensure_debian_data() {
    local -a missing=() run=()
    local k
    for k in "${!DEBIAN_DATA[@]}"; do
        [[ -e ${DEBIAN_MARKS[$k]} ]] || missing+=("${DEBIAN_DATA[$k]}")
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && run=(sudo -n)
    fi
    if [[ $(id -u) -eq 0 || ${#run[@]} -gt 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "installing ${missing[*]} (Debian packages) with apt-get..."
        if { "${run[@]}" apt-get update -qq &&
             "${run[@]}" env DEBIAN_FRONTEND=noninteractive \
                 apt-get install -y -qq "${missing[@]}"; } >/dev/null 2>&1; then
            return 0
        fi
    fi
    say "note: ${missing[*]} not installed (apt-get install ${missing[*]}): make will suggest no clues and some tests will be skipped"
}

# --- Python virtual environment ---------------------------------------------

python_ok() {  # is "$1" a Python >= 3.11?
    "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1
}

pick_python() {
    local candidate
    for candidate in ${PYTHON:-} python3 python3.13 python3.12 python3.11; do
        if command -v "$candidate" >/dev/null 2>&1 && python_ok "$candidate"; then
            echo "$candidate"
            return 0
        fi
    done
    local found="none"
    command -v python3 >/dev/null 2>&1 && found=$(python3 -V 2>&1)
    die "Python 3.11 or newer is needed (python3 here is: $found); install it, or set PYTHON=/path/to/python3.11"
}

ensure_venv() {
    if [[ -x $VENV/bin/python ]]; then
        python_ok "$VENV/bin/python" && return 0
        die "$VENV uses $("$VENV/bin/python" -V 2>&1), but 3.11 or newer is needed; remove $VENV and run ./setup.sh again"
    fi
    local python
    python=$(pick_python)
    say "creating $VENV with $("$python" -V 2>&1)..."
    "$python" -m venv "$VENV" ||
        die "could not create $VENV (on Debian/Ubuntu: apt-get install python3-venv)"
}

ensure_package() {
    local key
    key="$(sha256sum pyproject.toml | cut -d' ' -f1) $("$VENV/bin/python" -V 2>&1)"
    if [[ -f $STAMP && $(cat "$STAMP") == "$key" ]]; then
        return 0
    fi
    say "installing the package and its test tools into $VENV (pip)..."
    if ! PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install -q -e '.[test,compiled]' \
        >"$LOG" 2>&1; then
        tail -n 30 "$LOG" >&2
        die "pip install failed; full output in $LOG"
    fi
    echo "$key" >"$STAMP"
}

# --- the Prolog files, precompiled -------------------------------------------
# Each module of prolog/ compiled to a .qlf beside it (SWI-Prolog's quick load
# format): the bridge names the modules without their extension, so SWI-Prolog
# loads the .qlf while it is newer than the .pl (and compiles the .pl, writing
# a fresh .qlf where it may, once the .pl is newer). About 15 ms less at every
# start of the Prolog engine; without them the same code loads from the .pl.

ensure_prolog_qlf() {
    local source
    for source in prolog/*.pl; do
        [[ ${source%.pl}.qlf -nt $source ]] && continue
        if ! swipl -q --on-warning=status --on-error=status \
            -g "qcompile('$source')" -t halt >/dev/null 2>&1; then
            rm -f "${source%.pl}.qlf"
            say "note: $source did not precompile: it loads from the .pl (the same code, a little slower)"
        fi
    done
}

# --- the Prolog engine's saved state (pybridge/bridge/session.py) ------------
# The engine as it is once crossword.pl is loaded, with the SWI-Prolog
# libraries it loads, saved by qsave_program: the bridge starts Prolog from it
# (about 0.02 s less at every start) while it is newer than every file of
# prolog/ and was made by the libswipl that pyswip loads; else it loads
# crossword.pl as before. Made again at every run (a fraction of a second).

ensure_prolog_state() {
    if ! "$VENV/bin/python" -c 'from pybridge.bridge import session; session.save_engine_state()' \
        >"$VENV/setup-state.log" 2>&1; then
        say "note: the Prolog engine's saved state was not made (see $VENV/setup-state.log): Prolog starts without it (the same engine, a little slower)"
    fi
}

# --- the compiled search (pybridge/compiled.py) -----------------------------
# Optional: mypyc compiles the search's hot modules beside their .py files,
# and pybridge/bitops.c beside bitops.py.
# It needs a C compiler and the Python headers (installed with apt-get when
# missing and possible); without them, or if the build fails, the package
# stays interpreted, the same search a little slower. CROSSWORD_INTERPRETED=1
# skips it. Rebuilt when those modules or the Python change.

COMPILED_STAMP=$VENV/.crossword-compiled-stamp

compiled_key() {
    local module
    {
        "$VENV/bin/python" -V 2>&1
        for module in pybridge/{bitsets,bitops}.py pybridge/bitops.c pybridge/search/{arcs,wdeg,valued}.py \
            pybridge/compiled.py; do
            sha256sum "$module"
        done
    } | sha256sum | cut -d' ' -f1
}

python_headers() {
    local include
    include=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    [[ -f $include/Python.h ]]
}

ensure_compiler() {
    command -v cc >/dev/null 2>&1 && python_headers && return 0
    local -a run=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && run=(sudo -n)
    fi
    if [[ $(id -u) -eq 0 || ${#run[@]} -gt 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "installing a C compiler and the Python headers (Debian packages gcc, python3-dev)..."
        { "${run[@]}" apt-get update -qq &&
          "${run[@]}" env DEBIAN_FRONTEND=noninteractive \
              apt-get install -y -qq gcc python3-dev; } >/dev/null 2>&1 || true
    fi
    command -v cc >/dev/null 2>&1 && python_headers
}

ensure_compiled() {
    [[ ${CROSSWORD_INTERPRETED:-0} != 0 ]] && return 0
    local key
    key=$(compiled_key)
    if [[ -f $COMPILED_STAMP && $(cat "$COMPILED_STAMP") == "$key" && -f pybridge/_compiled.stamp ]]; then
        return 0
    fi
    if [[ -f $COMPILED_STAMP && $(cat "$COMPILED_STAMP") == "failed $key" ]]; then
        return 0  # failed with these sources already (the note was given then)
    fi
    if ! ensure_compiler; then
        say "note: no C compiler or Python headers: the search stays interpreted (apt-get install gcc python3-dev)"
        return 0
    fi
    say "compiling the search with mypyc (about a minute)..."
    if ! "$VENV/bin/python" -c 'from pybridge import compiled; compiled.build()' \
        >"$VENV/setup-compile.log" 2>&1; then
        "$VENV/bin/python" -c 'from pybridge import compiled; compiled.clean()' || true
        say "note: the compiled build failed (see $VENV/setup-compile.log): the search stays interpreted"
        echo "failed $key" >"$COMPILED_STAMP"
        return 0
    fi
    echo "$key" >"$COMPILED_STAMP"
}

# --- the Prolog engine's C kernel (prolog/arcs_kernel.c) ---------------------
# Optional: prolog/arcs.pl revises its links in C when prolog/arcs_kernel.so
# is built from the arcs_kernel.c beside it (newer than it, and built from a
# file of its size; the library also holds its SHA-256), else in Prolog: the
# same search, slower. It needs a C compiler,
# SWI-Prolog's headers (swi-prolog-core, which swi-prolog-nox brings) and
# GMP's (libgmp-dev), installed with apt-get when missing and possible.
# Rebuilt when arcs_kernel.c or SWI-Prolog changes; CROSSWORD_PURE_PROLOG=1
# keeps the Prolog revision without removing the build.

KERNEL_SOURCE=prolog/arcs_kernel.c
KERNEL_LIBRARY=prolog/arcs_kernel.so
KERNEL_STAMP=$VENV/.crossword-kernel-stamp

swipl_base() {
    swipl --dump-runtime-variables 2>/dev/null | sed -n 's/^PLBASE="\(.*\)";$/\1/p'
}

kernel_headers() {
    command -v cc >/dev/null 2>&1 && [[ -f $(swipl_base)/include/SWI-Prolog.h ]] &&
        printf '#include <gmp.h>\n' | cc -E - >/dev/null 2>&1
}

ensure_kernel_tools() {
    kernel_headers && return 0
    local -a run=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && run=(sudo -n)
    fi
    if [[ $(id -u) -eq 0 || ${#run[@]} -gt 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "installing a C compiler and GMP's headers (Debian packages gcc, libgmp-dev)..."
        { "${run[@]}" apt-get update -qq &&
          "${run[@]}" env DEBIAN_FRONTEND=noninteractive \
              apt-get install -y -qq gcc libgmp-dev; } >/dev/null 2>&1 || true
    fi
    kernel_headers
}

ensure_prolog_kernel() {
    local digest bytes key
    digest=$(sha256sum "$KERNEL_SOURCE" | cut -d' ' -f1)
    bytes=$(wc -c <"$KERNEL_SOURCE")
    key="$digest $(swipl --version 2>/dev/null | head -n 1)"
    if [[ -f $KERNEL_STAMP && $(cat "$KERNEL_STAMP") == "$key" && -f $KERNEL_LIBRARY ]]; then
        return 0
    fi
    if [[ -f $KERNEL_STAMP && $(cat "$KERNEL_STAMP") == "failed $key" ]]; then
        return 0  # failed with this source already (the note was given then)
    fi
    if ! ensure_kernel_tools; then
        say "note: no C compiler or GMP headers: Prolog revises without its C kernel (apt-get install gcc libgmp-dev)"
        return 0
    fi
    say "building the Prolog engine's C kernel (prolog/arcs_kernel.c)..."
    # built aside and moved in: a process running the old library keeps it
    if ! cc -O2 -Wall -shared -fPIC -I"$(swipl_base)/include" -DKERNEL_SOURCE="\"$digest\"" \
        -DKERNEL_SOURCE_BYTES="$bytes" -o "$KERNEL_LIBRARY.new" "$KERNEL_SOURCE" -lgmp >"$VENV/setup-kernel.log" 2>&1; then
        rm -f "$KERNEL_LIBRARY.new" "$KERNEL_LIBRARY"
        say "note: the C kernel did not build (see $VENV/setup-kernel.log): Prolog revises without it"
        echo "failed $key" >"$KERNEL_STAMP"
        return 0
    fi
    mv -f "$KERNEL_LIBRARY.new" "$KERNEL_LIBRARY"
    echo "$key" >"$KERNEL_STAMP"
}

ensure_swipl
ensure_prolog_qlf
ensure_chromium
ensure_debian_data
ensure_venv
ensure_package
ensure_compiled
ensure_prolog_kernel
ensure_prolog_state
say "ready ($(swipl --version 2>/dev/null | head -n 1); $("$VENV/bin/python" -V 2>&1) in $VENV; $("$VENV/bin/python" -c 'from pybridge import bridge, compiled; print(f"{compiled.form()}; {bridge.revision_form()}")'))"
