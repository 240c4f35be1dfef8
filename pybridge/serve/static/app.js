// The crossword workbench page. It talks to the server only through the
// JSON API of docs/serve.md; everything it shows is rebuilt from the puzzle
// it holds, which store.js keeps in the browser: each tab edits a puzzle of
// its own, and a reload, a server restart or another tab loses nothing.
import * as store from "./store.js";

const $ = (id) => document.getElementById(id);
const PAGE = crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);
const BLOCK = "#";
const MAX_SIDE = 100;  // New and Pattern: at most this many cells a side (the pattern generator's)
const SEEDS = 1_000_000_000;  // Another fill draws its seed below this (and from 2: not the default's)

// ------------------------------------------------------------------ state

// A cell: {block, letter, kind}; kind is "typed", "locked" (kept by fills
// and by typing) or "fill" (from an autofill; the next fill may change it).
let grid = emptyGrid(15, 15);
// The puzzle around the grid: its id in the store, title, author, clues (by
// "row,col,direction" of the entry's first cell), the symmetry of its blocks,
// the .puz or ipuz file it was opened from (`original`), whether the user
// changed it (`edited`: New, Open and Pattern replace an unchanged puzzle
// rather than start another) and whether it is kept in the store yet.
let puzzle = newPuzzle();
let cursor = {r: 0, c: 0, dir: "across"};
let selection = null;      // {r0, c0, r1, c1} while cells are selected
let marked = new Set();    // "r,c" keys of a proof's core, shown in red
let wide = false;          // whether the marked core is not minimal (drawn hatched)
let info = {dicts: [], time_limit: 60, max_upload: 16 << 20};
let undoStack = [], redoStack = [];
let job = null;            // the fill or check under way: {kind, puzzle, shape, ...}
let candidateAsk = 0;      // the number of the latest candidates request
let candidateRequest = null;  // its AbortController
let counts = null;         // {shape, by: Map "number-dir" -> words some fill can use}: per entry, from the last list
let candidateLists = 0;    // candidate lists shown (body's data-lists and data-listed: for tests)
let keyAt = 0;             // when the last key was pressed (body's data-latency: its list's delay)
let estimate = null;       // {shape, difficulty, verdict}: the grid's difficulty, from the last list
let entryWords = null;     // {slot, shape}: whose words that fill the grid are shown
let refocus = null;        // the place in the candidate list to focus once it is made again

const key = (r, c) => `${r},${c}`;
const cellAt = (r, c) => grid.cells[r * grid.cols + c];
const inside = (r, c) => r >= 0 && c >= 0 && r < grid.rows && c < grid.cols;
const open = (r, c) => inside(r, c) && !cellAt(r, c).block;

function emptyGrid(rows, cols) {
  const cells = [];
  for (let i = 0; i < rows * cols; i++) cells.push({block: false, letter: "", kind: ""});
  return {rows, cols, cells, mode: "lexicon", words: null, source: "new grid"};
}

function newPuzzle() {
  return {id: store.newId(), title: "", author: "", clues: {}, symmetry: "rot180",
    original: null, edited: false, kept: false};
}

// A grid from rows ('#' a block, '.' empty, a letter); its letters are
// locked (the givens of a puzzle file) unless `kinds` (a work file's: t
// typed, l locked, f filled) says otherwise.
function fromRows(rows, mode, words, source, kinds = null) {
  const packed = {rows: rows.length, cols: Math.max(...rows.map((row) => [...row].length)), letters: rows, kinds};
  return Object.assign(store.unpack(packed), {mode, words, source});
}

// The rows the API reads: '#' blocked, '.' open, letters; `keep` says which
// letters count (all, or only those a fill must keep).
function rowsOf(keep = () => true) {
  const rows = [];
  for (let r = 0; r < grid.rows; r++) {
    let row = "";
    for (let c = 0; c < grid.cols; c++) {
      const cell = cellAt(r, c);
      row += cell.block ? BLOCK : cell.letter && keep(cell) ? cell.letter : ".";
    }
    rows.push(row);
  }
  return rows;
}

const kept = (cell) => cell.kind !== "fill";
const shape = () => rowsOf(kept).join("\n");

// The entries of the grid, numbered as a printed crossword (and as
// pybridge.layout) numbers them, and for each open cell the entries through
// it: {list, numbers, at: Map "r,c" -> {across: [site, i], down: [site, i]}}.
// Worked out again only when the blocks change.
let structureKey = "", structureMemo = null;

function structure() {
  let signature = `${grid.rows}x${grid.cols}:`;
  for (const cell of grid.cells) signature += cell.block ? "#" : ".";
  if (signature !== structureKey) {
    structureMemo = structureOf(grid);
    structureKey = signature;
  }
  return structureMemo;
}

function structureOf(g) {
  const open = (r, c) => r >= 0 && c >= 0 && r < g.rows && c < g.cols && !g.cells[r * g.cols + c].block;
  const list = [], numbers = new Map(), at = new Map();
  let n = 0;
  for (let r = 0; r < g.rows; r++) {
    for (let c = 0; c < g.cols; c++) {
      if (!open(r, c)) continue;
      const across = !open(r, c - 1) && open(r, c + 1);
      const down = !open(r - 1, c) && open(r + 1, c);
      if (!across && !down) continue;
      numbers.set(key(r, c), ++n);
      for (const [dir, go, dr, dc] of [["across", across, 0, 1], ["down", down, 1, 0]]) {
        if (!go) continue;
        const site = {number: n, dir, cells: []};
        for (let i = r, j = c; open(i, j); i += dr, j += dc) {
          const k = key(i, j);
          if (!at.has(k)) at.set(k, {});
          at.get(k)[dir] = [site, site.cells.length];
          site.cells.push([i, j]);
        }
        list.push(site);
      }
    }
  }
  return {list, numbers, at};
}

const sites = () => structure().list;

function slotAt(r, c, dir) {
  const through = structure().at.get(key(r, c));
  if (!through) return null;
  return (through[dir] || through.across || through.down)[0];
}

const clueKey = (site) => `${site.cells[0][0]},${site.cells[0][1]},${site.dir}`;

// ------------------------------------------------------------------ undo and keeping

function snapshot() {
  return JSON.stringify(store.pack(grid));
}

function change(edit) {
  const before = snapshot();
  edit();
  if (snapshot() === before) return;
  undoStack.push(before);
  if (undoStack.length > store.HISTORY) undoStack.shift();
  redoStack = [];
  puzzle.edited = true;
  changed();
}

function restore(from, to) {
  if (!from.length) return;
  to.push(snapshot());
  Object.assign(grid, store.unpack(JSON.parse(from.pop())));
  puzzle.edited = true;
  changed();
}

// After every change of the grid: a status line about the grid as it was
// goes (what a change has to say, it says after it), the marks and the score
// too, and the puzzle is kept.
function changed() {
  say("");
  marked.clear();
  $("verdict").hidden = true;
  $("score").hidden = true;  // a fill's score is the fill's, not the edited grid's
  save();
  render();
  scheduleCandidates();
}

function puzzleName() {
  return puzzle.title.trim() || grid.source;
}

// The puzzle as the store keeps it.
function record() {
  return {
    version: 1, id: puzzle.id, name: puzzleName(), size: `${grid.rows}×${grid.cols}`,
    updated: Date.now(), title: puzzle.title, author: puzzle.author, clues: puzzle.clues,
    symmetry: $("symmetry").value, original: puzzle.original, edited: puzzle.edited,
    grid: {...store.pack(grid), mode: grid.mode, words: grid.words, source: grid.source},
    undo: undoStack.slice(-store.HISTORY), redo: redoStack.slice(-store.HISTORY),
  };
}

let storageFull = false;

function save() {
  puzzle.kept = true;
  const ok = store.keep(record());
  if (!ok && !storageFull) say("The browser's storage is full: this puzzle is not kept here. Save it as a file (Save, Alt+S).", "bad");
  storageFull = !ok;
  showPuzzleList();
}

// Show a kept puzzle (from the store, or from another tab's change to it).
function adopt(kept, fresh = true) {
  const {grid: packed} = kept;
  grid = Object.assign(store.unpack(packed), {mode: packed.mode, words: packed.words, source: packed.source});
  puzzle = {id: kept.id, title: kept.title || "", author: kept.author || "", clues: kept.clues || {},
    symmetry: kept.symmetry || "rot180", original: kept.original || null, edited: !!kept.edited, kept: true};
  undoStack = kept.undo || [];
  redoStack = kept.redo || [];
  $("symmetry").value = puzzle.symmetry;
  if (fresh || !inside(cursor.r, cursor.c)) cursor = firstCursor();
  if (fresh) {
    selection = null;
    marked.clear();
    $("verdict").hidden = true;
    $("score").hidden = true;
    showGrids([]);
  }
  showPuzzleFields();
  render();
  scheduleCandidates();
}

