import sys

try:
    from pastfix.cli import cli
except ImportError as e:  # run from a checkout whose dependencies are not installed
    sys.exit(f"Error: {e}; install pastfix first: python3 -m venv .venv && .venv/bin/pip install .")

if __name__ == "__main__":
    cli(prog_name="pastfix")
