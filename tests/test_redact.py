import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pastfix import redact as redact_module
from pastfix.redact import ANCHORS, anchors_in, redact

# Made-up secrets of every kind, in the shape each provider issues them.
SECRETS = {
    "anthropic-key": "sk-ant-api03-Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQ-sT2uV5xW8yA1bE4cG7hJ0kM3",
    "openai-key": "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4",
    "github-token": "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234",
    "gitlab-token": "glpat-Xy7Zq2Wv9Ut4Rs1Pq8No",
    "slack-token": "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "slack-webhook": "https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2",
    "stripe-key": "sk_live_51HqLyjWDarjtT1zdp7dcXaBcDeFgHiJk",
    "aws-access-key-id": "AKIAZ7Q3XW5N2R8T4LMP",
    "google-api-key": "AIzaSyD3kF8mN2pQ7rT9vX1zB4cE6gH0jL5nP8s",
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwiaWF0IjoxNzAwMDAwMDAwfQ"
    ".Qk3v9Zx8Wc7Vb6Nm5Lk4Jh3Gf2Ds1Aa0Pp9Oo8Ii7Uu",
}
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAq7Bz3Xk9Lm2Np4Qr6St8Uv0Wx2Yz4Ab6Cd8Ef0Gh2Ij4Kl6Mn\n"
    "8Op0Qr2St4Uv6Wx8Yz0Ab2Cd4Ef6Gh8Ij0Kl2Mn4Op6Qr8St0Uv2Wx4Yz6Ab8Cd==\n"
    "-----END RSA PRIVATE KEY-----"
)
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYz8Qk3v9Zx8"


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_provider_keys_become_typed_markers(kind):
    text = f"export THING={SECRETS[kind]} # set by ci"
    assert redact(f"see {SECRETS[kind]}.") == (f"see [REDACTED:{kind}].", {kind: 1})
    redacted, found = redact(text)
    assert SECRETS[kind] not in redacted
    assert f"[REDACTED:{kind}]" in redacted and sum(found.values()) == 1


@pytest.mark.parametrize(
    ("text", "expected", "kinds"),
    [
        (PEM + "\nrest", "[REDACTED:private-key]\nrest", {"private-key": 1}),
        # a key cut short (truncated output) is still redacted up to where it stops
        (PEM[:120] + "\n[... pastfix: 10 characters omitted ...]", None, {"private-key": 1}),
        (
            "curl -H 'Authorization: Bearer Zx9Yw8Vu7Ts6Rq5Po4Nm3' https://api.example.com",
            "curl -H 'Authorization: Bearer [REDACTED:bearer-token]' https://api.example.com",
            {"bearer-token": 1},
        ),
        (
            "DATABASE_URL=postgres://app:Tr0ub4dor3@db.internal:5432/app",
            "DATABASE_URL=postgres://app:[REDACTED:url-password]@db.internal:5432/app",
            {"url-password": 1},
        ),
        ("redis://u:p@h/0", "redis://u:[REDACTED:url-password]@h/0", {"url-password": 1}),
        # A token as the whole user part: one marker, not one inside another.
        (
            f"git clone https://{SECRETS['github-token']}@github.com/org/repo",
            "git clone https://[REDACTED:github-token]@github.com/org/repo",
            {"github-token": 1},
        ),
        (
            f"https://x-access-token:{SECRETS['github-token']}@github.com/o/r",
            "https://x-access-token:[REDACTED:github-token]@github.com/o/r",
            {"github-token": 1},
        ),
        (
            f"aws_secret_access_key = {AWS_SECRET}\n",
            "aws_secret_access_key = [REDACTED:aws-secret-key]\n",
            {"aws-secret-key": 1},
        ),
        ("DB_PASSWORD=hunter22\n", "DB_PASSWORD=[REDACTED:password]\n", {"password": 1}),
        ("MY_API_KEY: q8vN2kL5mR7t", "MY_API_KEY: [REDACTED:api-key]", {"api-key": 1}),
        ("SECRET=abc123def", "SECRET=[REDACTED:secret]", {"secret": 1}),
        ("export TOKEN=Zq8vN2kL5", "export TOKEN=[REDACTED:token]", {"token": 1}),
        (
            '{"password": "correct horse battery"}',
            '{"password": "[REDACTED:password]"}',
            {"password": 1},
        ),
        (
            "clientSecret = 'f00Bar-baz-9'",
            "clientSecret = '[REDACTED:secret]'",
            {"secret": 1},
        ),
        (
            "your session token is 8f3a9c2b7d1e4f6a8b0c2d4e6f8a0b1c",
            "your session token is [REDACTED:high-entropy-token]",
            {"high-entropy-token": 1},
        ),
    ],
)
def test_secrets_in_context(text, expected, kinds):
    redacted, found = redact(text)
    if expected is not None:
        assert redacted == expected
    assert found == kinds