// Start a puzzle on `g`: in place of the puzzle shown when the user has not
// changed it, else as a new puzzle (the one shown stays in the list).
function startPuzzle(g, {title = "", author = "", clues = {}, original = null, symmetry = null} = {}) {
  if (puzzle.edited || puzzle.title || puzzle.author || Object.keys(puzzle.clues).length) {
    puzzle = newPuzzle();
    undoStack = [];
  } else {
    undoStack.push(snapshot());  // an unchanged puzzle: its grid can come back with Undo
  }
  redoStack = [];
  Object.assign(puzzle, {title, author, clues, original, edited: false});
  if (symmetry) $("symmetry").value = symmetry;
  puzzle.symmetry = $("symmetry").value;
  grid = g;
  cursor = firstCursor();
  selection = null;
  store.show(puzzle.id);
  store.setTabPuzzle(puzzle.id);
  showPuzzleFields();
  changed();
}

// The cursor of a grid just shown: the first cell of its first entry (never a block).
function firstCursor() {
  const first = sites()[0];
  if (first) return {r: first.cells[0][0], c: first.cells[0][1], dir: first.dir};
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) if (open(r, c)) return {r, c, dir: "across"};
  }
  return {r: 0, c: 0, dir: "across"};
}

// ------------------------------------------------------------------ the list of puzzles

function showPuzzleList() {
  const choice = $("puzzles");
  const list = store.recent();
  if (!list.some((p) => p.id === puzzle.id)) {
    list.unshift({id: puzzle.id, name: puzzleName(), size: `${grid.rows}×${grid.cols}`});
  }
  choice.replaceChildren(...list.map((p) => {
    const option = document.createElement("option");
    option.value = p.id;
    option.textContent = `${p.name} (${p.size})`;
    option.selected = p.id === puzzle.id;
    return option;
  }));
}

async function switchPuzzle(id) {
  if (id === puzzle.id) return;
  const kept = store.load(id);
  if (!kept) {
    showPuzzleList();
    return say("That puzzle is no longer kept in this browser.", "bad");
  }
  if (puzzle.kept) save();
  store.show(id);
  store.setTabPuzzle(id);
  adopt(kept);
  const elsewhere = await store.shownElsewhere();
  say(elsewhere.has(id)
    ? `Opened ${puzzleName()}: another tab shows it too, and the two keep in step.`
    : `Opened ${puzzleName()}.`);
}

function forgetPuzzle() {
  const name = puzzleName();
  if (!window.confirm(`Remove “${name}” from this browser? (Save it as a file first to keep it.)`)) return;
  store.forget(puzzle.id);
  const next = store.recent()[0];
  if (next) {
    store.show(next.id);
    store.setTabPuzzle(next.id);
    adopt(store.load(next.id));
  } else {
    puzzle = newPuzzle();
    grid = emptyGrid(15, 15);
    undoStack = [];
    redoStack = [];
    cursor = firstCursor();
    store.show(puzzle.id);
    store.setTabPuzzle(puzzle.id);
    showPuzzleFields();
    render();
    scheduleCandidates();
  }
  showPuzzleList();
  say(`Removed ${name}.`);
}

function showPuzzleFields() {
  if (document.activeElement !== $("puzzle-title")) $("puzzle-title").value = puzzle.title;
  if (document.activeElement !== $("puzzle-author")) $("puzzle-author").value = puzzle.author;
}

// ------------------------------------------------------------------ drawing

let cellViews = [], builtShape = "";

function build() {
  const board = $("grid");
  board.replaceChildren();
  cellViews = [];
  builtShape = `${grid.rows}x${grid.cols}`;
  board.setAttribute("aria-rowcount", String(grid.rows));
  board.setAttribute("aria-colcount", String(grid.cols));
  for (let r = 0; r < grid.rows; r++) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    for (let c = 0; c < grid.cols; c++) {
      const view = document.createElement("div");
      view.className = "cell";
      view.id = `cell-${r}-${c}`;
      view.dataset.r = r;
      view.dataset.c = c;
      view.setAttribute("role", "gridcell");
      const number = document.createElement("span");
      number.className = "number";
      number.setAttribute("aria-hidden", "true");
      const letter = document.createElement("span");
      letter.className = "letter";
      letter.setAttribute("aria-hidden", "true");
      view.append(number, letter);
      row.append(view);
      cellViews.push(view);
    }
    board.append(row);
  }
  fitGrid();
}

// What a screen reader says of a cell: "3-Across, letter 2 of 5, E" (the
// entry in the cursor's direction when the cell has one), "block, row 1,
// column 4"; with "locked" or "filled" for such letters.
function cellLabel(r, c, cell, through) {
  if (cell.block) return `block, row ${r + 1}, column ${c + 1}`;
  const letter = cell.letter || "empty";
  const how = cell.kind === "locked" ? ", locked" : cell.kind === "fill" ? ", filled" : "";
  const entry = through && (through[cursor.dir] || through.across || through.down);
  if (!entry) return `row ${r + 1}, column ${c + 1}, ${letter}${how}`;
  const [site, i] = entry;
  return `${slotName(site)}, letter ${i + 1} of ${site.cells.length}, ${letter}${how}`;
}

function render() {
  if (builtShape !== `${grid.rows}x${grid.cols}`) build();
  const {numbers, at} = structure();
  const slot = slotAt(cursor.r, cursor.c, cursor.dir);
  const few = fewness(at);
  const inSlot = new Set(slot ? slot.cells.map(([i, j]) => key(i, j)) : []);
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) {
      const cell = cellAt(r, c), view = cellViews[r * grid.cols + c], k = key(r, c);
      view.classList.toggle("block", cell.block);
      view.classList.toggle("cursor", r === cursor.r && c === cursor.c);
      view.classList.toggle("slot", inSlot.has(k));
      view.classList.toggle("core", marked.has(k) && !wide);
      view.classList.toggle("wide-core", marked.has(k) && wide);
      const isSelected = selected(r, c);
      view.classList.toggle("selected", isSelected);
      view.classList.toggle("few", few.get(k) === 1);
      view.classList.toggle("fewest", few.get(k) === 0);
      for (const kind of ["typed", "locked", "fill"]) view.classList.toggle(kind, cell.kind === kind);
      view.children[0].textContent = numbers.get(k) || "";
      view.children[1].textContent = cell.block ? "" : cell.letter;
      const label = cellLabel(r, c, cell, at.get(k));
      if (view.dataset.label !== label) {
        view.setAttribute("aria-label", label);
        view.dataset.label = label;
      }
      if (isSelected) view.setAttribute("aria-selected", "true");
      else view.removeAttribute("aria-selected");
    }
  }
  $("grid").setAttribute("aria-activedescendant", `cell-${cursor.r}-${cursor.c}`);
  $("grid").setAttribute("aria-label", `the grid, ${grid.rows} by ${grid.cols}`);
  $("slot-title").textContent = slot ? slotName(slot) : "–";
  $("figures").textContent = statistics();
  $("difficulty").textContent = difficulty();
  $("title").textContent = `${grid.source} · ${grid.rows}×${grid.cols} · ` +
    (grid.mode === "exact" ? `${grid.words.length} listed words` : "filled from the dictionaries");
  $("undo").disabled = !undoStack.length;
  $("redo").disabled = !redoStack.length;
  $("fill-region").disabled = !selection || !!job;
  renderClues(slot);
}

// Entries with few words left are shaded (when asked): per cell, 0 when an
// entry through it has at most FEWEST words some fill can use, 1 at most FEW.
const FEWEST = 3, FEW = 20;

function fewness(at) {
  const few = new Map();
  if (!counts || counts.shape !== rowsOf().join("\n") || !$("shade-few").checked) return few;
  for (const [k, through] of at) {
    for (const [site] of Object.values(through)) {
      const left = counts.by.get(`${site.number}-${site.dir}`);
      if (left === undefined || left === null) continue;
      const level = left <= FEWEST ? 0 : left <= FEW ? 1 : 2;
      if (level < 2) few.set(k, Math.min(level, few.has(k) ? few.get(k) : 2));
    }
  }
  return few;
}

// The grid's figures, as the pattern generator gives them: "78 words, 37
// blocks (2 cheaters), mean word length 4.82". A cheater block is one whose
// opening, alone, would leave the number of words as it is.
function statistics() {
  const {list} = structure();
  let blocks = 0, cheaters = 0;
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) {
      if (!cellAt(r, c).block) continue;
      blocks++;
      const [across, down] = [wordChange(r, c, 0, 1), wordChange(r, c, 1, 0)];
      if (across + down === 0) cheaters++;
    }
  }
  const letters = list.reduce((sum, site) => sum + site.cells.length, 0);
  const mean = list.length ? (letters / list.length).toFixed(2) : "0.00";
  const plural = (n, word) => `${n.toLocaleString()} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(list.length, "word")}, ${plural(blocks, "block")} ` +
    `(${plural(cheaters, "cheater")}), mean word length ${mean}`;
}

// The difficulty the server estimated for the grid as it is, with the chosen
// words (`crossword difficulty`: about log10 of the nodes a fill's search
// needs), once the candidate list of the grid as it is has come.
function difficulty() {
  if (!estimate || !sameEstimate(estimate, {shape: rowsOf().join("\n"), words: wordsKey()})) return "";
  if (estimate.checked) return " · cannot be filled as it is (Check)";
  if (estimate.verdict) return " · cannot be filled as it is";
  return estimate.difficulty === null ? "" : ` · difficulty ${estimate.difficulty.toFixed(2)}`;
}

// What the words of a grid's fill depend on: the dictionaries, the min score
// and the curation (or the puzzle's own list).
function wordsKey() {
  if (grid.mode === "exact") return "exact";
  return JSON.stringify([chosenDicts(), qualityOptions(false), curationOptions()]);
}

