// The crossword workbench page. It talks to the server only through the
// JSON API of docs/serve.md; everything it shows is rebuilt from the grid
// kept here (and in localStorage, so a reload loses nothing).
"use strict";

const $ = (id) => document.getElementById(id);
const PAGE = crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);
const STORE = "crossword-workbench";
const BLOCK = "#";

// ------------------------------------------------------------------ state

// A cell: {block, letter, kind}; kind is "typed", "locked" (kept by fills
// and by typing) or "fill" (from an autofill; the next fill may change it).
let grid = {rows: 0, cols: 0, cells: [], mode: "lexicon", words: null, source: "new grid"};
let cursor = {r: 0, c: 0, dir: "across"};
let selection = null;      // {r0, c0, r1, c1} while cells are selected
let marked = new Set();    // "r,c" keys of a proof's core, shown in red
let info = {dicts: [], time_limit: 60};
let undoStack = [], redoStack = [];
let fill = null;           // {id, timer, shape} while a fill runs
let candidateAsk = 0;      // the number of the latest candidates request
let candidateRequest = null;  // its AbortController
let candidateLists = 0;    // candidate lists shown (body's data-lists: for tests)
let keyAt = 0;             // when the last key was pressed (body's data-latency: its list's delay)

const key = (r, c) => `${r},${c}`;
const cellAt = (r, c) => grid.cells[r * grid.cols + c];
const inside = (r, c) => r >= 0 && c >= 0 && r < grid.rows && c < grid.cols;
const open = (r, c) => inside(r, c) && !cellAt(r, c).block;

function emptyGrid(rows, cols) {
  const cells = [];
  for (let i = 0; i < rows * cols; i++) cells.push({block: false, letter: "", kind: ""});
  return {rows, cols, cells, mode: "lexicon", words: null, source: "new grid"};
}

function fromRows(rows, mode, words, source) {
  const cols = Math.max(...rows.map((row) => [...row].length));
  const g = emptyGrid(rows.length, cols);
  rows.forEach((row, r) => [...row.padEnd(cols, BLOCK)].forEach((ch, c) => {
    const cell = g.cells[r * cols + c];
    if (ch === BLOCK) cell.block = true;
    else if (ch !== ".") Object.assign(cell, {letter: ch, kind: "locked"});
  }));
  return Object.assign(g, {mode, words, source});
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

// The site numbering of a printed crossword (as pybridge.layout numbers them).
function sites() {
  const list = [], numbers = new Map();
  let n = 0;
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) {
      if (!open(r, c)) continue;
      const across = !open(r, c - 1) && open(r, c + 1);
      const down = !open(r - 1, c) && open(r + 1, c);
      if (!across && !down) continue;
      numbers.set(key(r, c), ++n);
      for (const [dir, go, dr, dc] of [["across", across, 0, 1], ["down", down, 1, 0]]) {
        if (!go) continue;
        const cells = [];
        for (let i = r, j = c; open(i, j); i += dr, j += dc) cells.push([i, j]);
        list.push({number: n, dir, cells});
      }
    }
  }
  return {list, numbers};
}

function slotAt(r, c, dir) {
  const through = sites().list.filter((s) => s.cells.some(([i, j]) => i === r && j === c));
  return through.find((s) => s.dir === dir) || through[0] || null;
}

// ------------------------------------------------------------------ undo

function snapshot() {
  return JSON.stringify({rows: grid.rows, cols: grid.cols, cells: grid.cells});
}

function change(edit) {
  const before = snapshot();
  edit();
  if (snapshot() === before) return;
  undoStack.push(before);
  if (undoStack.length > 500) undoStack.shift();
  redoStack = [];
  changed();
}

function restore(from, to) {
  if (!from.length) return;
  to.push(snapshot());
  Object.assign(grid, JSON.parse(from.pop()));
  changed();
}

function changed() {
  marked.clear();
  $("verdict").hidden = true;
  $("score").hidden = true;  // a fill's score is the fill's, not the edited grid's
  save();
  render();
  scheduleCandidates();
}

function save() {
  const state = {grid, symmetry: $("symmetry").value, dicts: chosenDicts()};
  try { localStorage.setItem(STORE, JSON.stringify(state)); } catch (e) { /* full: no matter */ }
}

// ------------------------------------------------------------------ drawing

