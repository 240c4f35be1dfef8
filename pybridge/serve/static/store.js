// The puzzles kept in this browser, so that a reload, a server restart or
// another tab loses nothing: each puzzle in localStorage under a key of its
// own (its grid, clues, title and undo history), an index of them (the
// page's list of recent puzzles), the page's preferences, and which puzzle
// each tab shows: sessionStorage keeps it across a reload of that tab, and
// Web Locks say which puzzles the other open tabs show, so that a new tab
// does not take another tab's puzzle.

const PREFIX = "crossword-workbench";
const INDEX = `${PREFIX}:index`;
const PREFS = `${PREFIX}:prefs`;
const LEGACY = PREFIX;  // the one grid all tabs shared, before puzzles had ids
const TAB = `${PREFIX}:tab`;
const LOCK = `${PREFIX}:shown:`;
export const HISTORY = 200;  // undo (and redo) steps kept per puzzle

export const puzzleKey = (id) => `${PREFIX}:puzzle:${id}`;
export const isIndexKey = (key) => key === INDEX;
export const isPrefsKey = (key) => key === PREFS;

export function newId() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

function read(key, fallback, where = localStorage) {
  try {
    const text = where.getItem(key);
    return text ? JSON.parse(text) : fallback;
  } catch (error) {
    return fallback;  // unreadable (another program wrote it): as if absent
  }
}

// ------------------------------------------------------------------ packing

const KIND_CODES = {typed: "t", locked: "l", fill: "f"};
const KINDS = {t: "typed", l: "locked", f: "fill"};

// A grid in a few strings: per row its letters ('#' a block, '.' an empty
// cell) and per row its cells' kinds (t typed, l locked, f filled by a fill,
// '.' none, '#' a block). About two bytes a cell, so that a long undo
// history fits in the browser's storage.
export function pack(grid) {
  const letters = [], kinds = [];
  for (let r = 0; r < grid.rows; r++) {
    let row = "", kind = "";
    for (let c = 0; c < grid.cols; c++) {
      const cell = grid.cells[r * grid.cols + c];
      row += cell.block ? "#" : cell.letter || ".";
      kind += cell.block ? "#" : KIND_CODES[cell.kind] || ".";
    }
    letters.push(row);
    kinds.push(kind);
  }
  return {rows: grid.rows, cols: grid.cols, letters, kinds};
}

// The cells of a packed grid; a missing kind is `missing` (a letter with no
// kind: "locked", as in a grid file; or "typed").
export function unpack(packed, missing = "locked") {
  const cells = [];
  for (let r = 0; r < packed.rows; r++) {
    const row = [...(packed.letters[r] || "")], kind = packed.kinds ? packed.kinds[r] || "" : "";
    for (let c = 0; c < packed.cols; c++) {
      const ch = row[c] === undefined ? "#" : row[c];
      if (ch === "#") cells.push({block: true, letter: "", kind: ""});
      else if (ch === ".") cells.push({block: false, letter: "", kind: ""});
      else cells.push({block: false, letter: ch, kind: KINDS[kind[c]] || missing});
    }
  }
  return {rows: packed.rows, cols: packed.cols, cells};
}

// ------------------------------------------------------------------ puzzles

// The recent puzzles, the last changed first: [{id, name, size, updated}].
export function recent() {
  const list = read(INDEX, []);
  return Array.isArray(list) ? list.sort((a, b) => b.updated - a.updated) : [];
}

export function load(id) {
  return id ? read(puzzleKey(id), null) : null;
}

// Keep a puzzle (a record: see the page's record()). When the browser's
// storage is full, the undo history of the other puzzles goes first, then
// most of this one's; false if even then it does not fit.
export function keep(record) {
  const entry = {id: record.id, name: record.name, size: record.size, updated: record.updated};
  let kept = record;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      localStorage.setItem(puzzleKey(kept.id), JSON.stringify(kept));
      const list = recent().filter((p) => p.id !== kept.id);
      list.unshift(entry);
      localStorage.setItem(INDEX, JSON.stringify(list));
      return true;
    } catch (error) {
      if (attempt === 0) forgetHistories(kept.id);
      else kept = {...kept, undo: kept.undo.slice(-10), redo: []};
    }
  }
  return false;
}

function forgetHistories(except) {
  for (const {id} of recent()) {
    const record = load(id);
    if (id === except || !record || !(record.undo || []).length) continue;
    try {
      localStorage.setItem(puzzleKey(id), JSON.stringify({...record, undo: [], redo: []}));
    } catch (error) { /* nothing more to free here */ }
  }
}

export function forget(id) {
  localStorage.removeItem(puzzleKey(id));
  try {
    localStorage.setItem(INDEX, JSON.stringify(recent().filter((p) => p.id !== id)));
  } catch (error) { /* the index only shrank: cannot happen */ }
}

// The grid of every tab before puzzles had ids becomes a puzzle of its own.
export function adoptLegacy(toRecord) {
  const old = read(LEGACY, null);
  if (!old) return;
  if (old.grid && old.grid.cells) {
    const record = toRecord(old.grid, old.symmetry);
    keep(record);
    if (old.dicts) savePrefs({...prefs(), dicts: old.dicts});
  }
  localStorage.removeItem(LEGACY);
}

// ------------------------------------------------------------------ preferences

export function prefs() {
  return read(PREFS, {});
}

export function savePrefs(value) {
  try { localStorage.setItem(PREFS, JSON.stringify(value)); } catch (error) { /* full: no matter */ }
}

// ------------------------------------------------------------------ tabs

// The puzzle this tab showed before a reload (sessionStorage is the tab's own).
export function tabPuzzle() {
  return read(TAB, null, sessionStorage);
}

export function setTabPuzzle(id) {
  try { sessionStorage.setItem(TAB, JSON.stringify(id)); } catch (error) { /* no matter */ }
}

// This tab shows puzzle `id`: it holds a shared lock named after it for as
// long as it shows it (the browser releases it when the tab closes).
let release = () => {};
let shown = null;      // the puzzle this tab shows
let granted = null;    // the puzzle whose lock this tab holds (granted a moment after show())

export function show(id) {
  release();
  shown = id;
  granted = null;
  if (!navigator.locks) return;
  const until = new Promise((resolve) => { release = resolve; });
  navigator.locks.request(LOCK + id, {mode: "shared"}, () => {
    if (shown === id) granted = id;
    return until;
  }).catch(() => {});
}

// The puzzles that other tabs show.
export async function shownElsewhere() {
  if (!navigator.locks) return new Set();
  const {held} = await navigator.locks.query();
  const counts = new Map();
  for (const lock of held) {
    if (lock.name.startsWith(LOCK)) {
      const id = lock.name.slice(LOCK.length);
      counts.set(id, (counts.get(id) || 0) + 1);
    }
  }
  if (granted !== null && counts.has(granted)) counts.set(granted, counts.get(granted) - 1);
  return new Set([...counts].filter(([, n]) => n > 0).map(([id]) => id));
}