const sameEstimate = (a, b) => a.shape === b.shape && a.words === b.words;

// How the number of words changes along (dr, dc) if the block at (r, c)
// opened: -1 it joins two words, +1 it makes one, 0 it lengthens one or none.
function wordChange(r, c, dr, dc) {
  const before = open(r - dr, c - dc), after = open(r + dr, c + dc);
  const longBefore = before && open(r - 2 * dr, c - 2 * dc);
  const longAfter = after && open(r + 2 * dr, c + 2 * dc);
  if (longBefore && longAfter) return -1;
  return (before || after) && !longBefore && !longAfter ? 1 : 0;
}

function slotName(slot) {
  return `${slot.number}-${slot.dir === "across" ? "Across" : "Down"}`;
}

function selected(r, c) {
  if (!selection) return false;
  const {r0, c0, r1, c1} = selection;
  return r >= Math.min(r0, r1) && r <= Math.max(r0, r1) && c >= Math.min(c0, c1) && c <= Math.max(c0, c1);
}

// The size of a cell: the grid fits the width of its column (at 400 px a
// 15x15 grid is whole) and, while the cells stay legible, the height of the
// window below it with room for the status lines (at 1280x800 a 21x21 grid
// leaves its status in view). From 14 to 34 px; a grid larger than that
// scrolls within its frame.
const CELL_MOST = 34, CELL_LEAST = 14, CELL_LEGIBLE = 20, STATUS_ROOM = 110;

function fitGrid() {
  const frame = $("grid-frame");
  const across = (frame.clientWidth - 4) / grid.cols;
  const top = frame.getBoundingClientRect().top + window.scrollY;
  const down = (window.innerHeight - top - STATUS_ROOM) / grid.rows;
  let size = Math.min(CELL_MOST, across);
  if (down >= CELL_LEGIBLE) size = Math.min(size, down);
  size = Math.max(CELL_LEAST, Math.floor(size));
  $("grid").style.setProperty("--cell", `${size}px`);
}

function say(text, kind = "") {
  $("status").textContent = text;
  $("status").className = kind;
}

// ------------------------------------------------------------------ the API

// Every request asks the server to answer its refusals with HTTP 200 and
// their status in X-Crossword-Status (docs/serve.md): the page shows the
// message itself, and the browser then logs no error for it.
async function api(path, body, method = "POST", signal = undefined) {
  const response = await request(path, body, method, signal);
  const data = await response.json().catch(() => ({error: `${response.status} ${response.statusText}`}));
  if (response.refused) throw new Error(data.error || response.statusText);
  return data;
}

async function request(path, body, method = "POST", signal = undefined) {
  const options = {method, headers: {"X-Crossword-Errors": "ok-status"}, signal};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const status = Number(response.headers.get("X-Crossword-Status") || response.status);
  response.refused = status >= 400;
  return response;
}

function chosenDicts() {
  return [...document.querySelectorAll("#dicts input:checked")].map((box) => box.value);
}

// The time limit of a fill or check: the one chosen, at most the server's.
function chosenLimit() {
  const chosen = Number($("timeout").value);
  return chosen > 0 ? Math.min(chosen, info.time_limit) : info.time_limit;
}

// The quality options of a grid filled from the dictionaries, by the CLI's
// long names: min-score (solve, check, fills, candidates) and maximize
// (solve and whole-grid fills only).
function qualityOptions(objective) {
  const options = {};
  if (grid.mode === "exact") return options;  // a word list has no scores to cut or maximize
  const least = $("min-score").value.trim() || shippedLine();
  if (least !== "") options["min-score"] = least;
  if (objective && $("maximize").value) options.maximize = $("maximize").value;
  return options;
}

// The shipped list's acceptable line (25) when it is chosen: its words below
// the line are left out unless a min score says otherwise, as `crossword
// solve` leaves them out of a grid it fills from the shipped list.
function shippedLine() {
  const shipped = (info.dicts || []).find((d) => d.shipped && chosenDicts().includes(d.name));
  return shipped && shipped.line !== null && shipped.line !== undefined ? String(shipped.line) : "";
}

function showMinScore() {
  const line = shippedLine();
  $("min-score").placeholder = line || "none";
}

// The puzzle as /api/solve, /api/check and /api/fill take it (with
// `objective`, the maximize option too).
function puzzleBody(keep = () => true, objective = false) {
  const rows = rowsOf(keep);
  const body = {name: grid.source};
  if (grid.mode === "exact") {
    body.puzzle = rows.map((row) => row.replaceAll(".", "_")).join("\n") + "\n";
    body.format = "fillin";
    body.words = grid.words.join("\n") + "\n";
  } else {
    body.puzzle = rows.join("\n") + "\n";
    body.format = "grid";
    body.dict = chosenDicts();
  }
  const options = {engine: $("engine").value, strategy: $("strategy").value};
  for (const [name, value] of Object.entries(options)) if (value) body[name] = value;
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  if ($("timeout").value !== "") body.timeout = Number($("timeout").value);
  return Object.assign(body, qualityOptions(objective), curationOptions());
}

// ------------------------------------------------------------------ candidates

// One request for all the changes of one event (a letter typed moves the
// cursor too): the list is asked for once the event's handler is done.
let candidatesQueued = false;

function scheduleCandidates() {
  if (candidatesQueued) return;
  candidatesQueued = true;
  queueMicrotask(() => {
    candidatesQueued = false;
    askCandidates();
  });
}

async function askCandidates() {
  const slot = slotAt(cursor.r, cursor.c, cursor.dir);
  const ask = ++candidateAsk;
  if (candidateRequest) candidateRequest.abort();  // its list would come too late
  candidateRequest = null;
  if (!slot) return showSlot(null, null, open(cursor.r, cursor.c) ? "no entry runs through this cell" : "a block");
  const body = {grid: rowsOf(), row: cursor.r, col: cursor.c, direction: slot.dir, limit: 100};
  if (grid.mode === "exact") body.words = grid.words;
  else if (!chosenDicts().length) return showSlot(slot, null, "choose a dictionary to see the words that fit");
  else Object.assign(body, {dict: chosenDicts()}, qualityOptions(false), curationOptions());
  candidateRequest = new AbortController();
  try {
    const answer = await api("/api/candidates", body, "POST", candidateRequest.signal);
    answer.grid = body.grid.join("\n");  // the grid its counts are for
    if (ask === candidateAsk) { showSlot(slot, answer); render(); }
  } catch (error) {
    if (ask === candidateAsk && error.name !== "AbortError") showSlot(slot, null, error.message);
  }
}

function showSlot(slot, answer = null, note = "") {
  const list = $("candidates");
  list.replaceChildren();
  if (entryWords && (!slot || entryWords.slot !== slotName(slot) || entryWords.shape !== shape())) {
    $("entry-words").hidden = true;
    entryWords = null;
  }
  $("slot-info").textContent = note;
  $("slot-info").className = note ? "note" : "";
  if (!answer) return;
  if (answer.sites) {
    const by = new Map(answer.sites.map((s) => [`${s.number}-${s.direction}`, s.alive ?? s.fitting]));
    counts = {shape: answer.grid || rowsOf().join("\n"), by};
  }
  const now = {shape: answer.grid || rowsOf().join("\n"), words: wordsKey()};
  const proven = estimate && estimate.checked && sameEstimate(estimate, now);
  if (answer.difficulty !== undefined && !proven) {  // Check's verdict stays until the grid changes
    estimate = {...now, difficulty: answer.difficulty, verdict: !!answer.verdict};
  }
  document.body.dataset.lists = String(++candidateLists);
  document.body.dataset.listed = slotName(slot);  // whose list is shown (for tests)
  document.body.dataset.latency = String(Math.round(performance.now() - keyAt));
  const possible = answer.alive === null ? "" : `, ${answer.alive.toLocaleString()} possible`;
  const count = answer.candidates.length, scored = answer.candidates.some((c) => c.score !== undefined);
  // the list is cut at 100: say so, and which come first
  const shown = count < answer.fitting ? ` · the ${scored ? "best" : "first"} ${count} shown` : "";
  $("slot-info").textContent =
    `${answer.site.pattern} · ${answer.fitting.toLocaleString()} fit${possible}${shown}`;
  for (const candidate of answer.candidates) {
    list.append(candidateItem(candidate, answer));
  }
  if (refocus !== null) {
    const words = list.querySelectorAll("button.word");
    if (words.length) words[Math.min(refocus, words.length - 1)].focus();
    refocus = null;
  }
  if (answer.verdict) {
    const {reason, cells, minimal} = answer.verdict;
    showVerdict(reason, cells, "The grid cannot be filled as it is", false, minimal !== false);
  } else if (!$("verdict").dataset.sticky) {
    clearVerdict();
  }
}

