// The work file: the page's own JSON export, which Open reads back
// (docs/serve.md#the-work-file). It is the API's JSON export (`grid`: rows,
// '#' a block, '.' an empty cell; `placements`: the entries with their
// numbers, directions, cells and words) with each placement's `clue`, the
// puzzle's `title` and `author`, and `workbench`: what the page needs to
// carry on (which letters were typed, locked or filled, the word list of an
// exact puzzle, where the grid came from, the symmetry of its blocks).

export const VERSION = 1;
const KIND_CODES = /^[tlf.#]*$/u;

// The work file of `puzzle`, whose grid, title, author and clues the
// server exported as `exported` (POST /api/export, kind json), and whose
// cells `packed` holds (store.pack).
export function document(exported, puzzle, grid, packed) {
  return {
    ...exported,
    workbench: {
      version: VERSION,
      kinds: packed.kinds,
      mode: grid.mode,
      words: grid.mode === "exact" ? grid.words : null,
      source: grid.source,
      symmetry: puzzle.symmetry,
    },
  };
}

function refuse(name, message) {
  throw new Error(`${name}: ${message}`);
}

const isRows = (value) =>
  Array.isArray(value) && value.length > 0 && value.every((row) => typeof row === "string");

// The work file in `text`, as {grid: {rows, cols, letters, kinds, mode,
// words, source}, title, author, clues, symmetry}; null when the text is not
// a work file or an export of the page (an ipuz file, say, which is JSON
// too: the server reads those). A damaged work file is an Error naming
// `name` and what is wrong.
export function read(text, name) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return null;
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc) || !("grid" in doc) || "kind" in doc) {
    return null;
  }
  if (!isRows(doc.grid)) refuse(name, '"grid" must be a list of rows (strings of letters, "." and "#")');
  const rows = doc.grid.map((row) => [...row]);
  const cols = Math.max(...rows.map((row) => row.length));
  if (rows.length > 200 || cols > 200) refuse(name, "the grid is larger than 200 x 200");
  rows.forEach((row, r) => row.forEach((ch, c) => {
    if (ch !== "#" && ch !== "." && !/^[\p{L}\p{N}]$/u.test(ch)) {
      refuse(name, `row ${r + 1}, column ${c + 1}: expected '#' (a block), '.' (empty) or a letter, found ${JSON.stringify(ch)}`);
    }
  }));
  const bench = doc.workbench && typeof doc.workbench === "object" ? doc.workbench : {};
  if (bench.version !== undefined && bench.version > VERSION) {
    refuse(name, `a work file of version ${bench.version}: this page reads version ${VERSION} and older`);
  }
  let kinds = null;
  if (bench.kinds !== undefined) {
    const same = isRows(bench.kinds) && bench.kinds.length === rows.length &&
      bench.kinds.every((row, r) => KIND_CODES.test(row) && row.length === rows[r].length);
    if (!same) refuse(name, '"workbench.kinds" must have a code (t, l, f, . or #) for each cell of "grid"');
    kinds = bench.kinds;
  }
  let words = null, mode = "lexicon";
  if (bench.mode === "exact") {
    if (!isRows(bench.words)) refuse(name, 'an exact puzzle needs its word list in "workbench.words"');
    mode = "exact";
    words = bench.words;
  }
  const clues = {};
  for (const p of Array.isArray(doc.placements) ? doc.placements : []) {
    if (p && typeof p.clue === "string" && p.clue.trim() && ["across", "down"].includes(p.direction)) {
      clues[`${p.row},${p.col},${p.direction}`] = p.clue;
    }
  }
  const text_ = (value) => (typeof value === "string" ? value : "");
  return {
    grid: {
      rows: rows.length, cols, letters: doc.grid, kinds, mode, words,
      source: text_(bench.source) || name,
    },
    title: text_(doc.title),
    author: text_(doc.author),
    clues,
    symmetry: text_(bench.symmetry),
  };
}