let cellViews = [], builtShape = "";

function build() {
  const board = $("grid");
  board.replaceChildren();
  board.style.gridTemplateColumns = `repeat(${grid.cols}, var(--cell))`;
  cellViews = [];
  builtShape = `${grid.rows}x${grid.cols}`;
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) {
      const view = document.createElement("div");
      view.className = "cell";
      view.dataset.r = r;
      view.dataset.c = c;
      view.setAttribute("role", "gridcell");
      const number = document.createElement("span");
      number.className = "number";
      const letter = document.createElement("span");
      letter.className = "letter";
      view.append(number, letter);
      board.append(view);
      cellViews.push(view);
    }
  }
}

function render() {
  if (builtShape !== `${grid.rows}x${grid.cols}`) build();
  const {numbers} = sites();
  const slot = slotAt(cursor.r, cursor.c, cursor.dir);
  const inSlot = new Set(slot ? slot.cells.map(([i, j]) => key(i, j)) : []);
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) {
      const cell = cellAt(r, c), view = cellViews[r * grid.cols + c], k = key(r, c);
      view.classList.toggle("block", cell.block);
      view.classList.toggle("cursor", r === cursor.r && c === cursor.c);
      view.classList.toggle("slot", inSlot.has(k));
      view.classList.toggle("core", marked.has(k));
      view.classList.toggle("selected", selected(r, c));
      for (const kind of ["typed", "locked", "fill"]) view.classList.toggle(kind, cell.kind === kind);
      view.children[0].textContent = numbers.get(k) || "";
      view.children[1].textContent = cell.block ? "" : cell.letter;
    }
  }
  $("slot-title").textContent = slot ? slotName(slot) : "–";
  $("title").textContent = `${grid.source} · ${grid.rows}×${grid.cols} · ` +
    (grid.mode === "exact" ? `${grid.words.length} listed words` : "filled from the dictionaries");
  $("undo").disabled = !undoStack.length;
  $("redo").disabled = !redoStack.length;
  $("fill-region").disabled = !selection || !!fill;
}

function slotName(slot) {
  return `${slot.number}-${slot.dir === "across" ? "Across" : "Down"}`;
}

function selected(r, c) {
  if (!selection) return false;
  const {r0, c0, r1, c1} = selection;
  return r >= Math.min(r0, r1) && r <= Math.max(r0, r1) && c >= Math.min(c0, c1) && c <= Math.max(c0, c1);
}

function say(text, kind = "") {
  $("status").textContent = text;
  $("status").className = kind;
}

// ------------------------------------------------------------------ the API

async function api(path, body, method = "POST", signal = undefined) {
  const options = {method, headers: {}, signal};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({error: `${response.status} ${response.statusText}`}));
  if (!response.ok && response.status !== 202) throw new Error(data.error || response.statusText);
  return data;
}

function chosenDicts() {
  return [...document.querySelectorAll("#dicts input:checked")].map((box) => box.value);
}

// The quality options of a grid filled from the dictionaries, by the CLI's
// long names: min-score (solve, check, fills, candidates) and maximize
// (solve and whole-grid fills only).
function qualityOptions(objective) {
  const options = {};
  if (grid.mode === "exact") return options;  // a word list has no scores to cut or maximize
  if ($("min-score").value.trim() !== "") options["min-score"] = $("min-score").value.trim();
  if (objective && $("maximize").value) options.maximize = $("maximize").value;
  return options;
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
  return Object.assign(body, qualityOptions(objective));
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
  if (!slot) return showSlot(null);
  const body = {grid: rowsOf(), row: cursor.r, col: cursor.c, direction: slot.dir, limit: 100};
  if (grid.mode === "exact") body.words = grid.words;
  else if (!chosenDicts().length) return showSlot(slot, null, "choose a dictionary to see the words that fit");
  else Object.assign(body, {dict: chosenDicts()}, qualityOptions(false));
  if (candidateRequest) candidateRequest.abort();  // its list would come too late
  candidateRequest = new AbortController();
  try {
    const answer = await api("/api/candidates", body, "POST", candidateRequest.signal);
    if (ask === candidateAsk) showSlot(slot, answer);
  } catch (error) {
    if (ask === candidateAsk && error.name !== "AbortError") showSlot(slot, null, error.message);
  }
}

