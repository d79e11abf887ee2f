"""Register pastfix's Datasette plugin from a checkout: `datasette serve --plugins-dir plugins`.

The plugin itself is the package pastfix.plugin (one home for its code and templates).
When pastfix is pip-installed, its `datasette` entry point has already registered it
and this file does nothing; otherwise it makes the checkout importable and registers it.
"""

import sys
from pathlib import Path

from datasette.plugins import pm

try:
    import pastfix.plugin
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import pastfix.plugin

if not pm.is_registered(pastfix.plugin):
    pm.register(pastfix.plugin, name="pastfix.plugin")