// A word that fits: a click places it; its score beside it (greyed below the
// list's acceptable line); a small button (or Delete) bans it.
function candidateItem(candidate, answer) {
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.className = "word";
  button.textContent = candidate.word;
  const notes = [];
  if (candidate.score !== undefined) {
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = candidate.score;
    button.append(score);
    notes.push(`score ${candidate.score}`);
    if (answer.line !== null && answer.line !== undefined && candidate.score < answer.line) {
      item.classList.add("weak");
      notes.push(`below the acceptable line (${answer.line})`);
    }
  }
  if (candidate.dead) {
    item.classList.add("dead");
    notes.push(`ruled out: ${candidate.why}`);
  }
  if (notes.length) button.title = notes.join("; ");
  button.setAttribute("aria-label", [candidate.word, ...notes].join(", "));
  button.addEventListener("click", () => place(answer.site.cells, candidate.word));
  button.addEventListener("keydown", (event) => {
    if (event.key === "Delete") {
      event.preventDefault();
      banWord(candidate.word, item);
    }
  });
  item.append(button);
  if (grid.mode !== "exact") {
    const ban = document.createElement("button");
    ban.className = "ban";
    ban.textContent = "×";
    ban.title = `Ban ${candidate.word}: no fill or list of this browser uses it (Delete on the word does it too)`;
    ban.setAttribute("aria-label", `ban ${candidate.word}`);
    ban.tabIndex = -1;  // one stop per word in the Tab order: Delete on the word bans it
    ban.addEventListener("click", () => banWord(candidate.word, item));
    item.append(ban);
  }
  return item;
}

function place(cells, word) {
  change(() => [...word].forEach((ch, i) => {
    const cell = cellAt(...cells[i]);
    if (cell.kind !== "locked") Object.assign(cell, {letter: ch, kind: "typed"});
  }));
  $("grid").focus();
}

// ------------------------------------------------------------------ your words

// The words this browser bans and prefers, kept with its preferences: every
// request that fills from the dictionaries sends them (`ban`, `prefer`), so
// that the candidate lists, fills, checks and Make all leave out the banned
// words and give the preferred ones 20 more (adding those the lists lack).
const JOINED = /[-'\u2019 ]/gu;  // what a dictionary entry leaves out (e-mail: EMAIL)

function wordsOf(text) {
  const words = [], bad = [];
  for (const line of text.split(/[\n,;]+/u)) {
    const word = line.trim();
    if (!word) continue;
    if (/^\p{L}+$/u.test(word.replace(JOINED, ""))) words.push(word);
    else bad.push(word);
  }
  return {words: [...new Set(words)], bad};
}

function curationOptions() {
  const options = {};
  if (grid.mode === "exact") return options;  // a puzzle's own word list is not curated
  const {ban = [], prefer = []} = store.prefs();
  if (ban.length) options.ban = ban;
  if (prefer.length) options.prefer = prefer;
  return options;
}

function showCuration(rewrite = false) {
  const {ban = [], prefer = []} = store.prefs();
  for (const [id, words] of [["banned", ban], ["preferred", prefer]]) {
    if (rewrite || document.activeElement !== $(id)) $(id).value = words.join("\n");
  }
  $("curation-note").textContent = `${ban.length.toLocaleString()} banned, ` +
    `${prefer.length.toLocaleString()} preferred`;
}

// The words typed in the two lists, kept (a line that is no word is said so);
// once the typing is done (`rewrite`), the lists show what was kept.
function readCuration(rewrite = false) {
  const banned = wordsOf($("banned").value), preferred = wordsOf($("preferred").value);
  store.savePrefs({...store.prefs(), ban: banned.words, prefer: preferred.words});
  showCuration(rewrite);
  const bad = [...banned.bad, ...preferred.bad];
  if (bad.length) $("curation-note").textContent += ` · not words, left out: ${bad.join(", ")}`;
  scheduleCandidates();
}

function banWord(word, item = null) {
  const {ban = [], prefer = []} = store.prefs();
  if (!ban.includes(word)) ban.push(word);
  store.savePrefs({...store.prefs(), ban, prefer: prefer.filter((w) => w !== word)});
  showCuration();
  // the focus goes on to the next word of the list, as after a deletion (the
  // list is made again without the word: the same place in it)
  if (item && item.contains(document.activeElement)) refocus = [...item.parentNode.children].indexOf(item);
  const next = item && (item.nextElementSibling || item.previousElementSibling);
  if (next && refocus !== null) next.querySelector("button").focus();
  if (item) item.remove();
  say(`Banned ${word}: no fill or list uses it now (“your words”, under the options, lists it).`);
  scheduleCandidates();
}

// ------------------------------------------------------------------ the words of one entry that fill

// Try the words of the entry under the cursor one by one, the best first:
// which of them leave the whole grid a fill (POST /api/fill with "suggest",
// in a worker as a fill runs: its progress shows, Cancel stops it).
async function suggestEntry() {
  if (job || needsDictionary()) return;
  const slot = slotAt(cursor.r, cursor.c, cursor.dir);
  if (!slot) return say("The cursor is on no entry: move it to the entry whose words to try.");
  const [row, col] = slot.cells[0];
  const body = Object.assign(puzzleBody(kept, false), {page: PAGE, suggest: true, row, col, direction: slot.dir});
  await runInWorker(body, {kind: "suggest", slot: slotName(slot), cells: slot.cells},
                    `trying the words of ${slotName(slot)}…`);
}

function finishSuggest(answer, started) {
  if (!stillShown(started)) return say("The grid changed while the words were tried: try again.", "bad");
  const list = $("entry-list");
  list.replaceChildren();
  let fill = 0;
  for (const tried of answer.words) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.textContent = tried.word;
    if (tried.score !== undefined) {
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = tried.score;
      button.append(score);
    }
    const verdict = tried.fills === true ? `the grid fills with it (${tried.nodes} nodes)`
      : tried.fills === false ? `no fill with it: ${tried.reason}` : "no verdict within its share of the time";
    item.className = tried.fills === true ? "fills" : tried.fills === false ? "refuted" : "unknown";
    button.title = verdict;
    button.setAttribute("aria-label", `${tried.word}, ${verdict}`);
    button.addEventListener("click", () => place(started.cells, tried.word));
    item.append(button);
    list.append(item);
    fill += tried.fills === true;
  }
  const tried = answer.words.length;
  const left = answer.alive === null ? "" : ` of the ${answer.alive.toLocaleString()} the crossings leave`;
  let note = `${started.slot}: ${fill} of the ${tried} words tried${left} leave the grid a fill.`;
  if (answer.status === "unsolvable") note = `${started.slot}: no word leaves the grid a fill: it cannot be filled as it is.`;
  else if (answer.status === "timeout" && fill < answer.wanted) note += " The time limit ended the trials.";
  $("entry-note").textContent = note;
  $("entry-words").hidden = false;
  entryWords = {slot: started.slot, shape: started.shape};
  say(note, fill ? "good" : "bad");
  if (answer.verdict) showVerdict(answer.verdict.reason, answer.verdict.cells, "The grid cannot be filled as it is", true, answer.verdict.minimal !== false);
}

// ------------------------------------------------------------------ clues

let cluesBuilt = "";

// The clue pane: a field per entry, Across then Down, each with its number
// and letters; entries without a clue are marked and counted.
function renderClues(current) {
  const {list} = structure();
  if (cluesBuilt !== structureKey) buildClues(list);
  let missing = 0;
  for (const site of list) {
    const item = $(`clue-${clueKey(site).replaceAll(",", "-")}`);
    if (!item) continue;
    const pattern = site.cells.map(([r, c]) => cellAt(r, c).letter || "·").join("");
    const text = puzzle.clues[clueKey(site)] || "";
    item.querySelector(".pattern").textContent = pattern;
    const field = item.querySelector("input");
    if (document.activeElement !== field && field.value !== text) field.value = text;
    item.classList.toggle("unclued", !text.trim());
    item.classList.toggle("current", current === site);
    if (!text.trim()) missing++;
  }
  $("clue-count").textContent = !list.length ? "no entries"
    : missing ? `${missing} of ${list.length} entries without a clue` : `all ${list.length} entries clued`;
}

function buildClues(list) {
  cluesBuilt = structureKey;
  for (const dir of ["across", "down"]) {
    const items = list.filter((site) => site.dir === dir).map((site) => {
      const item = document.createElement("li");
      const id = `clue-${clueKey(site).replaceAll(",", "-")}`;
      item.id = id;
      const label = document.createElement("label");
      label.htmlFor = `${id}-text`;
      const number = document.createElement("span");
      number.className = "clue-number";
      number.textContent = String(site.number);
      const pattern = document.createElement("span");
      pattern.className = "pattern";
      label.append(number, " ", pattern);
      const field = document.createElement("input");
      field.id = `${id}-text`;
      field.type = "text";
      field.placeholder = "no clue yet";
      field.setAttribute("aria-label", `clue of ${slotName(site)}, ${site.cells.length} letters`);
      field.addEventListener("focus", () => moveTo(site.cells[0][0], site.cells[0][1], site.dir));
      field.addEventListener("input", () => {
        const text = field.value;
        if (text.trim()) puzzle.clues[clueKey(site)] = text;
        else delete puzzle.clues[clueKey(site)];
        puzzle.edited = true;
        save();
        renderClues(slotAt(cursor.r, cursor.c, cursor.dir));
      });
      field.addEventListener("keydown", (event) => onClueKey(event, site));
      item.append(label, field);
      return item;
    });
    $(`clues-${dir}`).replaceChildren(...items);
  }
}

