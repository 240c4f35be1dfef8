"""The commands of `crossword`, one module each. A command module has
`add_parser(commands)`, which adds its subcommand to the argparse
subparsers with `handler` set to the function that runs it and returns the
exit code; pybridge.cli lists the modules and runs the handler."""
