"""``preflight lsp``: run the Language Server over stdio (needs the ``lsp`` extra)."""

from __future__ import annotations

import argparse

HELP = "run the Language Server (editor diagnostics and fixes) over stdio"
DESCRIPTION = (
    "Run preflight as a Language Server over stdio: diagnostics for the open Python buffers "
    "on open, change and save, and code actions for the safe fixes. Start it from your editor "
    "(docs/integrations.md). Needs pygls 2: pip install 'preflight-audit[lsp]'."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true",
                        help="talk LSP over stdin/stdout (the default and only transport)")
    parser.add_argument("--log-file", metavar="FILE",
                        help="write the server's log to FILE (stdout carries the protocol)")


def run(args: argparse.Namespace) -> int:
    import sys

    try:
        import pygls  # noqa: F401
        from pygls.lsp.server import LanguageServer  # noqa: F401  (pygls 2.x layout)
    except ImportError:
        sys.stderr.write("preflight: error: 'preflight lsp' needs pygls 2.x: "
                         "pip install 'preflight-audit[lsp]'\n")
        return 2
    if args.log_file:
        import logging

        logging.basicConfig(filename=args.log_file, level=logging.INFO,
                            format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from preflight.lsp import serve_stdio

    serve_stdio()
    return 0