LOOK_ALIKES = [
    "commit 4f0509c1a2b3c4d5e6f708192a3b4c5d6e7f8091 (HEAD -> main)",
    "session 11111111-1111-4111-8111-111111111111 resumed",
    '"integrity": "sha512-Qk3v9Zx8Wc7Vb6Nm5Lk4Jh3Gf2Ds1Aa0Pp9Oo8Ii7Uu6Yy5Tt4Rr3Ee2Ww1Qq0==",',
    "[image/png 604 KB]",
    "/home/dev/app/src/auth/token_store.py:12: secret_manager.py",
    "password=",
    "password=\n",
    "PASSWORD=<your-password>",
    "PASSWORD=${DB_PASSWORD}",
    "API_KEY=your_api_key_here",
    "token: ********",
    "max_tokens=4096",
    "token: str = None",
    "token = self.token",
    "password = os.environ.get('DB_PASSWORD')",
    "tokenizer=bert-base-uncased",
    "The token expired, so I refreshed it and the secret was rotated.",
    "git@github.com:owner/repo.git",
    "https://example.com/a?b=c#d",
    "http://localhost:8080@",
    "sk-learn is not a package name, use scikit-learn",
    "a Bearer token in the header",
    "key: value",
    "PWD=/home/dev/app\nOLDPWD=/home/dev",  # the shell's working directory
    # placeholders and test values written as words
    'secret_key_base: "dev-only-secret-not-for-production-use-minimum-64-bytes-long"',
    "token: 'nope-nope-nope'",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


def test_json_stays_valid_json():
    payload = {
        "command": f"curl -H 'Authorization: Bearer {SECRETS['github-token']}' -d "
        + json.dumps({"password": "s3cr3t-pass", "api_key": SECRETS["openai-key"]}),
        "content": PEM,
        "url": "mysql://root:r00t!pw@127.0.0.1/db",
    }
    text = json.dumps(payload)
    redacted, found = redact(text)
    decoded = json.loads(redacted)
    assert "[REDACTED:github-token]" in decoded["command"]
    assert decoded["content"] == "[REDACTED:private-key]"
    assert decoded["url"] == "mysql://root:[REDACTED:url-password]@127.0.0.1/db"
    assert found == {
        "github-token": 1,
        "openai-key": 1,
        "password": 1,
        "private-key": 1,
        "url-password": 1,
    }
    for secret in (SECRETS["github-token"], SECRETS["openai-key"], "s3cr3t-pass", "r00t!pw"):
        assert secret not in redacted


def test_redacting_twice_changes_nothing():
    text = " ".join(SECRETS.values()) + f" {PEM} DB_PASSWORD=hunter22 postgres://u:pw1@h/db"
    once, found = redact(text)
    assert sum(found.values()) == len(SECRETS) + 3
    assert redact(once) == (once, {})


def test_text_without_secrets_is_returned_as_is():
    text = "ENOENT: no such file or directory, open '/home/dev/app/a.txt'" * 10
    redacted, found = redact(text)
    assert redacted is text and found == {}


# Text around anchors: ASCII, other scripts, emoji, a lone surrogate, and anchors that
# overlap (one's end is another's start: `disk-----BEGIN`, `xoxox`, `sk-ant-sk-`).
_AROUND = st.text(
    alphabet=st.sampled_from(list('ab -_:/=k"\\\n') + ["é", "日", "🙂", "\ud83d", "\x00"]),
    max_size=8,
)


@given(st.lists(st.tuples(_AROUND, st.sampled_from(ANCHORS)), max_size=6), _AROUND)
def test_one_pass_finds_every_anchor_the_text_holds(pieces, tail):
    text = "".join(before + anchor for before, anchor in pieces) + tail
    assert anchors_in(text) == {anchor for anchor in ANCHORS if anchor in text}


@pytest.mark.parametrize(
    "around",
    ["key: {}", "日本語のテキスト {} 🙂", "\ud83d lone surrogate {}", "x" * 5000 + " {}"],
)
def test_secrets_are_found_next_to_any_text(around):
    for kind, secret in [*SECRETS.items(), ("private-key", PEM)]:
        redacted, found = redact(around.format(secret))
        assert secret not in redacted and found == {kind: 1}, kind


def test_an_anchor_overlapping_another_is_found():
    # `sk-` ends where `-----BEGIN` starts.
    assert redact("disk" + PEM) == ("disk[REDACTED:private-key]", {"private-key": 1})


def test_without_re2_the_same_is_redacted(monkeypatch):
    """Where google-re2 has no wheel (installed with --no-deps), a check per anchor stands in."""
    texts = [
        *(f"see {secret}." for secret in SECRETS.values()),
        PEM,
        f"aws_secret_access_key = {AWS_SECRET}",
        "DB_PASSWORD=hunter22\nMY_API_KEY: q8vN2kL5mR7t",
        *LOOK_ALIKES,
    ]
    with_re2 = [redact(text) for text in texts]
    assert sum(bool(found) for _, found in with_re2) == len(SECRETS) + 3
    monkeypatch.setattr(redact_module, "_SCANNER", None)
    assert [redact(text) for text in texts] == with_re2
