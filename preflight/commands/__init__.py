"""One module per command beyond check/audit/explain/rules (see ``preflight.cli._COMMANDS``).

Each module keeps its top level import-light (argparse only) so that ``preflight --help``
and the other commands stay fast, and defines::

    HELP: str              # one line for `preflight --help`
    DESCRIPTION: str       # the command's own --help text
    def add_arguments(parser: argparse.ArgumentParser) -> None
    def run(args: argparse.Namespace) -> int   # an exit code
"""
