"""The service layer: the jobs that the command line (pybridge.commands)
and the workbench's JSON API (pybridge.serve) both run, with the same
options, the same checks and the same answers. Neither imports the other;
both import this.

    fields.py    each option of solve, check, grid and make declared once:
                 its flag and JSON key, help, reader, choices, default
    requests.py  the option objects (pybridge.options) from a request's values
    puzzles.py   reading what a job names: puzzles, dictionaries, time budgets
    jobs.py      the jobs (solve, check, make, pattern, difficulty, word
                 search) and the Listener that hears how they go
    answers.py   exit codes, failure messages, the JSON document of a search

docs/api.md#the-service-layer shows how to add an option end to end.
"""