function showSlot(slot, answer = null, note = "") {
  const list = $("candidates");
  list.replaceChildren();
  $("slot-info").textContent = note;
  $("slot-info").className = note ? "note" : "";
  if (!answer) return;
  document.body.dataset.lists = String(++candidateLists);
  document.body.dataset.latency = String(Math.round(performance.now() - keyAt));
  const possible = answer.alive === null ? "" : `, ${answer.alive.toLocaleString()} possible`;
  $("slot-info").textContent =
    `${answer.site.pattern} · ${answer.fitting.toLocaleString()} fit${possible}`;
  for (const candidate of answer.candidates) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.textContent = candidate.word;
    if (candidate.score !== undefined) {
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = candidate.score;
      button.append(score);
    }
    if (candidate.dead) {
      item.className = "dead";
      button.title = `ruled out: ${candidate.why}`;
    }
    button.addEventListener("click", () => place(answer.site.cells, candidate.word));
    item.append(button);
    list.append(item);
  }
  if (answer.verdict) showVerdict(answer.verdict.reason, answer.verdict.cells, "The grid cannot be filled as it is");
  else if (!$("verdict").dataset.sticky) clearVerdict();
}

function place(cells, word) {
  change(() => [...word].forEach((ch, i) => {
    const cell = cellAt(...cells[i]);
    if (cell.kind !== "locked") Object.assign(cell, {letter: ch, kind: "typed"});
  }));
  $("grid").focus();
}

// ------------------------------------------------------------------ verdicts

function showVerdict(reason, cells, heading, sticky = false) {
  marked = new Set(cells.map(([r, c]) => key(r, c)));
  const box = $("verdict");
  box.replaceChildren();
  const title = document.createElement("strong");
  title.textContent = heading;
  const text = document.createElement("p");
  text.textContent = reason;
  box.append(title, text);
  box.hidden = false;
  box.dataset.sticky = sticky ? "yes" : "";
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
  const {list} = sites();
  const cells = [];
  for (const site of proof.core) {
    const found = list.find((s) => s.number === site.number && s.dir === site.direction);
    if (found) cells.push(...found.cells);
  }
  return cells;
}

// ------------------------------------------------------------------ check

function needsDictionary() {
  if (grid.mode === "exact" || chosenDicts().length) return false;
  say("Choose a dictionary first (under “dictionaries and search options”).", "bad");
  $("options").open = true;
  return true;
}

async function check() {
  if (needsDictionary()) return;
  say("checking…");
  try {
    const answer = await api("/api/check", puzzleBody());
    if (answer.status === "solved") {
      clearVerdict();
      say(`This grid can be filled (a fill was found in ${answer.stats.nodes} nodes).`, "good");
    } else if (answer.status === "unsolvable") {
      const heading = `Cannot be filled (proof: ${answer.proof.layer})`;
      showVerdict(answer.reason, coreCells(answer.proof), heading, true);
      say("The core, the sites that cannot all be filled, is marked on the grid.", "bad");
    } else {
      say(`No verdict within the time limit of ${answer.stats.seconds.toFixed(1)} s.`, "bad");
    }
  } catch (error) {
    say(error.message, "bad");
  }
}

// ------------------------------------------------------------------ fills

async function startFill(region) {
  if (fill || needsDictionary()) return;
  const body = puzzleBody(kept, true);
  body.page = PAGE;
  if (region) body.region = regionCells();
  try {
    const view = await api("/api/fill", body);
    fill = {id: view.id, shape: shape(), region, objective: body.maximize || null};
    $("best").hidden = true;
    $("cancel").disabled = false;
    $("fill").disabled = true;
    $("progress").hidden = false;
    say(region ? "filling the selection…" : "filling…");
    pollFill();
  } catch (error) {
    say(error.message, "bad");
  }
}

function regionCells() {
  const cells = [];
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) if (selected(r, c)) cells.push([r, c]);
  }
  return cells;
}

