import gc
import sys

# A short-lived process: collecting garbage while ~300 modules import costs ~5 ms.
gc.disable()

try:
    from pastfix.entry import main
except ImportError as e:  # run from a checkout whose dependencies are not installed
    sys.exit(f"Error: {e}; install pastfix first: python3 -m venv .venv && .venv/bin/pip install .")

if __name__ == "__main__":
    main()