// Keys in a clue's field: Enter goes to the next clue, Esc back to the grid.
function onClueKey(event, site) {
  if (event.key === "Escape") {
    event.preventDefault();
    moveTo(site.cells[0][0], site.cells[0][1], site.dir);
    $("grid").focus();
  } else if (event.key === "Enter") {
    event.preventDefault();
    const fields = [...document.querySelectorAll("#clue-pane input")];
    const next = fields[fields.indexOf(event.target) + (event.shiftKey ? -1 : 1)];
    if (next) next.focus();
  }
}

function focusClue() {
  const slot = slotAt(cursor.r, cursor.c, cursor.dir);
  if (!slot) return say("The cursor is on no entry: move it to the entry to clue.");
  const field = $(`clue-${clueKey(slot).replaceAll(",", "-")}-text`);
  if (field) field.focus();
}

// A clue from WordNet (POST /api/suggest) for each entry whose letters are
// all there and that has no clue yet.
async function suggestClues() {
  const wanted = sites().filter((site) => !(puzzle.clues[clueKey(site)] || "").trim())
    .map((site) => [site, site.cells.map(([r, c]) => cellAt(r, c).letter).join("")])
    .filter(([site, word]) => [...word].length === site.cells.length);
  if (!wanted.length) return say("Every full entry has a clue already (a suggestion needs the entry's letters).");
  say("suggesting clues…");
  try {
    const {suggestions} = await api("/api/suggest", {words: wanted.map(([, word]) => word)});
    let given = 0;
    for (const [site, word] of wanted) {
      if (suggestions[word]) {
        puzzle.clues[clueKey(site)] = suggestions[word];
        given++;
      }
    }
    puzzle.edited = true;
    save();
    render();
    const none = wanted.length - given;
    say(`Suggested ${given} clue${given === 1 ? "" : "s"} from WordNet` +
      (none ? `; ${none} of the entries have none.` : "."), given ? "good" : "");
  } catch (error) {
    say(error.message, "bad");
  }
}

// The clues as the API takes them: [{number, direction, clue}] for every entry.
function cluesList() {
  return sites().map((site) => ({number: site.number, direction: site.dir, clue: puzzle.clues[clueKey(site)] || ""}));
}

// Clues from the API ([{number, direction, clue}]) by the first cell of
// their entries in `g`.
function cluesOf(g, given) {
  const clues = {};
  for (const site of structureOf(g).list) {
    const found = (given || []).find((c) => c.number === site.number && c.direction === site.dir);
    if (found && found.clue.trim() && found.clue !== slotName(site)) clues[clueKey(site)] = found.clue;
  }
  return clues;
}

// ------------------------------------------------------------------ verdicts

// Why a core is not minimal, by what gave the proof: a fill's search proof
// names every site it looked at (solve never shrinks it); Check shrinks the
// core for as long again as its verdict took, and may stop before the end.
const WIDE = {
  fill: "they are the sites the search's proof covers; Check narrows them down.",
  check: "Check stopped narrowing them down after as long again as the proof took.",
};

// Mark a proof's core. A core that is not minimal is drawn hatched and said
// to be so: fewer of its sites may already be impossible to fill together.
function showVerdict(reason, cells, heading, sticky = false, minimal = true, from = "fill") {
  marked = new Set(cells.map(([r, c]) => key(r, c)));
  wide = !minimal;
  const box = $("verdict");
  box.replaceChildren();
  const title = document.createElement("strong");
  title.textContent = heading;
  const text = document.createElement("p");
  text.textContent = reason;
  box.append(title, text);
  if (!minimal) {
    const note = document.createElement("p");
    note.className = "not-minimal";
    note.textContent = `The marked sites (${cells.length} cells, hatched) are not known to be ` +
      `a minimal core: ${WIDE[from]} Fewer of them may already be impossible to fill together.`;
    box.append(note);
  }
  box.hidden = false;
  box.dataset.sticky = sticky ? "yes" : "";
  box.dataset.minimal = minimal ? "yes" : "no";
  render();
}

function clearVerdict() {
  if ($("verdict").hidden && !marked.size) return;
  marked.clear();
  $("verdict").hidden = true;
  $("verdict").dataset.sticky = "";
  render();
}

// The cells of a proof's core, from its sites' numbers and directions.
function coreCells(proof) {
  const cells = [];
  for (const site of proof.core) {
    const found = sites().find((s) => s.number === site.number && s.dir === site.direction);
    if (found) cells.push(...found.cells);
  }
  return cells;
}

// ------------------------------------------------------------------ fills and checks

function needsDictionary() {
  if (grid.mode === "exact" || chosenDicts().length) return false;
  say("Choose a dictionary first (under “dictionaries and search options”).", "bad");
  $("options").open = true;
  return true;
}

// A fill or a check is under way: the progress bar and line, Cancel on.
// A fill, check, make or entry's words (POST /api/fill) started in a worker
// process: the job it begins, what the status line says, then its progress.
async function runInWorker(body, started, saying) {
  try {
    const view = await api("/api/fill", body);
    beginJob(Object.assign(started, {id: view.id}));
    say(saying);
    pollFill();
  } catch (error) {
    say(error.message, "bad");
  }
}

function beginJob(started) {
  job = Object.assign(started, {puzzle: puzzle.id, shape: jobShape(started.kind), began: performance.now()});
  $("best").hidden = true;
  $("cancel").disabled = false;
  $("fill").disabled = true;
  $("another").disabled = true;
  $("check").disabled = true;
  $("progress").hidden = false;
  showProgress("starting", 0);
  render();
}

function showProgress(phase, elapsed) {
  const limit = chosenLimit();
  $("progress-bar").value = Math.min(elapsed / limit, 1);
  $("phase").textContent = `${phase} · ${elapsed.toFixed(1)} s of at most ${limit} s`;
}

function endJob() {
  if (job && job.timer) clearTimeout(job.timer);
  job = null;
  $("cancel").disabled = true;
  $("fill").disabled = false;
  $("another").disabled = false;
  $("check").disabled = false;
  $("progress").hidden = true;
  $("best").hidden = true;
  render();
}

// The grid as a job reads it: a fill keeps all letters but a fill's, a
// check takes them all.
function jobShape(kind) {
  return kind === "check" ? rowsOf().join("\n") : shape();
}

// Whether the grid a job started on is still the one shown, as it was.
function stillShown(started) {
  return started.puzzle === puzzle.id && jobShape(started.kind) === started.shape;
}

const cancelled = (kind) => ({check: "Check cancelled.", make: "Make cancelled.", suggest: "The trials were cancelled."}[kind] || "Fill cancelled.");

async function cancelJob() {
  if (!job) return;
  const ended = job;
  endJob();
  say(cancelled(ended.kind));
  try { await api(`/api/fill/${ended.id}`, undefined, "DELETE"); } catch (error) { say(error.message, "bad"); }
}

// Check runs in a worker process as a fill does (POST /api/fill with
// "check"): its progress shows, and Cancel stops it at once.
async function check() {
  if (job || needsDictionary()) return;
  const body = Object.assign(puzzleBody(), {page: PAGE, check: true});
  await runInWorker(body, {kind: "check"}, "checking…");
}

function finishCheck(answer, started, elapsed) {
  if (!stillShown(started)) return say("The grid changed while it was being checked: check it again.", "bad");
  const seconds = elapsed.toFixed(1);
  if (answer.status === "solved") {
    clearVerdict();
    say(`This grid can be filled (a fill was found in ${answer.stats.nodes} nodes, ${seconds} s).`, "good");
  } else if (answer.status === "unsolvable") {
    const heading = `Cannot be filled (proof: ${answer.proof.layer}, ${seconds} s)`;
    const minimal = answer.proof.minimal !== false;
    estimate = {shape: rowsOf().join("\n"), words: wordsKey(), difficulty: null, verdict: true, checked: true};
    showVerdict(answer.reason, coreCells(answer.proof), heading, true, minimal, "check");
    say(minimal ? "The core, the sites that cannot all be filled, is marked on the grid."
      : "No fill exists; the sites the proof needed are marked (not known to be a minimal core).", "bad");
  } else {
    say(`No verdict within the time limit of ${answer.stats.seconds.toFixed(1)} s.`, "bad");
  }
}

async function startFill(region, seed = null) {
  if (job || needsDictionary()) return;
  const body = puzzleBody(kept, true);
  body.page = PAGE;
  if (seed !== null) body.seed = seed;
  if (region) body.region = regionCells();
  await runInWorker(body, {kind: "fill", region, objective: body.maximize || null, seed},
                    region ? "filling the selection…" : seed !== null ? `filling again (seed ${seed})…` : "filling…");
}

// Make: patterns of the size, blocks and symmetry given, filled from the
// chosen dictionaries until one fills (`crossword make`, in a worker as a
// fill is); the crossword made opens as a new puzzle.
async function makeCrossword() {
  if (job || needsDictionary()) return;
  const body = {make: true, page: PAGE, dict: chosenDicts(), size: `${$("new-rows").value}x${$("new-cols").value}`,
    symmetry: $("symmetry").value};
  const blocks = $("pattern-blocks").value.trim();
  if (blocks) body.blocks = blocks;
  if ($("timeout").value !== "") body.timeout = Number($("timeout").value);
  if ($("min-score").value.trim() !== "") body["min-score"] = $("min-score").value.trim();
  Object.assign(body, curationOptions());
  await runInWorker(body, {kind: "make"}, "making a crossword…");
}