async function pollFill() {
  if (!fill) return;
  let view;
  try {
    view = await api(`/api/fill/${fill.id}`, undefined, "GET");
  } catch (error) {
    endFill();
    return say(error.message, "bad");
  }
  if (!fill) return;
  $("progress-bar").value = Math.min(view.elapsed / view.time_limit, 1);
  $("phase").textContent = `${view.phase} · ${view.elapsed.toFixed(1)} s of at most ${view.time_limit} s`;
  if (view.best) showBest(view.best, view.better_fills, fill.objective);
  if (view.state === "running") {
    fill.timer = setTimeout(pollFill, 200);
    return;
  }
  const started = fill;
  endFill();
  if (view.state === "cancelled") return say("Fill cancelled.");
  if (view.status >= 400) return say(view.answer ? view.answer.error : view.phase, "bad");
  finishFill(view.answer, started, view.elapsed);
}

// The best fill so far of a fill that maximizes, as the worker tells it.
function showBest(best, count, objective) {
  const fills = count === 1 ? "1 better fill" : `${count} better fills`;
  $("best").textContent = `best so far: ${objective} ${best.value} ` +
    `(${fills}, the last after ${best.seconds.toFixed(2)} s, ${best.nodes.toLocaleString()} nodes)`;
  $("best").hidden = false;
}

function finishFill(answer, started, elapsed) {
  if (shape() !== started.shape) {
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
    const how = `${answer.stats.strategy}, ${answer.stats.engine} engine, ${answer.stats.nodes} nodes`;
    if (answer.status === "solved") say(`Filled in ${elapsed.toFixed(1)} s (${how}).`, "good");
    else say(`The time limit was reached: the best fill found is shown (${how}).`, "good");
    showScore(answer.score, started.objective, started.region);
  } else if (answer.status === "unsolvable") {
    const cells = answer.proof ? coreCells(answer.proof) : [];
    showVerdict(answer.reason, cells, "No fill exists", true);
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
  box.textContent = text;
  box.hidden = false;
}

function endFill() {
  if (fill && fill.timer) clearTimeout(fill.timer);
  fill = null;
  $("cancel").disabled = true;
  $("fill").disabled = false;
  $("progress").hidden = true;
  $("best").hidden = true;
  render();
}

async function cancelFill() {
  if (!fill) return;
  const id = fill.id;
  endFill();
  say("Fill cancelled.");
  try { await api(`/api/fill/${id}`, undefined, "DELETE"); } catch (error) { say(error.message, "bad"); }
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
  if (cell.block) return;
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

function nextSlot(by) {
  const list = sites().list;
  if (!list.length) return;
  const order = [...list.filter((s) => s.dir === "across"), ...list.filter((s) => s.dir === "down")];
  const now = slotAt(cursor.r, cursor.c, cursor.dir);
  let i = now ? order.findIndex((s) => s.number === now.number && s.dir === now.dir) : -1;
  i = (i + by + order.length) % order.length;
  const [r, c] = order[i].cells.find(([i2, j]) => !cellAt(i2, j).letter) || order[i].cells[0];
  moveTo(r, c, order[i].dir);
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
  } else if (k === "Tab") nextSlot(event.shiftKey ? -1 : 1);
  else if (k === " ") moveTo(cursor.r, cursor.c, cursor.dir === "across" ? "down" : "across");
  else if (k === "Backspace") erase(true);
  else if (k === "Delete") erase(false);
  else if (k === "." || k === "#") toggleBlock(cursor.r, cursor.c);
  else if (k === "Enter") toggleLock();
  else if (k === "Escape") { selection = null; clearVerdict(); render(); }
  else if ([...k].length === 1 && /[\p{L}\p{N}]/u.test(k)) typeLetter(k);
  else return;
  event.preventDefault();
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

async function openPuzzle(event) {
  event.preventDefault();
  const upload = $("open-upload").files[0], words = $("open-words-upload").files[0];
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
    // a .puz or ipuz file goes with its exports, which keep its clues and title
    const original = ["puz", "ipuz"].includes(answer.grids[0].format) ? body : null;
    if (original) { delete original.words_base64; delete original.words_path; delete original.answers; }
    showGrids(answer.grids, original);
    useGrid(answer.grids[0], original);
    const first = answer.grids[0];
    const more = answer.grids.length > 1 ? ` (grid 1 of ${answer.grids.length}: choose another above the grid)` : "";
    const own = first.answers && first.mode !== "exact"
      ? " It has its own answers: open it with “its own answers” to place them." : "";
    say(`Opened ${first.source}${first.title ? ` (${first.title})` : ""}${more}.${own}`);
  } catch (error) {
    $("open-error").textContent = error.message;
  }
}

function useGrid(opened, original = null) {
  undoStack.push(snapshot());
  redoStack = [];
  grid = fromRows(opened.rows, opened.mode, opened.words, opened.source);
  grid.original = original;
  // the size fields (for New and Pattern) start from the grid opened
  $("new-rows").value = String(opened.rows.length);
  $("new-cols").value = String(opened.rows[0].length);
  cursor = {r: 0, c: 0, dir: "across"};
  selection = null;
  changed();
  $("grid").focus();
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
  if (!(rows >= 2 && cols >= 2 && rows <= 50 && cols <= 50)) return say("A grid is 2 to 50 cells a side.", "bad");
  undoStack.push(snapshot());
  redoStack = [];
  grid = emptyGrid(rows, cols);
  cursor = {r: 0, c: 0, dir: "across"};
  selection = null;
  showGrids([]);
  changed();
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
    useGrid({rows: made.grid, mode: "lexicon", words: null, source: `pattern ${made.size} (seed ${made.seed})`});
    showGrids([]);
    say(`A ${made.size} pattern with ${made.blocks} blocks and ${made.slots} entries ` +
      `(seed ${made.seed}, ${made.symmetry}).`);
  } catch (error) {
    say(error.message, "bad");
  }
}

