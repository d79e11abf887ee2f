import errno
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from corpus import write_hook_corpus, write_status_corpus

from pastfix import build as pbuild

ROOT = Path(__file__).parent.parent
# benchmarks/synthetic.py, the corpus generator, serves the tests too.
sys.path.insert(0, str(ROOT / "benchmarks"))
FIXTURES = Path(__file__).parent / "fixtures"
REAL_CORPUS = ROOT.parent / "shared" / "corpus" / "real"
REAL_PROJECTS = REAL_CORPUS / "projects"


@pytest.fixture(autouse=True)
def fake_home(tmp_path_factory, monkeypatch):
    """Tests never read the real home directory (and its ~/.claude, ~/.codex, ~/.gemini)."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    # opencode's data folder ($XDG_DATA_HOME/opencode) and database ($OPENCODE_DB)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("OPENCODE_DB", raising=False)
    # Copilot CLI's home, and the XDG folders that move Copilot's state and opencode's plugins
    for name in ("COPILOT_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    return home


class Hung(BaseException):
    """Raised by no_hang: not an OSError, which a build would take for a file's problem."""


@pytest.fixture
def no_hang():
    """Fail a test whose build blocks (opening a FIFO) instead of hanging the suite."""

    def hung(signum, frame):
        raise Hung("blocked for 20 s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.fixture
def unwritable(monkeypatch):
    """unwritable(folder, code): writes under `folder` fail with errno `code` (EROFS, as on a
    read-only mount; EACCES): root, whom the tests run as, writes anywhere a mode forbids."""
    folders: dict[Path, int] = {}

    def refused(path):
        path = Path(os.fsdecode(path)).absolute()
        for folder, code in folders.items():
            if path.is_relative_to(folder):
                raise OSError(code, os.strerror(code), str(path))

    def guard(name, writes=lambda *args, **kwargs: True):
        real = getattr(os, name)

        def call(path, *args, **kwargs):
            if writes(*args, **kwargs) and not kwargs.get("dir_fd"):
                refused(path)
            return real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, call)

    write_flags = os.O_WRONLY | os.O_RDWR | os.O_CREAT
    guard("open", lambda flags, *args, **kwargs: bool(flags & write_flags))
    for name in ("mkdir", "unlink", "rmdir", "replace", "rename"):
        guard(name)

    def make(folder, code=errno.EROFS):
        folders[Path(folder).absolute()] = code

    return make


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "index.db"


def build_index(db_path, *sources, **kwargs):
    """Run the real build, as `pastfix build` does."""
    return pbuild.build(db_path, [Path(s) for s in sources], **kwargs)


def needs_real_corpus():
    return pytest.mark.skipif(
        not REAL_PROJECTS.is_dir(),
        reason=f"real corpus not found at {REAL_PROJECTS} (../shared beside the project)",
    )


def _index_of(tmp_path_factory, name, write):
    """An index of the corpus `write(root)` writes in a new folder."""
    root = tmp_path_factory.mktemp(name)
    db = root / "index.db"
    build_index(db, write(root))
    return db


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    """An index of the hook's corpus (corpus.write_hook_corpus)."""
    return _index_of(tmp_path_factory, "hook-corpus", write_hook_corpus)


@pytest.fixture(scope="module")
def status_index(tmp_path_factory):
    """An index of failures that ended with several exit statuses (corpus.STATUS_FAILURES)."""
    return _index_of(tmp_path_factory, "status-corpus", write_status_corpus)


def imported_by(modules: str, among: tuple[str, ...]) -> list[str]:
    """Which of `among` a fresh interpreter has imported after `import {modules}`."""
    code = f"import sys, {modules}; print(*sorted(m for m in {among!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()