function finishMake(answer) {
  if (answer.status !== "solved" || !answer.solutions || !answer.solutions.length) {
    return say(`No crossword: ${answer.summary || answer.reason || answer.status}`, "bad");
  }
  const made = answer.pattern;
  const g = fromRows(made.grid, "lexicon", null, `made ${made.size} (seed ${made.seed})`);
  withSolution(g, answer.solutions[0].grid);
  startPuzzle(g, {symmetry: made.symmetry});
  showGrids([]);
  say(`Made: ${answer.summary}`, "good");
  showScore(answer.score, null, false);
}

// A word search from a list of words (`crossword wordsearch make`); the
// seed it answers with makes the same one again for its PDF.
let wordSearch = null;  // the body that made the word search shown, with its seed

function wordSearchBody() {
  const words = $("ws-words").value.split("\n").map((w) => w.trim()).filter(Boolean);
  const body = {words, directions: $("ws-level").value};
  if ($("ws-size").value.trim()) body.size = $("ws-size").value.trim();
  return body;
}

async function makeWordSearch() {
  const body = wordSearchBody();
  if (!body.words.length) return ($("ws-status").textContent = "Write the words to hide, one a line.");
  $("ws-status").textContent = "making a word search…";
  $("ws-pdf").disabled = true;
  try {
    const made = await api("/api/wordsearch", body);
    $("ws-grid").textContent = made.grid.map((row) => [...row].join(" ")).join("\n");
    if (made.status === "solved") {
      wordSearch = {...body, seed: made.seed};
      $("ws-pdf").disabled = false;
      $("ws-status").textContent = `${made.placements.length} words hidden (seed ${made.seed}).`;
    } else {
      $("ws-status").textContent = made.reason || `No word search: ${made.status}.`;
    }
  } catch (error) {
    $("ws-status").textContent = error.message;
  }
}

async function wordSearchPdf() {
  if (!wordSearch) return;
  const response = await request("/api/wordsearch", {...wordSearch, kind: "pdf", paper: $("paper").value});
  if (response.refused) return ($("ws-status").textContent = (await response.json()).error);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = "wordsearch.pdf";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

// Another fill: the same fill with a new seed (a different search order).
function anotherFill() {
  startFill(false, 2 + Math.floor(Math.random() * (SEEDS - 2)));
}

function regionCells() {
  const cells = [];
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) if (selected(r, c)) cells.push([r, c]);
  }
  return cells;
}

async function pollFill() {
  const started = job;
  if (!started) return;
  let view;
  try {
    view = await api(`/api/fill/${started.id}`, undefined, "GET");
  } catch (error) {
    if (job !== started) return;
    endJob();
    return say(error.message, "bad");
  }
  if (job !== started) return;
  showProgress(view.phase, view.elapsed);
  if (view.best) showBest(view.best, view.better_fills, started.objective);
  if (view.state === "running") {
    started.timer = setTimeout(pollFill, 200);
    return;
  }
  endJob();
  if (view.state === "cancelled") return say(`${cancelled(started.kind)}`);
  if (view.status >= 400) return say(view.answer ? view.answer.error : view.phase, "bad");
  if (started.kind === "check") finishCheck(view.answer, started, view.elapsed);
  else if (started.kind === "make") finishMake(view.answer);
  else if (started.kind === "suggest") finishSuggest(view.answer, started);
  else finishFill(view.answer, started, view.elapsed);
}

// The best fill so far of a fill that maximizes, as the worker tells it.
function showBest(best, count, objective) {
  const fills = count === 1 ? "1 better fill" : `${count} better fills`;
  $("best").textContent = `best so far: ${objective} ${best.value} ` +
    `(${fills}, the last after ${best.seconds.toFixed(2)} s, ${best.nodes.toLocaleString()} nodes)`;
  $("best").hidden = false;
}

function finishFill(answer, started, elapsed) {
  if (!stillShown(started)) {
    return say("The grid changed while it was being filled: the fill was not applied.", "bad");
  }
  if (answer.solutions.length) {  // solved, or with maximize the best fill found in the time
    const rows = answer.solutions[0].grid;
    change(() => rows.forEach((row, r) => [...row].forEach((ch, c) => {
      const cell = inside(r, c) ? cellAt(r, c) : null;
      if (cell && !cell.block && ch !== "." && ch !== BLOCK && cell.kind !== "locked" && cell.kind !== "typed") {
        Object.assign(cell, {letter: ch, kind: "fill"});
      }
    })));
    const seed = started.seed !== null ? `, seed ${started.seed}` : "";
    const how = `${answer.stats.strategy}, ${answer.stats.engine} engine, ${answer.stats.nodes} nodes${seed}`;
    if (answer.status === "solved") say(`Filled in ${elapsed.toFixed(1)} s (${how}).`, "good");
    else say(`The time limit was reached: the best fill found is shown (${how}).`, "good");
    showScore(answer.score, started.objective, started.region);
  } else if (answer.status === "unsolvable") {
    const cells = answer.proof ? coreCells(answer.proof) : [];
    showVerdict(answer.reason, cells, "No fill exists", true, !answer.proof || answer.proof.minimal !== false);
    say("No fill exists.", "bad");
  } else {
    say(`No fill found within the time limit (${elapsed.toFixed(1)} s).`, "bad");
  }
}

// A fill's score, when its words are scored: the lowest word score, the
// total and the mean; with maximize, whether it is proved the best or how
// good a fill could still be (the bound).
function showScore(score, objective, region) {
  const box = $("score");
  box.hidden = true;
  if (!score || score.min === undefined) return;
  const whose = region ? "score of the filled entries" : "score";
  let text = `${whose}: min ${score.min} · sum ${score.sum} · mean ${score.mean}`;
  box.className = "";
  if (objective && score.optimal) {
    text += ` — optimal ${objective} (proved)`;
    box.className = "optimal";
  } else if (objective && score.bound !== null && score.bound !== undefined) {
    text += ` — not proved optimal: ${objective} at most ${score.bound}`;
  } else if (objective) {
    text += " — not proved optimal";
  }
  // what an editor reads next: the weakest entries, and how many fall below the line
  const words = [];
  if (score.below !== undefined && score.below !== null) {
    words.push(`${score.words} entries, ${score.below} below the acceptable line (${score.line})`);
  }
  if (score.lowest && score.lowest.length) {
    words.push(`lowest: ${score.lowest.map((w) => `${w.word} ${w.score}`).join(", ")}`);
  }
  const line = document.createElement("span");
  line.className = "entries";
  line.textContent = words.join("; ");
  box.replaceChildren(text, ...(words.length ? [document.createElement("br"), line] : []));
  box.hidden = false;
}

// ------------------------------------------------------------------ editing

function partners(r, c) {
  const R = grid.rows - 1, C = grid.cols - 1;
  const by = {
    none: [[r, c]],
    rot180: [[r, c], [R - r, C - c]],
    rot90: grid.rows === grid.cols ? [[r, c], [c, C - r], [R - r, C - c], [R - c, r]] : [[r, c], [R - r, C - c]],
    "mirror-lr": [[r, c], [r, C - c]],
    "mirror-tb": [[r, c], [R - r, c]],
  };
  return by[$("symmetry").value] || by.none;
}

function toggleBlock(r, c) {
  const block = !cellAt(r, c).block;
  change(() => {
    for (const [i, j] of partners(r, c)) {
      const cell = cellAt(i, j);
      if (block) Object.assign(cell, {block: true, letter: "", kind: ""});
      else cell.block = false;
    }
  });
}

function typeLetter(ch) {
  const cell = cellAt(cursor.r, cursor.c);
  if (cell.block) return say("This is a block: press . to open it, or move to an open cell.");
  if (cell.kind === "locked") return say("This letter is locked: Enter unlocks its entry.");
  let letter = ch;
  const words = grid.mode === "exact" ? grid.words.join("") : "";
  if (grid.mode === "lexicon" || words === words.toUpperCase()) {
    letter = ch.toUpperCase();  // dictionaries are upper case, and so are most word lists
    if ([...letter].length !== 1) return say(`${ch} is ${letter} in upper case: a cell holds one letter.`, "bad");
  } else if (words === words.toLowerCase()) {
    letter = ch.toLowerCase();
  }
  change(() => Object.assign(cell, {letter, kind: "typed"}));
  step(1, false);
}

function erase(back) {
  const cell = cellAt(cursor.r, cursor.c);
  if (back && (!cell.letter || cell.block)) step(-1, false);
  const target = cellAt(cursor.r, cursor.c);
  if (target.kind === "locked") return say("This letter is locked: Enter unlocks its entry.");
  if (!target.block) change(() => Object.assign(target, {letter: "", kind: ""}));
}

function toggleLock() {
  const slot = slotAt(cursor.r, cursor.c, cursor.dir);
  if (!slot) return;
  const cells = slot.cells.map(([r, c]) => cellAt(r, c)).filter((cell) => cell.letter);
  const lock = cells.some((cell) => cell.kind !== "locked");
  change(() => cells.forEach((cell) => { cell.kind = lock ? "locked" : "typed"; }));
  say(lock ? "Entry locked: fills keep it." : "Entry unlocked.");
}

