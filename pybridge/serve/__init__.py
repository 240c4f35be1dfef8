"""The web workbench behind `crossword serve`: a page to edit, fill and
check grids in the browser, and the HTTP JSON API it uses (docs/serve.md).

Rooms: files.py (what the server may read: files under --root, the --dict
files), api.py (the JSON answers, made by the commands' own code paths),
grids.py (the grid the page sends: its puzzle, scores and exports),
candidates.py (the words that fit a site, with the proof layers' marks),
fills.py (autofill in a worker process, its progress and Cancel), app.py
(the Starlette routes, limits and headers) and static/ (the page: plain
HTML, CSS and JavaScript, no build step, nothing from another site).
"""