async function exportAs(kind) {
  const body = {grid: rowsOf(), kind};
  if (marked.size) body.marked = [...marked].map((k) => k.split(",").map(Number));
  if (grid.original && (kind === "puz" || kind === "ipuz")) body.original = grid.original;
  const response = await fetch("/api/export", {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  });
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    return say(data.error || response.statusText, "bad");
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = `crossword.${kind}`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

// ------------------------------------------------------------------ start

function addOptions(select, values) {
  for (const value of values) {
    const option = document.createElement("option");
    option.value = option.textContent = value;
    select.append(option);
  }
}

async function start() {
  const saved = JSON.parse(localStorage.getItem(STORE) || "null");
  try {
    info = await api("/api/info", undefined, "GET");
  } catch (error) {
    say(`The server does not answer: ${error.message}`, "bad");
  }
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
    box.checked = saved && saved.dicts ? saved.dicts.includes(dict.name) : i === 0;
    box.addEventListener("change", () => { save(); scheduleCandidates(); });
    const scored = dict.scored ? ", scored" : "";
    label.append(box, ` ${dict.name} (${dict.words.toLocaleString()} words${scored})`);
    $("dicts").append(label);
  }
  if (info.root) {
    const files = (await api("/api/files", undefined, "GET")).files;
    addOptions($("open-path"), files);
    addOptions($("open-words-path"), files);
    $("open-served").hidden = false;
  }
  if (saved && saved.grid && saved.grid.cells) {
    grid = saved.grid;
    $("symmetry").value = saved.symmetry || "rot180";
  } else {
    grid = emptyGrid(15, 15);
  }
  wire();
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
  document.addEventListener("mouseup", () => { dragFrom = null; render(); });
  $("undo").addEventListener("click", () => restore(undoStack, redoStack));
  $("redo").addEventListener("click", () => restore(redoStack, undoStack));
  $("block-mode").addEventListener("click", (event) => {
    const on = event.currentTarget.getAttribute("aria-pressed") !== "true";
    event.currentTarget.setAttribute("aria-pressed", String(on));
  });
  $("symmetry").addEventListener("change", save);
  $("min-score").addEventListener("change", scheduleCandidates);
  $("lock").addEventListener("click", () => { toggleLock(); board.focus(); });
  $("fill").addEventListener("click", () => startFill(false));
  $("fill-region").addEventListener("click", () => startFill(true));
  $("cancel").addEventListener("click", cancelFill);
  $("check").addEventListener("click", check);
  $("new-button").addEventListener("click", newGrid);
  $("pattern-button").addEventListener("click", newPattern);
  $("open-button").addEventListener("click", () => { $("open-error").textContent = ""; $("open-dialog").showModal(); });
  $("open-form").addEventListener("submit", (event) => {
    if (event.submitter && event.submitter.value === "open") openPuzzle(event);
  });
  for (const button of document.querySelectorAll("[data-export]")) {
    button.addEventListener("click", () => exportAs(button.dataset.export));
  }
}

start();