// Move along the entry's direction; within the entry unless `free`.
function step(by, free) {
  const [dr, dc] = cursor.dir === "across" ? [0, by] : [by, 0];
  const r = cursor.r + dr, c = cursor.c + dc;
  if (inside(r, c) && (free || open(r, c))) moveTo(r, c);
}

function moveTo(r, c, dir = cursor.dir) {
  cursor = {r, c, dir};
  render();
  scheduleCandidates();
}

// The entries in reading order, Across then Down; Tab goes to the next,
// Shift+Tab to the previous. Past the last (or before the first) the key is
// the browser's again: the focus leaves the grid.
function nextSlot(by) {
  const list = sites();
  if (!list.length) return false;
  const order = [...list.filter((s) => s.dir === "across"), ...list.filter((s) => s.dir === "down")];
  const now = slotAt(cursor.r, cursor.c, cursor.dir);
  const i = (now ? order.indexOf(now) : -1) + by;
  if (i < 0 || i >= order.length) return false;
  const [r, c] = order[i].cells.find(([i2, j]) => !cellAt(i2, j).letter) || order[i].cells[0];
  moveTo(r, c, order[i].dir);
  return true;
}

// Esc clears the selection and the marks; with nothing to clear, it leaves
// the grid for the candidate list (Esc there comes back), or else the clue
// of the entry.
function escape() {
  if (selection || marked.size) {
    selection = null;
    clearVerdict();
    return render();
  }
  const first = document.querySelector("#candidates button");
  if (first) first.focus();
  else focusClue();
}

function onKey(event) {
  keyAt = performance.now();
  const {key: k} = event;
  const ctrl = event.ctrlKey || event.metaKey;
  const arrows = {ArrowLeft: ["across", -1], ArrowRight: ["across", 1], ArrowUp: ["down", -1], ArrowDown: ["down", 1]};
  if (ctrl && (k === "z" || k === "Z")) restore(event.shiftKey ? redoStack : undoStack, event.shiftKey ? undoStack : redoStack);
  else if (ctrl && (k === "y" || k === "Y")) restore(redoStack, undoStack);
  else if (ctrl || event.altKey) return;
  else if (arrows[k]) {
    const [dir, by] = arrows[k];
    if (dir !== cursor.dir) moveTo(cursor.r, cursor.c, dir);
    else step(by, true);
  } else if (k === "Tab") {
    if (!nextSlot(event.shiftKey ? -1 : 1)) return;  // out of the grid
  } else if (k === " ") moveTo(cursor.r, cursor.c, cursor.dir === "across" ? "down" : "across");
  else if (k === "Backspace") erase(true);
  else if (k === "Delete") erase(false);
  else if (k === "." || k === "#") toggleBlock(cursor.r, cursor.c);
  else if (k === "Enter") toggleLock();
  else if (k === "Escape") escape();
  else if ([...k].length === 1 && /[\p{L}\p{N}]/u.test(k)) typeLetter(k);
  else return;
  event.preventDefault();
}

// Shortcuts for the main actions, anywhere on the page: Alt and a letter
// (by the key's place, so that they work with any keyboard layout).
const SHORTCUTS = {
  KeyO: () => openDialog(),
  KeyN: () => newGrid(),
  KeyP: () => newPattern(),
  KeyM: () => makeCrossword(),
  KeyW: () => { if (!$("wordsearch-dialog").open) $("wordsearch-dialog").showModal(); },
  KeyS: () => exportAs("json"),
  KeyA: (event) => (event.shiftKey ? anotherFill() : startFill(false)),
  KeyR: () => { if (selection) startFill(true); },
  KeyC: () => check(),
  KeyE: () => suggestEntry(),
  KeyX: () => cancelJob(),
  KeyG: () => $("grid").focus(),
  KeyL: () => focusClue(),
};

function onShortcut(event) {
  if ($("open-dialog").open || $("wordsearch-dialog").open) return;
  const ctrl = event.ctrlKey || event.metaKey;
  if (ctrl && !event.altKey && event.code === "KeyS") {  // Ctrl+S saves too, as in editors
    event.preventDefault();
    return exportAs("json");
  }
  if (!event.altKey || ctrl || !SHORTCUTS[event.code]) return;
  event.preventDefault();
  SHORTCUTS[event.code](event);
}

// ------------------------------------------------------------------ the mouse

let dragFrom = null;

function cellOf(event) {
  const view = event.target.closest(".cell");
  return view ? [Number(view.dataset.r), Number(view.dataset.c)] : null;
}

function onMouseDown(event) {
  const at = cellOf(event);
  if (!at) return;
  const [r, c] = at;
  $("grid").focus();
  if ($("block-mode").getAttribute("aria-pressed") === "true") return toggleBlock(r, c);
  if (event.shiftKey) {
    selection = {r0: cursor.r, c0: cursor.c, r1: r, c1: c};
    return render();
  }
  selection = null;
  dragFrom = [r, c];
  if (r === cursor.r && c === cursor.c) moveTo(r, c, cursor.dir === "across" ? "down" : "across");
  else moveTo(r, c);
  event.preventDefault();
}

function onMouseOver(event) {
  const at = cellOf(event);
  if (!dragFrom || !at || (at[0] === dragFrom[0] && at[1] === dragFrom[1])) return;
  selection = {r0: dragFrom[0], c0: dragFrom[1], r1: at[0], c1: at[1]};
  render();
}

// ------------------------------------------------------------------ open, new, export

