"""Runs the fixture: ``python -m odataserver --port N --state-dir DIR --mode delta|plain``."""

from __future__ import annotations

import argparse
import logging
import os
import sys

import waitress

from .app import MOUNT, FixtureApp
from .store import StateError


def main() -> int:
    parser = argparse.ArgumentParser(prog="odataserver")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--state-dir", required=True)
    parser.add_argument("--mode", choices=("delta", "plain"), required=True)
    parser.add_argument("--page-size", type=int, default=100)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
    root = f"http://{args.host}:{args.port}{MOUNT}"
    try:
        app = FixtureApp(args.mode, os.path.join(args.state_dir, "odata.sqlite"), root, args.page_size)
    except StateError as error:
        print(f"odataserver: {error}", file=sys.stderr)
        return 1
    print(f"odataserver: {args.mode} mode at {root}, page size {args.page_size}", file=sys.stderr)
    waitress.serve(app, host=args.host, port=args.port, threads=8, ident="odata-fixture")
    return 0


if __name__ == "__main__":
    sys.exit(main())
