"""The commands of `crossword`, one module each. A command module has
`add_parser(commands, summary)`, which adds its subcommand to the argparse
subparsers (`summary` its help, from pybridge.cli.COMMANDS, which lists
the modules) with `handler` set to the function that runs it and returns
the exit code; pybridge.cli loads the module of the command asked for and
runs its handler."""