async function base64Of(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

// The largest file the server takes: a request of at most max_upload bytes
// carries it in base64 (4 bytes for every 3), with a little room for the rest.
function largestFile() {
  return Math.floor((info.max_upload - 4096) * 3 / 4);
}

function tooLarge(file) {
  if (!file || file.size <= largestFile()) return null;
  return `${file.name} is ${file.size.toLocaleString()} bytes: this server takes files of at most ` +
    `${largestFile().toLocaleString()} bytes (sent in base64 within its limit of ` +
    `${info.max_upload.toLocaleString()} bytes a request, --max-upload).`;
}

function openDialog() {
  $("open-error").textContent = "";
  if (!$("open-dialog").open) $("open-dialog").showModal();
}

async function openPuzzle(event) {
  event.preventDefault();
  const upload = $("open-upload").files[0], words = $("open-words-upload").files[0];
  const large = tooLarge(upload) || tooLarge(words);
  if (large) return ($("open-error").textContent = large);
  const body = {};
  // Files go as their bytes, so that every format (.puz too) and encoding
  // reaches the readers as the CLI would read it.
  if (upload) Object.assign(body, {puzzle_base64: await base64Of(upload), name: upload.name});
  else if ($("open-path").value) body.path = $("open-path").value;
  else return ($("open-error").textContent = "Choose a puzzle file.");
  if (words) Object.assign(body, {words_base64: await base64Of(words), words_name: words.name});
  else if ($("open-words-path").value) body.words_path = $("open-words-path").value;
  if ($("open-format").value) body.format = $("open-format").value;
  if ($("open-answers").checked) body.answers = true;
  try {
    const answer = await api("/api/open", body);
    $("open-dialog").close();
    // a .puz or ipuz file goes with its exports, which keep what it publishes
    const original = ["puz", "ipuz"].includes(answer.grids[0].format) ? body : null;
    if (original) { delete original.words_base64; delete original.words_path; delete original.answers; }
    const first = answer.grids[0];
    useGrid(first, original, true);
    showGrids(answer.grids, original);
    const more = answer.grids.length > 1 ? ` (grid 1 of ${answer.grids.length}: choose another above the grid)` : "";
    const own = first.solution ? " Its solution is shown as a fill (in blue)." : "";
    say(`Opened ${first.source}${first.title ? ` (${first.title})` : ""}${more}.${own}`);
  } catch (error) {
    $("open-error").textContent = error.message;
  }
}

// Show a grid that was opened: as a puzzle of its own (`fresh`), or in
// place of the grid shown (another grid of the same file).
function useGrid(opened, original = null, fresh = false) {
  const g = fromRows(opened.rows, opened.mode, opened.words, opened.source, opened.kinds);
  withSolution(g, opened.solution);
  if (fresh) {
    startPuzzle(g, {title: opened.title || "", author: opened.author || "", original,
      clues: cluesOf(g, opened.clues), symmetry: opened.symmetry || null});
  } else {
    undoStack.push(snapshot());
    redoStack = [];
    grid = g;
    puzzle.original = original;
    cursor = firstCursor();
    selection = null;
    changed();
  }
  // the size fields (for New and Pattern) start from the grid opened
  $("new-rows").value = String(grid.rows);
  $("new-cols").value = String(grid.cols);
  $("grid").focus();
}

// A .puz or ipuz file's solution (an export of this page's, say) shows in
// the squares its player's grid leaves empty, as a fill: what was exported
// opens as it was.
function withSolution(g, solution) {
  if (!solution) return;
  solution.forEach((row, r) => [...row].forEach((ch, c) => {
    const cell = r < g.rows && c < g.cols ? g.cells[r * g.cols + c] : null;
    if (cell && !cell.block && !cell.letter && ch !== "." && ch !== BLOCK) Object.assign(cell, {letter: ch, kind: "fill"});
  }));
}

// A file of several grids (RP 2016): a choice of them above the grid.
function showGrids(grids, original = null) {
  const choice = $("grid-choice");
  choice.replaceChildren();
  choice.hidden = grids.length < 2;
  grids.forEach((opened, i) => {
    const option = document.createElement("option");
    option.value = String(i);
    option.textContent = opened.source;
    choice.append(option);
  });
  choice.onchange = () => useGrid(grids[Number(choice.value)], original);
}

function newGrid() {
  const rows = Number($("new-rows").value), cols = Number($("new-cols").value);
  const fits = (n) => Number.isInteger(n) && n >= 2 && n <= MAX_SIDE;
  if (!fits(rows) || !fits(cols)) return say(`A grid is 2 to ${MAX_SIDE} cells a side.`, "bad");
  startPuzzle(emptyGrid(rows, cols));
  showGrids([]);
  $("grid").focus();
}

// A random pattern from the generator (`crossword grid`), as a new grid.
async function newPattern() {
  const body = {size: `${$("new-rows").value}x${$("new-cols").value}`, symmetry: $("symmetry").value};
  const blocks = $("pattern-blocks").value.trim();
  if (blocks) body.blocks = blocks;
  say("making a pattern…");
  try {
    const made = await api("/api/pattern", body);
    if (!made.grid) return say(`No pattern: ${made.reason}`, "bad");
    useGrid({rows: made.grid, mode: "lexicon", words: null, source: `pattern ${made.size} (seed ${made.seed})`}, null, true);
    showGrids([]);
    say(`A ${made.size} pattern with ${made.blocks} blocks and ${made.slots} entries ` +
      `(seed ${made.seed}, ${made.symmetry}).`);
  } catch (error) {
    say(error.message, "bad");
  }
}

// A file name from the puzzle's name.
function fileName(kind) {
  const base = puzzleName().normalize("NFKD").replace(/[^\w.-]+/gu, "-").replace(/^-+|-+$/gu, "");
  return `${base.slice(0, 60) || "crossword"}.${kind}`;
}

// Download the grid as `kind`; JSON is the work file, which Open reads back:
// the API's export with the page's state (docs/serve.md#the-work-file).
async function exportAs(kind) {
  const body = {grid: rowsOf(), kind, title: puzzle.title, author: puzzle.author, clues: cluesList()};
  if (kind === "json") {
    body.workbench = {version: 1, kinds: store.pack(grid).kinds, mode: grid.mode,
      words: grid.mode === "exact" ? grid.words : null, symmetry: $("symmetry").value};
  }
  if (marked.size) body.marked = [...marked].map((k) => k.split(",").map(Number));
  if (kind === "puz" || kind === "ipuz" || kind === "pdf") {
    if (puzzle.original) body.original = puzzle.original;
  }
  if (kind === "puz" || kind === "ipuz") body.progress = $("export-progress").checked;
  if (kind === "pdf") body.paper = $("paper").value;
  let blob;
  try {
    const response = await request("/api/export", body);
    if (response.refused) {
      const data = await response.json().catch(() => ({}));
      return say(data.error || response.statusText, "bad");
    }
    blob = await response.blob();
  } catch (error) {
    return say(error.message, "bad");
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = fileName(kind);
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  if (kind === "json") say(`Saved as ${link.download}: Open reads it back.`, "good");
}

// ------------------------------------------------------------------ start

function addOptions(select, values) {
  for (const value of values) {
    const option = document.createElement("option");
    option.value = option.textContent = value;
    select.append(option);
  }
}

function savePrefs() {
  store.savePrefs({...store.prefs(), dicts: chosenDicts()});
}

// The puzzle this tab shows: the one it showed before a reload; else the
// last changed puzzle that no other tab shows; else a new empty grid.
async function firstPuzzle() {
  const own = store.load(store.tabPuzzle());
  if (own) return own;
  if (store.tabPuzzle()) return null;  // this tab's grid was never changed: a new one again
  const elsewhere = await store.shownElsewhere();
  const free = store.recent().find((p) => !elsewhere.has(p.id) && store.load(p.id));
  return free ? store.load(free.id) : null;
}

async function start() {
  store.adoptLegacy((old, symmetry) => {
    grid = old;
    grid.source = grid.source || "grid";
    $("symmetry").value = symmetry || "rot180";
    puzzle.edited = true;
    return record();
  });
  try {
    info = await api("/api/info", undefined, "GET");
  } catch (error) {
    say(`The server does not answer: ${error.message}`, "bad");
  }
  const prefs = store.prefs();
  addOptions($("engine"), info.engines || []);
  addOptions($("strategy"), info.strategies || []);
  addOptions($("open-format"), info.formats || []);
  $("timeout").max = info.time_limit;
  $("timeout").placeholder = info.time_limit;
  for (const [i, dict] of (info.dicts || []).entries()) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = dict.name;
    box.checked = prefs.dicts ? prefs.dicts.includes(dict.name) : i === 0;
    box.addEventListener("change", () => { savePrefs(); showMinScore(); scheduleCandidates(); });
    const kind = [dict.scored ? "scored" : "", dict.shipped ? "shipped with crossword" : ""].filter(Boolean);
    label.append(box, ` ${dict.name} (${dict.words.toLocaleString()} words${kind.map((k) => `, ${k}`).join("")})`);
    $("dicts").append(label);
  }
  showMinScore();
  if (info.root) {
    const files = (await api("/api/files", undefined, "GET")).files;
    addOptions($("open-path"), files);
    addOptions($("open-words-path"), files);
    $("open-served").hidden = false;
  }
  const kept = await firstPuzzle();
  if (kept) {
    adopt(kept);
  } else {
    puzzle = newPuzzle();
    grid = emptyGrid(15, 15);
    cursor = firstCursor();
  }
  store.show(puzzle.id);
  store.setTabPuzzle(puzzle.id);
  wire();
  showPuzzleList();
  showPuzzleFields();
  render();
  scheduleCandidates();
  $("grid").focus();
  document.body.dataset.ready = "true";
}

function wire() {
  const board = $("grid");
  board.addEventListener("keydown", onKey);
  board.addEventListener("mousedown", onMouseDown);
  board.addEventListener("mouseover", onMouseOver);
  document.addEventListener("keydown", onShortcut);
  document.addEventListener("mouseup", () => { dragFrom = null; render(); });
  window.addEventListener("resize", fitGrid);
  window.addEventListener("storage", (event) => {
    if (event.key === store.puzzleKey(puzzle.id) && event.newValue) adopt(JSON.parse(event.newValue), false);
    else if (store.isPrefsKey(event.key)) { showCuration(); scheduleCandidates(); }
    else if (store.isIndexKey(event.key)) showPuzzleList();
  });
  $("undo").addEventListener("click", () => restore(undoStack, redoStack));
  $("redo").addEventListener("click", () => restore(redoStack, undoStack));
  $("block-mode").addEventListener("click", (event) => {
    const on = event.currentTarget.getAttribute("aria-pressed") !== "true";
    event.currentTarget.setAttribute("aria-pressed", String(on));
  });
  $("symmetry").addEventListener("change", () => { puzzle.symmetry = $("symmetry").value; if (puzzle.kept) save(); });
  $("min-score").addEventListener("change", scheduleCandidates);
  for (const id of ["banned", "preferred"]) {
    let timer = null;
    $(id).addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(readCuration, 500); });
    $(id).addEventListener("change", () => { clearTimeout(timer); readCuration(true); });
  }
  showCuration();
  $("suggest-entry").addEventListener("click", suggestEntry);
  $("shade-few").checked = store.prefs().shade !== false;
  $("shade-few").addEventListener("change", () => {
    store.savePrefs({...store.prefs(), shade: $("shade-few").checked});
    render();
  });
  $("lock").addEventListener("click", () => { toggleLock(); board.focus(); });
  $("fill").addEventListener("click", () => startFill(false));
  $("another").addEventListener("click", anotherFill);
  $("fill-region").addEventListener("click", () => startFill(true));
  $("cancel").addEventListener("click", cancelJob);
  $("check").addEventListener("click", check);
  $("new-button").addEventListener("click", newGrid);
  $("pattern-button").addEventListener("click", newPattern);
  $("make-button").addEventListener("click", makeCrossword);
  $("wordsearch-button").addEventListener("click", () => $("wordsearch-dialog").showModal());
  $("wordsearch-form").addEventListener("submit", (event) => {
    const asked = event.submitter && event.submitter.value;
    if (asked === "make" || asked === "pdf") event.preventDefault();
    if (asked === "make") makeWordSearch();
    if (asked === "pdf") wordSearchPdf();
  });
  $("open-button").addEventListener("click", openDialog);
  $("puzzles").addEventListener("change", (event) => switchPuzzle(event.target.value));
  $("forget").addEventListener("click", forgetPuzzle);
  $("suggest-clues").hidden = !info.suggest;
  $("suggest-clues").addEventListener("click", suggestClues);
  for (const field of ["title", "author"]) {
    $(`puzzle-${field}`).addEventListener("input", (event) => {
      puzzle[field] = event.target.value;
      puzzle.edited = true;
      save();
    });
  }
  $("open-form").addEventListener("submit", (event) => {
    if (event.submitter && event.submitter.value === "open") openPuzzle(event);
  });
  for (const button of document.querySelectorAll("[data-export]")) {
    button.addEventListener("click", () => exportAs(button.dataset.export));
  }
  $("candidates").addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); board.focus(); }
  });
}

start();
