import base64
import json
import re
import string
from pathlib import Path
from types import SimpleNamespace

import pytest
from corpus import AWS_SECRET, PEM, SECRETS
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from pastfix import redact as redact_module
from pastfix.records import clean_text
from pastfix.redact import ANCHORS, anchors_in, redact, redact_json


def test_every_rule_compiles():
    """A rule's pattern is compiled when a text first holds its anchor, not on import: a
    bad one would fail only there."""
    assert all(re.compile(rule.pattern) for rule in redact_module.RULES)


def test_the_options_of_programs_given_a_password_compile_where_first_needed():
    """A program's options (`keytool -storepass`, `smbclient -U`) are compiled where a text
    first names the program, not on import: 35 patterns compiled at every build's start."""
    options = redact_module._PROGRAM_OPTION
    assert not any(isinstance(pattern, re.Pattern) for pattern in options.values())
    assert all(re.compile(pattern) for pattern in options.values())
    assert redact("keytool -list -storepass Zq8vN2kL5mR7 -keystore k.jks") == (
        "keytool -list -storepass [REDACTED:password] -keystore k.jks",
        {"password": 1},
    )


def test_each_anchor_gates_the_rules_that_have_it_in_their_order():
    expected = {
        anchor: tuple(i for i, rule in enumerate(redact_module.RULES) if anchor in rule.anchors)
        for anchor in ANCHORS
    }
    assert redact_module._RULES_OF == {**expected, **dict.fromkeys(redact_module.GATES, ())}


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
        ('{"db_password": hunter22}', '{"db_password": [REDACTED:password]}', {"password": 1}),
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
        # keys of OpenAI's shape from other providers: lowercase, long and random
        ("key sk-8f3a9c2b7d1e4f6a8b0c2d4e6f8a0b1c", "key [REDACTED:openai-key]", {"openai-key": 1}),
        (
            "OPENROUTER=sk-or-v1-" + "8f3a9c2b7d1e4f6a" * 4,
            "OPENROUTER=[REDACTED:openai-key]",
            {"openai-key": 1},
        ),
        (
            "xapp-1-A0123456789-1234567890123-8f3a9c2b7d1e4f6a",
            "[REDACTED:slack-token]",
            {"slack-token": 1},
        ),
        (
            "AccountName=app;AccountKey=Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQ+/==;EndpointSuffix=x",
            "AccountName=app;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=x",
            {"azure-storage-key": 1},
        ),
        (
            "-H 'Authorization: Basic YWRtaW46U3VwM3JTM2NyZXQh'",  # admin:Sup3rS3cret!
            "-H 'Authorization: Basic [REDACTED:basic-auth]'",
            {"basic-auth": 1},
        ),
        # passwords on a command line
        (
            "curl -s -u admin:Sup3rS3cret https://x",
            "curl -s -u admin:[REDACTED:password] https://x",
            {"password": 1},
        ),
        (
            "wget --user=admin:Sup3rS3cret https://x",
            "wget --user=admin:[REDACTED:password] https://x",
            {"password": 1},
        ),
        ("mysql -uroot -pHunter22 db", "mysql -uroot -p[REDACTED:password] db", {"password": 1}),
        (
            "sshpass -p 'Hunter2!' ssh host",
            "sshpass -p '[REDACTED:password]' ssh host",
            {"password": 1},
        ),
        (
            "docker login -u me -p Hunter22 ghcr.io",
            "docker login -u me -p [REDACTED:password] ghcr.io",
            {"password": 1},
        ),
        ("app --password Hunter22", "app --password [REDACTED:password]", {"password": 1}),
        ("export MYSQL_PWD=Hunter22", "export MYSQL_PWD=[REDACTED:password]", {"password": 1}),
        ("Uid=sa;Pwd=Str0ngP4ss;", "Uid=sa;Pwd=[REDACTED:password];", {"password": 1}),
        (
            "machine api.example.com\n  login dev\n  password Hunter22x",
            "machine api.example.com\n  login dev\n  password [REDACTED:password]",
            {"password": 1},
        ),
        (
            "//registry.npmjs.org/:_auth=dXNlcjpTdXAzclMzY3JldA==",
            "//registry.npmjs.org/:_auth=[REDACTED:basic-auth]",
            {"basic-auth": 1},
        ),
        # after a URL's percent-escape: `token=` and a line break, encoded
        (
            f"https://x.example/cb?next=%2Fhome%3Ftoken%3D{SECRETS['github-token']}%0A",
            "https://x.example/cb?next=%2Fhome%3Ftoken%3D[REDACTED:github-token]%0A",
            {"github-token": 1},
        ),
        (
            f"creds=%7B%22id%22%3A%22{SECRETS['aws-access-key-id']}%22%7D",
            "creds=%7B%22id%22%3A%22[REDACTED:aws-access-key-id]%22%7D",
            {"aws-access-key-id": 1},
        ),
        (
            '{"auths": {"ghcr.io": {"auth": "dXNlcjpTdXAzclMzY3JldA=="}}}',
            '{"auths": {"ghcr.io": {"auth": "[REDACTED:basic-auth]"}}}',
            {"basic-auth": 1},
        ),
        # signed URLs and webhooks
        (
            "https://a.blob.core.windows.net/c/f?sv=2021-06-08&sp=r&sig=Zq8vN2kL5mR7tX1w%2BY4%3D&x=1",
            "https://a.blob.core.windows.net/c/f?sv=2021-06-08&sp=r&sig=[REDACTED:url-signature]&x=1",
            {"url-signature": 1},
        ),
        (
            "https://b.s3.amazonaws.com/k?X-Amz-Date=20260101T000000Z&X-Amz-Signature="
            + "8f3a9c2b7d1e4f6a" * 4,
            "https://b.s3.amazonaws.com/k?X-Amz-Date=20260101T000000Z"
            "&X-Amz-Signature=[REDACTED:url-signature]",
            {"url-signature": 1},
        ),
        (
            "POST https://discord.com/api/webhooks/123456789012345678/Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0p",
            "POST [REDACTED:discord-webhook]",
            {"discord-webhook": 1},
        ),
        (
            "https://contoso.webhook.office.com/webhookb2/8f3a9c2b@7d1e4f6a/IncomingWebhook/0b1c/9c2b",
            "[REDACTED:teams-webhook]",
            {"teams-webhook": 1},
        ),
        # a value in backticks right after the word, in an agent's prose
        (
            "defaults: user `app`, password `CortexBuild2024!`, host `localhost`",
            "defaults: user `app`, password `[REDACTED:password]`, host `localhost`",
            {"password": 1},
        ),
        (
            "the default DB password (`CortexBuild2024!`) is hardcoded",
            "the default DB password (`[REDACTED:password]`) is hardcoded",
            {"password": 1},
        ),
        # a password-hashing function's literal
        (
            "node -e \"bcrypt.hash('CortexBuild2024!', 10).then(console.log)\"",
            "node -e \"bcrypt.hash('[REDACTED:password]', 10).then(console.log)\"",
            {"password": 1},
        ),
        (
            "generate_password_hash('Str0ngP4ss')",
            "generate_password_hash('[REDACTED:password]')",
            {"password": 1},
        ),
        # words after a value given by `=` may be the command it is given to
        (
            "PGPASSWORD=mysecret psql mydb",
            "PGPASSWORD=[REDACTED:password] psql mydb",
            {"password": 1},
        ),
        # a default given to a secret's variable in code, SQL's passwords, and prose
        (
            "password: process.env.DB_PASSWORD || 'CortexBuild2024!',",
            "password: process.env.DB_PASSWORD || '[REDACTED:password]',",
            {"password": 1},
        ),
        (
            'token = os.environ.get("API_TOKEN", "Zq8vN2kL5mR7")',
            'token = os.environ.get("API_TOKEN", "[REDACTED:token]")',
            {"token": 1},
        ),
        (
            'const s = ENV["JWT_SECRET"] ?? "Zq8vN2kL5mR7x"',
            'const s = ENV["JWT_SECRET"] ?? "[REDACTED:secret]"',
            {"secret": 1},
        ),
        (
            "psql -c \"ALTER USER app WITH PASSWORD 'CortexBuild2024!';\"",
            "psql -c \"ALTER USER app WITH PASSWORD '[REDACTED:password]';\"",
            {"password": 1},
        ),
        (
            "CREATE USER 'app'@'%' IDENTIFIED BY 'Str0ngP4ss';",
            "CREATE USER 'app'@'%' IDENTIFIED BY '[REDACTED:password]';",
            {"password": 1},
        ),
        (
            "-- Passwords: CortexBuild2024! (bcrypt hash)",
            "-- Passwords: [REDACTED:password] (bcrypt hash)",
            {"password": 1},
        ),
        (
            "- DB: user `app`, password: `CortexBuild2024!`\n",
            "- DB: user `app`, password: `[REDACTED:password]`\n",
            {"password": 1},
        ),
        # REDACTION_VERSION 5 (session 16's red team): what came right after a colour
        # code, a URL's password with no user or with an `@`, command-line forms
        (
            f"+ \x1b[32m{SECRETS['github-token']}\x1b[0m",
            "+ \x1b[32m[REDACTED:github-token]\x1b[0m",
            {"github-token": 1},
        ),
        (
            f"\x1b[1;31m{SECRETS['openai-key']} \x1b[38;5;196m{SECRETS['slack-token']}",
            "\x1b[1;31m[REDACTED:openai-key] \x1b[38;5;196m[REDACTED:slack-token]",
            {"openai-key": 1, "slack-token": 1},
        ),
        (
            f'{{"new_string": "\\u001b[32m{SECRETS["gitlab-token"]}\\u001b[0m"}}',
            '{"new_string": "\\u001b[32m[REDACTED:gitlab-token]\\u001b[0m"}',
            {"gitlab-token": 1},
        ),
        (
            "REDIS_URL=redis://:Q503xRdS9pW2kL7m@cache:6379/0",
            "REDIS_URL=redis://:[REDACTED:url-password]@cache:6379/0",
            {"url-password": 1},
        ),
        (
            "postgres://app:Pa55@w0rd9@db:5432/shop?sslmode=require",
            "postgres://app:[REDACTED:url-password]@db:5432/shop?sslmode=require",
            {"url-password": 1},
        ),
        (
            "curl -uadmin:Cu5Rl4Pw3Qz2 https://api.example.com",
            "curl -uadmin:[REDACTED:password] https://api.example.com",
            {"password": 1},
        ),
        (
            "mysql -u root -p'My5qlPw3Qz' shop",
            "mysql -u root -p'[REDACTED:password]' shop",
            {"password": 1},
        ),
        (
            "mysqldump --password=Summer2024 shop",
            "mysqldump --password=[REDACTED:password] shop",
            {"password": 1},
        ),
        (
            'KEY = ("-----BEGIN RSA PRIVATE KEY-----\\n"\n'
            '       "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\\n"\n'
            '       "-----END RSA PRIVATE KEY-----\\n")',
            'KEY = ("[REDACTED:private-key]\\n")',
            {"private-key": 1},
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
    'headers = {"X-API-Key": api_key} if api_key else {}',  # a quoted key given a variable
    "r = c.get('/auth/me', headers={'X-API-Key': bad_key})",
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
    # look-alikes of the rules for other providers and command lines
    "sk-2024-annual-report-final-version-2",
    "hf_hub_download(repo_id, filename)",
    "Basic usage: run it. basic information",
    "docker run -u 1000:1000 --user root:root image",
    "curl -u $USER:$PASS https://x && curl -u admin: https://y",
    'mysql -u root -p db && mkdir -p /tmp/x && mysql -p"$MYSQL_PASSWORD" db',
    "psql -h db --password mydb; docker login --password-stdin",
    "export MYSQL_PWD=$PW",
    "OLD_PWD=/home/dev/app PROJECT_PWD=./app",
    "machine learning: login page, password reset",
    "machine x login y password $PW",
    "def verify(sig=None): signature=compute(); _auth = authenticate(user)",
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


def _held(text: str) -> set[str]:
    """The anchors `text` holds, and its gates with an anchor of a rule (see GATES)."""
    present = {anchor for anchor in ANCHORS if anchor in text}
    if present - redact_module.ESCAPE_ANCHORS:
        present |= {gate for gate in redact_module.GATES if re.search(gate, text)}
    return present


@given(st.lists(st.tuples(_AROUND, st.sampled_from(ANCHORS)), max_size=6), _AROUND)
@example([("", "key"), (": ", "token")], " Zq8vN2kL5mR7xY3wQ1")
@example([("é ", "export"), (" A=", "export")], "Zq8vN2kL5mR7xY3wQ1")
def test_one_pass_finds_every_anchor_the_text_holds(pieces, tail):
    text = "".join(before + anchor for before, anchor in pieces) + tail
    assert anchors_in(text) == _held(text)


# A batch's column: texts short and long (scanned joined, and one by one), ASCII or not,
# None and empty, with NULs (the joined scan's separator) and anchors at either end.
_COLUMN = st.lists(
    st.one_of(
        st.none(),
        st.builds(
            lambda pieces, tail, pad: "".join(b + a for b, a in pieces) + tail + pad,
            st.lists(st.tuples(_AROUND, st.sampled_from(ANCHORS)), max_size=4),
            _AROUND,
            st.sampled_from(["", "x" * 1200]),
        ),
    ),
    max_size=12,
)


@given(_COLUMN)
@example(["x", '{"password": "hunter2Zq9x"}', "key: Zq8vN2kL5mR7xY3wQ1"])
def test_a_column_scanned_as_one_finds_what_each_text_holds(texts):
    """_holding_anchors() (short ASCII texts joined) finds each text's anchors, no more."""
    expected = [
        (i, text, anchors_in(text))
        for i, text in enumerate(texts)
        if text and len(text) >= 12 and anchors_in(text)
    ]
    assert redact_module._holding_anchors(texts) == expected


_DISCORD_RULE = next(rule for rule in redact_module.RULES if rule.kind == "discord-token")
_DISCORD_HEADS = _DISCORD_RULE.anchors


def _found_one_by_one(text, anchors):
    """Each place where one of `anchors` starts in `text`, by a scan of it for each."""
    return sorted({m.start() for a in anchors for m in re.finditer(f"(?={re.escape(a)})", text)})


@given(
    st.lists(
        st.one_of(
            st.sampled_from(_DISCORD_HEADS),
            st.sampled_from(["M", "N", "O", "T", "j", "MT", "Nz", "x", " ", "é", "日本", "🙂"]),
            st.just("\ud83d"),
        ),
        max_size=40,
    ),
    st.sets(st.sampled_from(_DISCORD_HEADS), min_size=12),
)
def test_many_anchors_are_found_where_each_one_is(pieces, wanted):
    """A rule's many anchors are found in one search of the text, each place where one of
    those the text holds starts, in order (ASCII or not, a lone surrogate, anchors that
    overlap: `MTMTA`), and none of the rule's others."""
    text = "".join(pieces)
    found = redact_module._anchor_starts(text, wanted, _DISCORD_HEADS)
    assert found == _found_one_by_one(text, wanted)


class _CountedFinds(str):
    """A text that counts the scans of it for a substring."""

    finds = 0

    def find(self, *args):
        _CountedFinds.finds += 1
        return super().find(*args)


def test_a_text_holding_many_anchors_of_a_rule_is_not_scanned_for_each():
    """Random words hold a Discord token's heads (`MTA`, `NDc`...: ninety of them, base64's
    of a user id's first digits), twenty in 200,000 characters; a scan of the text for each
    was 0.9G of a 200 MB build's 16G instructions."""
    words = [f"w{head}{i:05}" for i in range(400) for head in _DISCORD_HEADS[i % 30 :: 30]]
    text = _CountedFinds(" ".join(words) + f" {DISCORD} and more")
    wanted = set(anchors_in(text)) & set(_DISCORD_HEADS)
    assert len(wanted) == 90
    _CountedFinds.finds = 0
    starts = redact_module._anchor_starts(text, wanted, _DISCORD_HEADS)
    assert _CountedFinds.finds < 10
    assert starts == _found_one_by_one(text, wanted)
    redacted = text.replace(DISCORD, "[REDACTED:discord-token]")
    assert redact(str(text)) == (redacted, {"discord-token": 1})


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


# -- issue 19: JSON text, glued names, linear rules, cuts --------------------------------

# The secrets that start a line of a file written by a tool call, as issue 19 planted them.
LINE_STARTERS = ["anthropic-key", "openai-key", "github-token", "gitlab-token", "slack-token"]
LINE_STARTERS += ["google-api-key", "stripe-key", "jwt"]


@pytest.mark.parametrize("kind", LINE_STARTERS)
def test_a_token_starting_a_line_of_json_text_is_redacted(kind):
    """In JSON text a line break is `\\n`: the `n` before the token is no letter of a word."""
    body = {"file_path": "/app/cfg.js", "content": f"const cfg = {{\n{SECRETS[kind]}\n}}"}
    for text in (json.dumps(body), json.dumps(body, indent=1)):
        for redacted, found in (redact(text), redact_json(text)):
            assert SECRETS[kind] not in redacted and found == {kind: 1}
            assert json.loads(redacted)["content"] == f"const cfg = {{\n[REDACTED:{kind}]\n}}"


def test_a_password_in_an_escaped_json_body_is_redacted():
    command = 'curl -d "{\\"password\\":\\"hunter2-Zx9\\"}" https://api.example.com/login'
    text = json.dumps({"command": command})
    # as a tool input, and as text that holds JSON text (a problem's excerpt)
    for redacted, found in (redact_json(text), redact(text)):
        assert "hunter2-Zx9" not in redacted and found == {"password": 1}
        assert json.loads(redacted)["command"] == command.replace(
            "hunter2-Zx9", "[REDACTED:password]"
        )


def test_json_strings_are_judged_by_their_key():
    """A value given to a key that ends in a keyword, escapes and all."""
    text = json.dumps({"PGPASSWORD": 'p@ss\\w"0rd!', "max_tokens": 4096, "token": "abc"})
    redacted, found = redact_json(text)
    assert json.loads(redacted) == {
        "PGPASSWORD": "[REDACTED:password]",
        "max_tokens": 4096,
        "token": "abc",
    }
    assert found == {"password": 1}


def test_json_without_a_secret_is_kept_as_written():
    text = '{"a": "key\\u00e9",   "b": 1.0}'  # spacing and escapes that re-encoding would change
    assert redact_json(text) == (text, {})
    assert redact_json('{"unclosed": "token=Zx9Yw8Vu7') == (
        '{"unclosed": "token=[REDACTED:token]',
        {"token": 1},
    )


@pytest.mark.parametrize(
    ("text", "expected", "kind"),
    [
        (
            "PGPASSWORD=Zx9Yw8Vu7 psql -h db",
            "PGPASSWORD=[REDACTED:password] psql -h db",
            "password",
        ),
        ("DBPASSWORD=hunter22", "DBPASSWORD=[REDACTED:password]", "password"),
        ("GITHUBTOKEN=abc123def456", "GITHUBTOKEN=[REDACTED:token]", "token"),
        ("export APITOKEN=Zq8vN2kL5", "export APITOKEN=[REDACTED:token]", "token"),
        ("x_api_token = 'Zq8vN2kL5mR7'", "x_api_token = '[REDACTED:token]'", "token"),
        ("\\nPGPASSWORD=Zx9Yw8Vu7", "\\nPGPASSWORD=[REDACTED:password]", "password"),
        ("MYSQLSECRET: f00Bar-baz-9", "MYSQLSECRET: [REDACTED:secret]", "secret"),
        (
            "GITHUBTOKEN is 8f3a9c2b7d1e4f6a8b0c2d4e6f8a0b1c",
            "GITHUBTOKEN is [REDACTED:high-entropy-token]",
            "high-entropy-token",
        ),
    ],
)
def test_a_keyword_at_the_end_of_any_name_counts(text, expected, kind):
    assert redact(text) == (expected, {kind: 1})


GLUED_LOOK_ALIKES = [
    "bcrypt.hash(password, 10)",  # a variable, and a placeholder
    "bcrypt.hash('password', 10)",
    "Use the token `GITHUB_TOKEN` from the secrets",  # names, in prose
    "pass the token `authToken` to the client",
    'the password `os.environ["DB_PASSWORD"]`',
    "the `password` field",
    " * - MONITORING_API_KEY: Shared secret for monitoring webhooks",  # a description
    'var transactionToken = "transactionToken"',  # a test's stand-in: the name as its value
    'apiKey: "api_key"',
    'fields = ("password", "username", "display_name")',  # names, not a default
    'required: ["token", "expires_at"]',
    'os.environ.get("DB_PASSWORD", "")',
    "process.env.API_TOKEN || 'changeme'",
    "ALTER USER app WITH PASSWORD '$APP_PASSWORD'",
    "password: `str`",
    "secrets: inherit",
    '{"@types/jsonwebtoken":"^9.0.4","jose":"^6.0.1"}',  # npm ls --json: a package, a version
    '"jsonwebtoken": "9.0.2"',
    "passwordless=enabled1",  # the keyword does not end the name
    "monkey: 8f3a9c2b7d1e4f6a8b0c2d4e6f8a0b1c",  # only `key` on its own
    "Tokenizer=BertTokenizer42",
]


@pytest.mark.parametrize("text", GLUED_LOOK_ALIKES)
def test_glued_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


def test_an_osc8_link_after_a_key_id_is_stripped_whole():
    """`ESC ]8;;URL ESC \\` was stripped to `8;;URL`, which glued itself to the key id."""
    link = "\x1b]8;;https://x.test\x07a link\x1b]8;;\x07"
    text = f"id {SECRETS['aws-access-key-id']}\x1b]8;;\x1b\\ and {link}"
    cleaned = clean_text(text)
    assert cleaned == f"id {SECRETS['aws-access-key-id']} and a link"
    assert redact(cleaned) == (
        "id [REDACTED:aws-access-key-id] and a link",
        {"aws-access-key-id": 1},
    )


# The rule as a single regex, before it found its footers once (pastfix/redact.py at ba896f0),
# with the prefix of a line a tool shows a file with (REDACTION_VERSION 8: Read's `     2→`).
_PREFIX = redact_module._PEM_LINE_PREFIX
_OLD_PEM = re.compile(
    r"-----BEGIN[A-Z0-9 ]{0,30} PRIVATE KEY(?: BLOCK)?-----"
    r"(?:(?:" + _PREFIX + r"|[A-Za-z0-9+/=\s:,-]|\\[nrt])*?"
    r"-----END[A-Z0-9 ]{0,30} PRIVATE KEY(?: BLOCK)?-----"
    r"|(?:" + _PREFIX + r"|[A-Za-z0-9+/=\s]|\\[nrt])*)"
)
_PEM_HEADER = re.compile(r"-----BEGIN[A-Z0-9 ]{0,30} PRIVATE KEY(?: BLOCK)?-----")
_PEM_PIECES = st.sampled_from(
    [
        "-----BEGIN RSA PRIVATE KEY-----",
        "-----END RSA PRIVATE KEY-----",
        "-----BEGIN PRIVATE KEY-----",
        "-----END EC PRIVATE KEY-----",
        "MIIEow+/=",
        "MIIEowIBAAKCAQEA",
        "\n",
        "\\n",
        " ",
        "!",
        "-",
        ":,",
        "[... cut ...]",
        "     2→",
        "key.pem:",
        "k.pem-12-",
        "\\t",
    ]
)


@given(st.lists(_PEM_PIECES, max_size=12))
def test_private_keys_found_once_are_what_the_regex_found(pieces):
    """The linear finder replaces what the single regex (quadratic without a footer) did,
    at each header that a run of key text follows (REDACTION_VERSION 6: a header named in
    a document, `-----BEGIN PRIVATE KEY-----\\n...`, is no key)."""
    text = "".join(pieces)
    old = []
    done = 0
    for header in _PEM_HEADER.finditer(text):
        m = _OLD_PEM.match(text, header.start())
        if m and m.start() >= done and re.search("[A-Za-z0-9+/]{16}", text[header.end() : m.end()]):
            old.append(m.span())
            done = m.end()
    assert list(redact_module._private_keys(text)) == old


def test_adversarial_texts_are_redacted_as_before():
    """What the adversarial rows of benchmarks/redaction.py time is redacted as before."""
    redacted, found = redact("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n" * 300)
    assert found == {"private-key": 300} and "PRIVATE KEY" not in redacted
    assert redact("-----BEGIN RSA PRIVATE KEY-----\n" * 300)[1] == {}  # headers, no key
    assert redact("password=" * 2000) == ("password=" * 2000, {})


def test_a_value_longer_than_a_rule_judges_goes_whole():
    """A rule judges the head of a long value; the rest does not stay behind the marker."""
    key = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" * 50  # a DER key in base64, on one line
    assert redact(f"PRIVATE_KEY={key}\n") == ("PRIVATE_KEY=[REDACTED:api-key]\n", {"api-key": 1})
    run = "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed9Cb8Aa7" * 40
    assert redact(f"signing key: {run}.") == (
        "signing key: [REDACTED:high-entropy-token].",
        {"high-entropy-token": 1},
    )
    # a marker names a kind: `[REDACTED:token]` is no keyword before what follows it
    assert redact("[REDACTED:token]: Zx9Yw8Vu7Ts6Rq5Po4") == (
        "[REDACTED:token]: Zx9Yw8Vu7Ts6Rq5Po4",
        {},
    )


# -- a secret at any position, as text and as JSON text, and across every cut ------------

# What may come before or after a secret: a separator, as text or as a JSON escape.
_SEPARATORS = st.sampled_from([" ", "\n", "\t", "=", ": ", "(", '"', "'", "\\n", "\\t", "`"])
_FILLER = st.text(
    alphabet=st.sampled_from(list('ab -_:/=k"\\\n{}') + ["é", "日", "🙂"]), max_size=30
)
_PLANTED = {**SECRETS, "private-key": PEM, "aws-secret-key": f"aws_secret_access_key={AWS_SECRET}"}


def _fragments(kind):
    """The parts of a secret that must never be stored: every 10 characters of its value."""
    secret = _PLANTED[kind]
    if kind == "aws-secret-key":
        secret = AWS_SECRET
    elif kind == "private-key":
        secret = PEM.splitlines()[1]
    return [secret[i : i + 10] for i in range(len(secret) - 9)]


def _assert_gone(kind, *texts):
    for text in texts:
        for fragment in _fragments(kind):
            assert fragment not in text, (kind, fragment, text[:300])


# What may come right before a secret besides: a terminal's colour code, as text or JSON.
_BEFORE = st.one_of(
    _SEPARATORS, st.sampled_from(["\x1b[32m", "\x1b[1;31m", "\\u001b[0m", "\x1b[38;5;196m"])
)


@given(st.sampled_from(sorted(_PLANTED)), _FILLER, _BEFORE, _SEPARATORS, _FILLER)
def test_a_secret_anywhere_in_text_or_json_is_never_kept(kind, before, left, right, after):
    text = before + left + _PLANTED[kind] + right + after
    _assert_gone(kind, redact(text)[0])
    as_json = json.dumps({"command": text, "nested": [{"content": text}]}, ensure_ascii=False)
    redacted, _ = redact_json(as_json)
    _assert_gone(kind, redacted, redact(as_json)[0])
    decoded = json.loads(redacted)
    _assert_gone(kind, decoded["command"], decoded["nested"][0]["content"])


# -- the build's way through a batch (issue 19, speed) -----------------------------------


@pytest.mark.parametrize("scanner", ["re2", "none"])
def test_redact_each_redacts_what_redact_does_text_by_text(monkeypatch, scanner):
    """redact_each() (a scan per text, the rules only where one found an anchor) yields
    what redact() or redact_json() gives each text that holds a secret, and only those."""
    if scanner == "none":
        monkeypatch.setattr(redact_module, "_SCANNER", None)
    texts = [
        None,
        "",
        "short key",
        *(f"see {secret}." for secret in SECRETS.values()),
        PEM,
        # both keyword rules on one text, the second after the first replaced a value
        f"password=hunter2Zq9x and key: {'9f86d081884c7d659a2feaa0' * 2}",
        "the key to a monkey's Tokenizer",
        json.dumps({"command": f"export PGPASSWORD=Pg9Zx8Wv7Ut6\n{SECRETS['github-token']}"}),
        '{"password": "hunter2Zq9x"}',
        *LOOK_ALIKES,
    ]
    columns = []
    for as_json, one in ((False, redact), (True, redact_json)):
        expected = [(i, *one(text)) for i, text in enumerate(texts) if text and one(text)[1]]
        assert list(redact_module.redact_each(texts, json=as_json)) == expected
        assert len(expected) >= len(SECRETS) + 4
        columns.append(((texts, as_json), expected))
    # a batch's columns at once, as prepare() gives them, in either order
    for order in (columns, columns[::-1]):
        found = redact_module.redact_columns([column for column, _ in order])
        assert found == [expected for _, expected in order]


def test_a_variables_name_after_a_keyword_is_kept():
    """`${{ secrets.NAME }}` in a workflow names a secret; it is none (Gemini CLI sample)."""
    text = "FIREBASE_TOKEN: ${{ secrets.FIREBASE_SERVICE_ACCOUNT_DASHBOARD_MICTLAN_V1 }}"
    assert redact(text) == (text, {})
    # an action pinned to a commit is a git SHA
    pinned = "uses: 'actions/create-github-app-token@29824e69f54612133e76f7eaac726eef6c875baf'"
    assert redact(pinned) == (pinned, {})
    # a generated key, with underscores and both cases in its parts, still goes
    assert redact("secret_key=Zx9_Qw8_Er7_Ty6_Ui5_Op4_As3_Df2_Gh1_Jk0")[1] == {"secret": 1}


@pytest.mark.parametrize(
    ("argv", "password"),
    [
        (["curl", "-u", "admin:Cu5Rl4Pw3Qz2", "https://api.example.com"], "Cu5Rl4Pw3Qz2"),
        (["mysql", "-uroot", "-pMy5qlPw3Qz", "shop"], "My5qlPw3Qz"),
        (["sshpass", "-p", "Ss5hPw3Qz9", "ssh", "deploy@host"], "Ss5hPw3Qz9"),
        (["psql", "--password", "Pg5Pw3Qz9x", "shop"], "Pg5Pw3Qz9x"),
    ],
)
def test_a_password_among_a_commands_arguments_is_redacted(argv, password):
    """A Codex `shell` call's command is a list of arguments: each alone says nothing (the
    password after `-u` is just `admin:...`), the command they make does."""
    redacted, found = redact_json(json.dumps({"command": argv, "workdir": "/home/dev/shop"}))
    assert password not in redacted and found == {"password": 1}
    kept = json.loads(redacted)["command"]
    assert len(kept) == len(argv) and kept[0] == argv[0] and kept[-1] == argv[-1]


@pytest.mark.parametrize(
    "argv",
    [
        ["git", "commit", "-m", "password reset page: keep the token in the session"],
        ["curl", "-u", "admin:$ADMIN_PASSWORD", "https://api.example.com"],
        ["docker", "run", "-p", "8080:80", "nginx"],
        ["ls", "-la", "/home/dev/shop"],
    ],
)
def test_arguments_without_a_password_are_kept(argv):
    text = json.dumps({"command": argv})
    assert redact_json(text) == (text, {})


# -- REDACTION_VERSION 6: a .env value's delimiters, `$` that begins no variable, a dash ---


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("DB_PASSWORD=Qx7,Lm9&vT2;pQ8\nDEBUG=1", "Qx7,Lm9&vT2;pQ8"),
        ("export API_TOKEN=ab,cd;ef(gh)ij1K2\n", "ab,cd;ef(gh)ij1K2"),
        ("  SECRET_KEY=Qx7,Lm9&vT2 # the app's", "Qx7,Lm9&vT2"),
    ],
)
def test_a_dotenv_value_runs_to_the_end_of_its_line(text, secret):
    """In code `,;&()` end a value (`f(password=pw, x)`); on a .env line they are part of
    it, and the head before the first (`Qx7`) is too short to be judged a secret alone."""
    for redacted, found in (redact(text), redact_json(json.dumps({"content": text}))):
        assert found and secret not in redacted
        for piece in re.split(r"[,;&()]", secret):
            assert piece not in redacted


@pytest.mark.parametrize(
    "text",
    [
        "MAX_TOKENS=1000,2000\n",  # numbers, not a secret
        "SECRET_KEY=change-me-in-production,\n",  # words, with a trailing comma
        "x = f(DB_PASSWORD=abc, y)",  # not a line of its own: code's comma ends the value
        "TOKEN=${TOKEN}\n",
    ],
)
def test_dotenv_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


def test_a_value_that_only_starts_with_a_dollar_is_judged():
    """`$NAME`, `${X}` and `$(cmd)` are variables; `$ecret!Pa55` and a bcrypt hash are not."""
    assert redact("password=$ecret!Pa55") == ("password=[REDACTED:password]", {"password": 1})
    assert redact('password = "$2b$10$Qm4xZ8pL2vN7rT1yW5kJ3e"')[1] == {"password": 1}
    for kept in ("password=$DB_PASS", "password=$(pass show db)", "PASSWORD=${DB_PASS}"):
        assert redact(kept) == (kept, {})


def test_a_token_after_a_dash_is_redacted():
    """A token pasted into a branch's name (`feat-ghp_...`) is no longer part of a word."""
    text = f"git checkout -b feat-{SECRETS['github-token']}"
    assert redact(text) == ("git checkout -b feat-[REDACTED:github-token]", {"github-token": 1})


def test_a_private_key_header_without_key_text_is_kept():
    """A document that shows where a key goes (`"private_key": "-----BEGIN PRIVATE
    KEY-----\\n...\\n-----END PRIVATE KEY-----\\n"`) holds no key."""
    for text in (
        '{"private_key": "-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----\\n"}',
        "-----BEGIN RSA PRIVATE KEY-----\n<your key here>\n-----END RSA PRIVATE KEY-----",
    ):
        assert redact(text) == (text, {})
    assert redact(PEM)[1] == {"private-key": 1}


# -- REDACTION_VERSION 8 (session 21's red team): escapes, line prefixes, URLs, case ------

# What the red team found kept, as each text was written, and the secret in it.
ESCAPED = [
    # JSON's \uXXXX and \/ in a tool call's input, as a model may write it
    ('{"mount":"kv","p\\u0061ssword":"Rz8kQ2vLmN4x"}', "Rz8kQ2vLmN4x"),
    ('{"url":"https:\\/\\/admin:Wq7TzK3pLx9v@db.example.com\\/x"}', "Wq7TzK3pLx9v"),
    ('{"content":"id=\\u0041KIAB7Q3XW5N2R8T4RPX\\n"}', "KIAB7Q3XW5N2R8T4RPX"),
    (
        '{"command":["bash","-lc","echo \\u0067hp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234 > t"]}',
        "R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234",
    ),
    # every character escaped (ensure_ascii of a non-ASCII text, or a model's whim)
    (
        "".join(f"\\u{ord(c):04x}" for c in "ANTHROPIC=sk-ant-api03-Zq8vN2kL5mR7tX1wY4bC6dF9gH3"),
        "Zq8vN2kL5mR7tX1wY4bC6dF9gH3",
    ),
    # a token that an escape splits: cut at the escape as written, its rest no token
    ("xoxb-1234567890-\\u0041bCdEfGhIjKlMnOpQrStUvWx", "KlMnOpQrStUvWx"),
    # a password that holds a percent-escape of a delimiter: cut at it once decoded
    ("mysql -uroot -p3iwW%3CZzT*1oQ shop", "ZzT*1oQ"),
    ("sshpass -p 5BLe%5CmmQ%W7k ssh deploy@host", "mmQ%W7k"),
    # an escape of an escape: JSON text inside a JSON string
    (
        '{"content":"{\\"k\\": \\"\\\\u0067hp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234\\"}"}',
        "R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234",
    ),
    # a hex escape, in a command
    ("printf '\\x41KIAB7Q3XW5N2R8T4RPX' > id", "KIAB7Q3XW5N2R8T4RPX"),
    # percent-escapes (leak 6)
    ("GET /login?next=%2Fapi%3Fapi_key%3D4rEL*zidW9^4zL HTTP/1.1", "4rEL*zidW9^4zL"),
    (
        "https://ghp%5FR4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234@api.github.com/repos",
        "R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234",
    ),
    ("/charge?k=sk%5Flive%5F4eC39HqLyjWDarjtT1zdp7dc&x=1", "4eC39HqLyjWDarjtT1zdp7dc"),
    # a colour code before an assigned value (leak 7), as JSON text and as text
    ("printf 'DB_PASSWORD=\\u001b[32mQz8Lm4Vx2Rt9\\u001b[0m'", "Qz8Lm4Vx2Rt9"),
    ("DB_PASSWORD=\x1b[32mQz8Lm4Vx2Rt9\x1b[0m", "Qz8Lm4Vx2Rt9"),
    ("echo -e 'password: \\033[1;31mQz8Lm4Vx2Rt9\\033[0m'", "Qz8Lm4Vx2Rt9"),
]


def _unescaped(text):
    """`text` with JSON, hex and percent escapes decoded, as an output may show it."""
    text = re.sub(r"\\+u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
    text = re.sub(r"\\+x([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), text)
    text = re.sub(r"%([0-7][0-9a-fA-F])", lambda m: chr(int(m.group(1), 16)), text)
    return re.sub(r"\\+/", "/", text)


@pytest.mark.parametrize(("text", "secret"), ESCAPED)
def test_a_secret_behind_an_escape_is_redacted(text, secret):
    """Before, the rules read a text as written: `p\\u0061ssword`, `https:\\/\\/`, `%5F`
    and a colour code hid a secret from them, and an output that decodes the text showed it."""
    as_json = json.dumps({"command": text})
    for redacted, found in (redact(text), redact_json(text), redact_json(as_json), redact(as_json)):
        assert found, redacted
        assert secret not in redacted and secret not in _unescaped(redacted)
    # JSON text stays JSON: an escape is replaced whole or kept whole
    assert json.loads(redact(as_json)[0])
    if text.startswith("{"):
        assert json.loads(redact(text)[0])


@pytest.mark.parametrize(
    "text",
    [
        '{"path":"C:\\\\xampp\\\\htdocs","note":"\\u00e9t\\u00e9 100%"}',
        "GET /search?q=caf%C3%A9&page=2 200 OK %20 %3D",
        '{"url":"https:\\/\\/registry.npmjs.org\\/@types%2fnode"}',
        "printf '\\033[32mok\\033[0m password reset done'",
        '{"k":"\\u0070assword","v":"\\u003cyour-password\\u003e"}',
    ],
)
def test_escapes_without_a_secret_are_kept(text):
    assert redact(text) == (text, {})
    assert redact_json(text)[1] == {}


@pytest.mark.parametrize(
    "shown",
    [
        # Claude Code's Read and the snippet of an Edit's result: `     2→` before each line
        lambda i, line: f"{i:6}→{line}",
        lambda i, line: f"{i:6}\t{line}",  # cat -n
        lambda i, line: f"key.pem:{line}",  # grep
        lambda i, line: f"secrets/key.pem-{i + 11}-{line}",  # grep -n -C
        lambda i, line: f"id_rsa:{i + 11}:{line}",  # grep -n
        lambda i, line: f"{i:4} │ {line}",  # bat
    ],
)
def test_a_private_key_shown_with_line_prefixes_is_redacted(shown):
    """The arrow of Read's line numbers stopped the key's body (`cat -n`'s tab did not)."""
    lines = PEM.splitlines()
    text = "\n".join(shown(i, line) for i, line in enumerate(lines, 1))
    cut = "\n".join(shown(i, line) for i, line in enumerate(lines[:-1], 1))
    for redacted, found in (
        redact(text),
        redact(cut),  # cut short before its footer
        redact_json(json.dumps({"content": text})),
        redact(json.dumps({"content": text})),  # as JSON text, the arrow escaped
    ):
        assert found == {"private-key": 1}, redacted
        for line in lines[1:-1]:
            assert line[:16] not in redacted


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "postgresql://app:p2qL*v7wLS#H8o@db.internal:5432/app",
            "postgresql://app:[REDACTED:url-password]@db.internal:5432/app",
        ),
        (
            "redis://default:Hx7#Tq9Lm2Vb@cache:6379",
            "redis://default:[REDACTED:url-password]@cache:6379",
        ),
        (
            "mysql://root:Jt5M4/2DXMNaAL@127.0.0.1/db",
            "mysql://root:[REDACTED:url-password]@127.0.0.1/db",
        ),
        ("amqp://u:Pq?9/z@Lm2@mq/vhost", "amqp://u:[REDACTED:url-password]@mq/vhost"),
        # the userinfo ends before a host, not at an `@` of the path
        (
            "https://ci:Zq8vN2kL5m@registry.example.com/@scope/pkg",
            "https://ci:[REDACTED:url-password]@registry.example.com/@scope/pkg",
        ),
    ],
)
def test_a_url_password_with_unencoded_delimiters_goes_whole(text, expected):
    assert redact(text) == (expected, {"url-password": 1})


@pytest.mark.parametrize(
    "text",
    [
        "npm install https://registry.npmjs.org/@scope/pkg/-/pkg-1.0.0.tgz",
        "https://registry.npmjs.org:443/@types/node",
        "http://localhost:3000/users/@me and http://[::1]:8080/@x",
        "git@github.com:owner/repo.git ssh://git@github.com:22/o/r@v1",
        "https://medium.com/@author/post#@section",
        "commit by Dev <dev@example.com> https://example.com:8443/a?b=c@d",
    ],
)
def test_urls_with_an_at_sign_in_their_path_are_kept(text):
    assert redact(text) == (text, {})


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("AUTHORIZATION: BEARER Zx9Yw8Vu7Ts6Rq5Po4Nm3", "bearer-token"),
        ("authorization: bearer Zx9Yw8Vu7Ts6Rq5Po4Nm3", "bearer-token"),
        ("authorization: basic ZGVwbG95OlJlcHJvUGFzczc5", "basic-auth"),
        ("Authorization: BASIC ZGVwbG95OlJlcHJvUGFzczc5", "basic-auth"),
        ("Authorization: Basic\tZGVwbG95OlJlcHJvUGFzczc5", "basic-auth"),
        ('{"h": "Authorization: Basic\\tZGVwbG95OlJlcHJvUGFzczc5"}', "basic-auth"),
    ],
)
def test_an_auth_scheme_in_any_case_is_read(text, kind):
    """Schemes are case-insensitive (RFC 7235); a tab may follow one."""
    redacted, found = redact(text)
    assert found == {kind: 1}
    assert "Zx9Yw8Vu7Ts6" not in redacted and "ZGVwbG95" not in redacted


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("password: Zx;KY34Bh8DW4ro\n", "Zx;KY34Bh8DW4ro"),
        ("POSTGRES_PASSWORD: (1HVo%Jcuz3)\n", "1HVo%Jcuz3"),
        ("my api_key=ab&YOr4dqPSi0O9 if you need it", "ab&YOr4dqPSi0O9"),
        ("  secret: Qv7|mT2,Lp9x\n  other: 1", "Qv7|mT2,Lp9x"),
    ],
)
def test_an_unquoted_value_with_delimiters_goes_whole(text, secret):
    """A delimiter that ends a value in code (`;&|,()`) cut these to a head too short to
    be judged (`Zx`); the whole word is judged when the head is not a secret alone."""
    for redacted, found in (redact(text), redact_json(json.dumps({"content": text}))):
        assert found, redacted
        for piece in re.split(r"[,;&|()%]", secret):
            assert len(piece) < 3 or piece not in redacted


@pytest.mark.parametrize(
    "text",
    [
        "password=getpass(); token=tokens[0];",
        "Server=db;Password=Abc123;User=bob",  # a short value, then the next assignment
        "API_KEY: (required)\nDB_PASSWORD: (hidden)\nSECRET: [none]",
        "password = hash(pw1) && token=a1||b2",
        "password=p1;x=2 key: value; token: str",
        "token: [REDACTED:github-token]",
    ],
)
def test_delimited_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


# Where each escape may stand for a character of a secret or of what introduces it.
def _escape(c, how):
    if how == "json":
        return f"\\u{ord(c):04x}"
    if how == "percent" and ord(c) < 0x80:
        return f"%{ord(c):02X}"
    if how == "slash" and c == "/":
        return "\\/"
    return c


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(sorted(_PLANTED)),
    _FILLER,
    _BEFORE,
    st.lists(st.sampled_from(["json", "percent", "slash", "none"]), min_size=1, max_size=4),
    st.randoms(use_true_random=False),
    _FILLER,
)
def test_a_secret_behind_escapes_anywhere_is_never_kept(kind, before, left, hows, rnd, after):
    """Any characters of a secret written as JSON, percent or slash escapes, in text or in
    JSON text written with or without escapes, are never kept, as written or decoded."""
    secret = _PLANTED[kind]
    written = "".join(_escape(c, rnd.choice(hows)) if c != "\n" else c for c in secret)
    if "%" in written and kind == "private-key":
        written = secret  # (a key's body is no URL's)
    text = before + left + written + " " + after
    outputs = [redact(text)[0]]
    for ascii_only in (True, False):
        as_json = json.dumps(
            {"command": text, "nested": [{"content": text}]}, ensure_ascii=ascii_only
        )
        redacted = redact_json(as_json)[0]
        outputs += [redacted, json.loads(redacted)["command"], redact(as_json)[0]]
    for output in outputs:
        _assert_gone(kind, output, _unescaped(output), _unescaped(_unescaped(output)))


# -- a long value judged once, keywords tried in order (session 21) ---------------------

_KEYWORD_PIECES = st.sampled_from(
    ["api_key", "key", "secret_key_base", "password", "token", "Token", "KEY", ": ", "=", " ", "s"]
    + ['"', "`", "is ", "\\n", "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed9", "Cb8Aa7", "(", "env"]
)


@given(st.lists(_KEYWORD_PIECES, max_size=16))
def test_keywords_are_tried_in_order_of_their_secret(pieces):
    """_at_keywords gives what a sort of every match by its secret's start did."""
    text = "".join(pieces)
    for rule in redact_module.RULES:
        if not rule.keyword:
            continue
        pattern = re.compile(rule.pattern)
        starts = redact_module._keyword_starts(
            text, frozenset(anchors_in(text) & set(rule.anchors))
        )
        matches = filter(None, (pattern.match(text, s) for s in starts))
        old = sorted(matches, key=lambda m: m.start(rule.group))
        new = redact_module._at_keywords(pattern, text, starts, rule.group, [0])
        assert [m.span() for m in new] == [m.span() for m in old]


# -- a rule searched for, not tried at each of its anchors (session 39) -------------------

_EXPORTED_PIECES = st.sampled_from(
    ["export", " ", "\t", "\n", "SIGNING", "=", "'", '"', ";", "/", ".", "-", "x", "default"]
    + ["8f3KqZx9Yw8Vu7Ts6Rq5Po4N", "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed9", "export DEPLOY_HOOK="]
)


@given(st.lists(_EXPORTED_PIECES, max_size=16))
def test_a_searched_rule_finds_what_a_match_at_each_anchor_found(pieces):
    """A `searched` rule's pattern, its lookbehind written after its anchor, finds by a
    search the spans its pattern as written before (the lookbehind first) found tried at
    each of its anchors, in the same order, a long value judged no secret included."""
    text = "".join(pieces)
    for rule in redact_module.RULES:
        if not rule.searched:
            continue
        (anchor,) = rule.anchors
        head = re.match(rf"{anchor}\(\?<!(.*?){anchor}\)", rule.pattern)
        assert head is not None
        before = rule._replace(
            pattern=f"(?<!{head[1]}){anchor}{rule.pattern[head.end() :]}", searched=False
        )
        found = redact_module._hits(rule, text, {anchor}, {})
        assert list(found) == list(redact_module._hits(before, text, {anchor}, {}))


def test_a_common_anchor_is_searched_for_not_tried_at_each_place(monkeypatch):
    """`export` is mostly a module's (`export default`, 53,536 times in the 200 MB corpus's
    texts): the exported literal's rule searches for its pattern, and no longer finds each
    `export` to try its match there."""
    scanned = []
    anchor_starts = redact_module._anchor_starts

    def recorded(text, anchors, among=()):
        scanned.append(set(anchors))
        return anchor_starts(text, anchors, among)

    monkeypatch.setattr(redact_module, "_anchor_starts", recorded)
    module = "export default App;\nexport const x = 1;\n" * 20
    text = f"{module}export SIGNING={SECRET}; echo ok"
    assert redact(text) == (f"{module}export SIGNING=[REDACTED:secret]; echo ok", {"secret": 1})
    assert not any("export" in anchors for anchors in scanned)


# -- a rule tried only on a text that holds a part of its secret (session 39) -------------

_TOKEN_PIECES = st.sampled_from(
    ["MTA", "NDk", "OTg", "Mjc", "x", " ", ".", "-", "\n", "MTk4NjIyNDgzNDcxOTI1MjQ4", "Gh3jK0"]
    + ["Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0p", "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4"]
    + ["se7kKWs"]
)


@given(st.lists(_TOKEN_PIECES, max_size=12))
def test_a_rule_that_needs_a_part_of_its_secret_finds_what_it_found_without(pieces):
    """A rule's `holds` is a part of every match of its pattern: a text without one holds
    nothing the rule would find, and a text with one gives the spans it gave before."""
    text = "".join(pieces)
    present = anchors_in(text)
    held = [rule for rule in redact_module.RULES if rule.holds]
    assert held
    for rule in held:
        if present.isdisjoint(rule.anchors):
            continue
        found = list(redact_module._hits(rule, text, present, {}))
        assert found == list(redact_module._hits(rule._replace(holds=""), text, present, {}))


def test_a_text_without_a_discord_tokens_tail_is_not_scanned_for_its_heads(monkeypatch):
    """A Discord token's heads (`MTA`, `NDk`, 90 of them) are in 713 texts of the 200 MB
    corpus and the real one, long ones 32 and more, which the rule scanned for each: only a
    text that holds its tail (`.Cl2FMQ.` and the HMAC) is."""
    scanned = []
    anchor_starts = redact_module._anchor_starts

    def recorded(text, anchors, among=()):
        scanned.append(set(anchors))
        return anchor_starts(text, anchors, among)

    monkeypatch.setattr(redact_module, "_anchor_starts", recorded)
    words = " ".join(f"{head}x" for head in redact_module._DISCORD_HEADS)
    assert redact(words) == (words, {})
    assert not any(anchors & set(redact_module._DISCORD_HEADS) for anchors in scanned)
    text = f"{words} {DISCORD} ok"
    assert redact(text) == (f"{words} [REDACTED:discord-token] ok", {"discord-token": 1})


# -- a URL's password without its scheme, at each `@` (session 40) ----------------------

_AT_PIECES = st.sampled_from(
    ["app", ":", "Xk9vQ2mL7pR4", "@", "@@", "db.internal", ":5432", "/app", " ", "tcp(", "DB="]
    + ["bob@example.com", '"', "localhost", "/", "[REDACTED:password]", "\n", "node:20@sha"]
)


@given(st.lists(_AT_PIECES, max_size=14))
def test_bare_url_passwords_are_read_at_each_at_a_search_finds(pieces):
    """The `@`s that a service's address follows, found by str.find and a match at each,
    are the places a search of the text for one finds, in order."""
    text = "".join(pieces)
    searched = [
        span
        for found in redact_module._BARE_AT.finditer(text)
        for span in redact_module._bare_url_password(text, found.start())
    ]
    assert list(redact_module._bare_url_passwords(text)) == searched


# -- a rule tried only on a text that holds its gate (session 41) ----------------------

_GATED = [rule for rule in redact_module.RULES if rule.gate]
# What a bare URL's password is read from (see _bare_url_passwords): a user, a password, its
# `@` and a service's address.
_BARE_URL = redact_module._BARE_USERINFO.pattern + "@(?:" + redact_module._BARE_HOST.pattern + ")"


def _scanned_gate(gate: str, text: str) -> bool:
    """Whether an RE2 set holding `gate` finds it in `text`, as the build's scan does."""
    re2 = pytest.importorskip("re2")
    found = re2.Set.SearchSet()
    found.Add(gate)
    found.Compile()
    return bool(found._set.Match(text.encode("utf-8", "surrogatepass")))


def _gated_rule_id(rule: redact_module.Rule) -> str:
    return f"{redact_module.RULES.index(rule)}-{rule.kind}"


@pytest.mark.parametrize("rule", _GATED, ids=_gated_rule_id)
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_gate_holds_every_match_of_its_rule(rule, data):
    """A gate (Rule.gate) is a regex that every match of its rule's pattern holds a match
    of, in RE2's scan and in Python's re (without google-re2): a text without one holds
    nothing the rule finds. Hypothesis writes texts its pattern matches, in any script
    (`ı` and `K` are an `i` and a `k` to Python's re where case is ignored, a digit of any
    script a `\\d`, a space of any script a `\\s`)."""
    pattern = _BARE_URL if rule.find else rule.pattern
    text = data.draw(st.from_regex(pattern))
    # (a bare URL's password that starts with a `/` is the scheme's, never the rule's)
    assume(
        any(not m.group("password").startswith("/") for m in re.finditer(pattern, text))
        if rule.find
        else re.search(pattern, text)
    )
    assert re.search(rule.gate, text)
    assert _scanned_gate(rule.gate, text)


@pytest.mark.parametrize(
    "text",
    [
        "the credentıals: deploy/Hunter2xQ9",
        "LOGİN is jdoe / Winter2026!",
        "then sıgn in as deploy/Hunter2xQ9",
        "api_\u212aey = 'Zq8vN2kL5mR7xY3w'",
        "password\u0663 = Zq8vN2kL5mR7",
        "export\u00a0SIGNING=8f3KqZx9Yw8Vu7Ts6Rq5",
        "token\u3000is\u2003Zx9Yw8Vu7Ts6Rq5Po4Nm3",
        "<password>hunter2Zq9x</password>",
        "DB=app:Xk9vQ2mL7pR4@db.internal:5432/app",
    ],
)
def test_a_gate_holds_a_match_in_any_script(text):
    """The letters, digits and spaces that only Python's re takes for ASCII ones where a
    pattern asks for them: each text holds a match of a gated rule, and of its gate."""
    rules = [rule for rule in _GATED if re.search(_BARE_URL if rule.find else rule.pattern, text)]
    assert rules
    for rule in rules:
        assert re.search(rule.gate, text) and _scanned_gate(rule.gate, text)


_GATE_PIECES = st.sampled_from(
    ["password", "API_KEY", "token", "Token", "secret", "key", "Key", "_key", "login", "creds"]
    + ["export", "export SIGNING", "ı", "K", "\u0663", "\u00a0", "<password>", "</x>", "env"]
    + [": ", "=", " = ", '": "', "=>", " is ", " / ", "/", "@", ">", "||", " or ", "`", "**", "{"]
    + ["'", '"', "\\\n", " ", "\n", "app:", "db.internal:5432/", "localhost/", "tcp(", "x"]
    + ["Zq8vN2kL5mR7xY3wQ1", "Xk9vQ2mL7pR4", "hunter2Zq9x", "8f3KqZx9Yw8Vu7Ts6Rq5Po4N"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_GATE_PIECES, max_size=14))
def test_gated_rules_redact_what_they_redacted_without_their_gates(pieces):
    """The gates skip rules, never a secret: redact() and redact_json() give what they gave
    with every rule tried on each text that holds one of its anchors."""
    text = "".join(pieces)
    gated = (redact(text), redact_json(json.dumps({"command": text})))
    with pytest.MonkeyPatch.context() as patched:
        ungated = tuple(rule._replace(gate="") for rule in redact_module.RULES)
        patched.setattr(redact_module, "RULES", ungated)
        assert (redact(text), redact_json(json.dumps({"command": text}))) == gated


def test_a_rule_is_not_tried_on_a_text_without_its_gate(monkeypatch):
    """A module's `export default`, JSX's `key={...}`, an email's `@`, a `login(` call: the
    exported literal's, the assignment's, a bare URL's and the login's rules are not tried
    on a text whose anchors are theirs and nothing more (texts of the 200 MB corpus, where
    they found nothing in 11,525, 3,900, 10,076 and 2,830 texts)."""
    tried = []
    apply = redact_module._apply

    def recorded(rule, *args):
        tried.append(rule.kind)
        return apply(rule, *args)

    monkeypatch.setattr(redact_module, "_apply", recorded)
    text = (
        "export default function App({ items }) {\n"
        "  return items.map((item) => <li key={item.id}>{item.name}</li>);\n"
        "}\n// mail bob@example.com, then login(user, token);\n"
    )
    assert redact(text) == (text, {})
    assert tried == []
    secret = "export SIGNING=8f3KqZx9Yw8Vu7Ts6Rq5Po4N; echo ok"
    assert redact(f"{text}{secret}")[1] == {"secret": 1}
    assert "secret" in tried


# -- a text without an anchor (session 40) ---------------------------------------------


def test_a_text_without_an_anchor_is_answered_by_the_scan_alone(monkeypatch):
    """Most texts hold no anchor: redact() and redact_json() answer them from the set's
    own scan, not through re2's wrapper of it nor the rules' entry."""

    def unwanted(*args):
        raise AssertionError(args)

    if redact_module._SCANNER is not None:
        monkeypatch.setattr(redact_module, "_SCANNER", SimpleNamespace(Match=unwanted))
    monkeypatch.setattr(redact_module, "_redact", unwanted)
    monkeypatch.setattr(redact_module, "_redact_json", unwanted)
    text = "collected 12 items; all passed in 0.41s"
    assert not anchors_in(text)
    assert redact(text) == (text, {})
    assert redact_json('{"command": "ls -la"}') == ('{"command": "ls -la"}', {})


def test_a_value_cut_inside_a_marker_takes_the_marker_whole():
    """Hypothesis found a command's password, cut at its 200 characters, end inside the
    marker of a token an earlier rule replaced, and half that marker left behind."""
    token = SECRETS["telegram-bot-token"]
    text = f"curl -u a:{token}{SECRETS['jwt']}{token}"
    spans = []
    redacted = redact_module._run_rules(text, anchors_in(text), {}, spans)
    assert (redacted, spans) == ("curl -u a:[REDACTED:password]", [(10, len(text), "password")])
    assert redact(text)[0] == "curl -u a:[REDACTED:password]"


def test_a_value_cut_in_the_first_letters_of_a_marker_takes_it_whole():
    """Cut at `[REDACT` of the last marker in it, the value's marker was looked for before
    the cut and the one before it found: `:anthropic-key]` was left behind (hypothesis, the
    test below, session 34)."""
    pieces = [
        "curl -u a:",
        "dapi8f3a9c2b7d1e4f6a8b0c2d4e6f8a0b1c",
        SECRETS["anthropic-key"],
        "dop_v1_" + "8f3a9c2b7d1e4f6a" * 4,
        "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4",
        SECRETS["anthropic-key"],
    ]
    text = "".join(pieces)
    spans = []
    redacted = redact_module._run_rules(text, anchors_in(text), {}, spans)
    assert redacted == "curl -u a:[REDACTED:password]"
    assert spans == [(10, len(text), "password")]
    assert redact(text)[0] == "curl -u a:[REDACTED:password]"


_RULE_PIECES = st.sampled_from(
    [*SECRETS.values(), PEM, "password=", "Zq8vN2kL5mR7", " ", "\n", "://u:", "@db", "[REDACTED:"]
    + ["key: ", "Bearer ", "curl -u a:", "x", "-", '"', "token=", "aws_secret_access_key="]
)


@given(st.lists(_RULE_PIECES, max_size=10))
def test_the_spans_replaced_are_where_the_markers_went(pieces):
    """_run_rules() with `replaced` gives the spans of the text it was given that its
    markers replaced, through rules that replaced one after another (_placed)."""
    text = "".join(pieces)
    present = anchors_in(text)
    spans = []
    redacted = redact_module._run_rules(text, present, {}, spans)
    parts, done = [], 0
    for start, end, kind in spans:
        assert done <= start < end
        parts += (text[done:start], f"[REDACTED:{kind}]")
        done = end
    assert "".join(parts) + text[done:] == redacted


def test_a_long_value_judged_no_secret_is_read_once():
    """A keyword inside a long value judged no secret is not judged again (a megabyte of
    `password=` was read 500 times over); what the rules find elsewhere is the same."""
    for unit in ("password=", "key=", "aws_secret_access_key=", "api_key=aB3dE5fG7h "):
        text = unit * (20_000 // len(unit))
        redacted, found = redact(text)
        if unit.endswith(" "):
            assert found == {"api-key": text.count(unit)}
        else:
            assert (redacted, found) == (text, {})
    tail = "x" * 600 + " password=Zq8vN2kL5mR7"
    assert redact("password=" * 100 + tail)[1] == {"password": 1}


def test_a_key_whose_slashes_are_escaped_far_from_its_header_is_redacted():
    """PHP's json_encode writes `/` as `\\/`: in a long key, the first may be far from the
    header, past the stretch around an escape where anchors are looked for."""
    body = "\n".join(["MIIEowIBAAKCAQEAq7Bz3Xk9Lm2Np4Qr6St8Uv0Wx2Yz4Ab6Cd8Ef0Gh2Ij4Kl6Mn"] * 30)
    key = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\nAb+/Cd==\n-----END RSA PRIVATE KEY-----"
    text = json.dumps({"content": key}).replace("/", "\\/")
    assert text.index("\\/") - text.index("BEGIN") > 1500
    for redacted, found in (redact(text), redact_json(text)):
        assert found == {"private-key": 1} and "MIIEow" not in redacted
        assert json.loads(redacted)


def test_an_escape_far_from_any_anchor_changes_nothing():
    log = "\\e[32mok\\e[0m build step\n" * 200 + "DB_PASSWORD=Qz8Lm4Vx2Rt9\n"
    assert redact(log) == (log.replace("Qz8Lm4Vx2Rt9", "[REDACTED:password]"), {"password": 1})


# -- REDACTION_VERSION 9: what a red team found kept (session 22) --------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # leak 1: a key id right after a digit (a counter, a column glued to it)
        ("id 0AKIAB7Q3XW5N2R8T4BRN end", "AKIAB7Q3XW5N2R8T4BRN"),
        ("x1ASIAB7Q3XW5N2R8T4BRN", "ASIAB7Q3XW5N2R8T4BRN"),
        # and any token of a fixed prefix after a digit
        ("row 7ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234", "R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234"),
        ("v2sk-ant-api03-Zq8vN2kL5mR7tX1wY4bC6dF9gH3", "Zq8vN2kL5mR7tX1wY4bC6dF9gH3"),
    ],
)
def test_a_token_right_after_a_digit_is_redacted(text, secret):
    redacted, found = redact(text)
    assert found and secret not in redacted, redacted


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # leak 2: a name ending in `pass`, `pwd`, `credentials`, `creds`
        ("db_pass=Hu9nter2Zx\n", "password"),
        ("export DB_PASS=Hu9nter2Zx", "password"),
        ("smtp.pass: Hu9nter2Zx", "password"),
        ("mail-pass = 'Hu9nter2Zx'", "password"),
        ("const smtpPass = 'correcthorse';", "password"),
        ("auth: { user: 'me@x.com', pass: 'abcdefghijklmnop' }", "password"),
        ('{"db_pass": "Hu9nter2Zx"}', "password"),
        ('{"pass": "Hu9nter2Zx"}', "password"),
        ("openssl enc -aes256 -pass pass:Hu9nter2Zx -in a", "password"),
        ("db.pwd=Hu9nter2Zx", "password"),
        ('{"db_pwd": "Hu9nter2Zx"}', "password"),
        ("SMTP_CREDENTIALS=Hu9nter2Zx", "secret"),
        ("export DB_CREDS=admin:Hu9nter2Zx", "secret"),
        ('{"credentials": "admin:Hu9nter2Zx"}', "secret"),
        ("dbCredentials: Hu9nter2Zx", "secret"),
    ],
)
def test_a_name_ending_in_pass_pwd_or_credentials_is_read(text, kind):
    redacted, found = redact(text)
    assert found == {kind: 1}, redacted
    assert "Hu9nter2Zx" not in redacted and "abcdefghijklmnop" not in redacted
    assert "correcthorse" not in redacted


@pytest.mark.parametrize(
    "text",
    [
        "PASS: tests/test_parser.py::test_empty\nFAIL: tests/test_x.py",  # automake, pytest
        "PASS=0 FAIL=0",
        "bypass: enabled\ncompass=northwest\nBYPASS=everything",
        "--dangerously-bypass-approvals-and-sandbox",
        "fetch(url, { credentials: 'include' }); fetch(u, {credentials: 'same-origin'})",
        "export GOOGLE_APPLICATION_CREDENTIALS=/home/dev/keys/sa.json",
        "GOOGLE_APPLICATION_CREDENTIALS: ~/.config/gcloud/application_default_credentials.json",
        "credentials = service_account.Credentials.from_service_account_file(path)",
        "creds = get_credentials(); sacred: textbook",
        "withCredentials: true, OLD_PWD=/home/dev/app",
        "tests pass: 42 of 42",
    ],
)
def test_pass_and_credentials_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


@pytest.mark.parametrize(
    "text",
    [
        # leak 3: a full-width equals sign or colon between name and value
        "DB_PASSWORD＝Hu9nter2Zx",
        "password：Hu9nter2Zx",
        "api_key ＝ 'Hu9nter2Zx'",
        '{"password"：“Hu9nter2Zx”}',
        "aws_secret_access_key＝wJalrXUtnFEMI/K7MDENG/bPxRfiCYz8Qk3v9Zx8",
    ],
)
def test_a_full_width_equals_sign_or_colon_is_read(text):
    redacted, found = redact(text)
    assert found, redacted
    assert "Hu9nter2Zx" not in redacted and "wJalrXUtnFEMI" not in redacted
    assert "＝" in redacted or "：" in redacted  # the text around the secret is kept


@pytest.mark.parametrize("zero", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"])
@pytest.mark.parametrize(
    ("secret", "kind"),
    [
        ("ghp_abcdefGhIjKlMnOpQrStUvWxYz0123456789", "github-token"),
        ("sk-ant-api03-Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQ", "anthropic-key"),
        ("AKIAB7Q3XW5N2R8T4BRN", "aws-access-key-id"),
    ],
)
def test_a_zero_width_character_inside_a_token_hides_none_of_it(zero, secret, kind):
    """Leak 4: a zero-width character (or a soft hyphen) inside a token, early or late,
    cut the token short or hid it; the whole token goes, characters and all."""
    for at in (5, 9, len(secret) - 3):
        text = f"token {secret[:at]}{zero}{secret[at:]} end"
        for redacted, found in (redact(text), redact_json(json.dumps({"t": text}))):
            assert found == {kind: 1}, redacted
            assert json.loads(redacted)["t"] if redacted.startswith("{") else True
            visible = redacted.replace(zero, "").replace("\\u" + f"{ord(zero):04x}", "")
            assert secret[:at] not in visible and secret[at:] not in visible, redacted
            assert visible.endswith(" end") or visible.endswith(' end"}'), redacted


def test_zero_width_characters_without_a_secret_are_kept():
    text = "\ufeffimport os\u200b\nword\u200cjoiner and soft\u00adhyphen token: str"
    assert redact(text) == (text, {})


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # leak 5: a token a terminal or a log wrapped across lines
        ("sk-ant-api03-Zq8vN2kL5mR7tX1wY4bC6d\nF9gH3jK0pQsT2uV5xW8y\n$ ", "\n$ "),
        (
            "│ ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCd\r\nEf1234\r\nnext line",
            "\r\nnext line",
        ),
        # a line of the rest as long as the first goes on to the next
        ("sk-proj-A1b2C3d4E5f6G7h8\nI9j0K1l2M3n4O5p6Q7r8S9t0\nU1v2W3x4\nok", "\nok"),
        ('{"out": "AKIAB7Q3XW5N2R8T4BRN\\nQ7Z2"}', '"}'),
    ],
)
def test_a_token_wrapped_across_lines_goes_with_its_rest(text, kept):
    redacted, found = redact(text)
    assert sum(found.values()) == 1, redacted
    assert redacted.endswith("]" + kept), redacted


@pytest.mark.parametrize(
    "text",
    [
        # what follows a token on the next line is no part of it: a word, a sentence
        "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234\nDone\n",
        "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234\nSuccess",
        "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234\nnext step: push\n",
        "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234 \nAb12\n",
    ],
)
def test_the_line_after_a_token_that_is_not_its_rest_is_kept(text):
    redacted, found = redact(text)
    assert found == {"github-token": 1}
    assert redacted == "[REDACTED:github-token]" + text[40:]


@pytest.mark.parametrize(
    "text",
    [
        # leak 6: a URL's password after one slash, or backslashes
        "https:/admin:Hu9nter2Zx@db.example.com/app",
        "http:\\\\admin:Hu9nter2Zx@db.example.com/app",
        '{"url": "http:\\\\\\\\admin:Hu9nter2Zx@db.example.com"}',
    ],
)
def test_a_url_password_after_one_slash_or_backslashes_is_redacted(text):
    for redacted, found in (redact(text), redact_json(text)):
        assert found == {"url-password": 1}, redacted
        assert "Hu9nter2Zx" not in redacted and "admin:" in redacted


@pytest.mark.parametrize(
    "text",
    [
        "C:\\Users\\dev:app@2x.png and C:/Users/dev",
        "see file:/tmp/a:b@c and D:\\\\x:y@z",
    ],
)
def test_paths_like_a_url_with_one_slash_are_kept(text):
    assert redact(text) == (text, {})


def test_pass_as_a_verb_before_a_value_in_backticks_is_kept():
    """The real corpus: ``You can pass `-SkipBuild` `` is no password in prose."""
    text = "can be slow on first run. You can pass `-SkipBuild` if a binary already exists"
    assert redact(text) == (text, {})
    assert redact("the password `Hu9nter2Zx` works")[1] == {"password": 1}


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        # leak: a wrapped token's rest behind a diff's line prefix (`git diff`, a unified
        # diff, Codex's apply_patch), added, removed or as context
        (
            "@@ -1,2 +1,3 @@\n APP=web\n"
            "+GITHUB_TOKEN=ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12\n+Cd5Ef6Gh7Ij\n DEBUG=0\n",
            "@@ -1,2 +1,3 @@\n APP=web\n+GITHUB_TOKEN=[REDACTED:github-token]\n DEBUG=0\n",
        ),
        (
            "-key: sk-ant-api03-Zq8vN2kL5mR7tX1wY4bC6d\n-F9gH3jK0pQsT2uV5xW8\n+key: ${KEY}",
            "-key: [REDACTED:anthropic-key]\n+key: ${KEY}",
        ),
        (
            " sk-proj-A1b2C3d4E5f6G7h8\n I9j0K1l2M3n4O5p6Q7r8S9t0\n U1v2W\n+ok",
            " [REDACTED:openai-key]\n+ok",
        ),
        (
            '{"patch": "@@ -1 +1,2 @@\\n+AKIAB7Q3XW5N2R8T4BRN\\n+Q7Z2\\n context"}',
            '{"patch": "@@ -1 +1,2 @@\\n+[REDACTED:aws-access-key-id]\\n context"}',
        ),
    ],
)
def test_a_token_wrapped_in_a_diff_goes_with_its_rest(text, redacted):
    assert redact(text)[0] == redacted


@pytest.mark.parametrize(
    "text",
    [
        # what follows a token on the next line of a diff is no part of it
        "+ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234\n+Done\n",
        "+ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234\n-Ab12\n",  # another prefix
        "--token ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234\n--no-verify\n",  # flags
        " ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234\n   Ab12\n",  # indented deeper
        "+ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf1234\n+" + "A1" * 40 + "\n",  # longer
    ],
)
def test_the_line_after_a_token_in_a_diff_that_is_not_its_rest_is_kept(text):
    redacted, found = redact(text)
    assert found == {"github-token": 1}
    start = text.index("ghp_")
    assert redacted == text[:start] + "[REDACTED:github-token]" + text[start + 40 :]


_WRAPPED = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12"


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        # leak: a wrapped token's rest behind a line number (Read, `cat -n`, grep -n, bat)
        (
            f"    12→X={_WRAPPED}\n    13→Cd5Ef6Gh7Ij\n    14→DEBUG=0",
            "    12→X=[REDACTED:github-token]\n    14→DEBUG=0",
        ),
        (
            f"    99→X={_WRAPPED}\n   100→Cd5Ef6Gh7Ij\n   101→DEBUG=0",
            "    99→X=[REDACTED:github-token]\n   101→DEBUG=0",
        ),
        (
            f"    12\tX={_WRAPPED}\n    13\tCd5Ef6Gh7Ij\n    14\tDEBUG=0",
            "    12\tX=[REDACTED:github-token]\n    14\tDEBUG=0",
        ),
        (f"9:X={_WRAPPED}\n10:Cd5Ef6Gh7Ij\n11:x=1", "9:X=[REDACTED:github-token]\n11:x=1"),
        (
            f".env:12:X={_WRAPPED}\n.env-13-Cd5Ef6Gh7Ij\n.env-14-x=1",
            ".env:12:X=[REDACTED:github-token]\n.env-14-x=1",
        ),
        (
            f"  12 │ X={_WRAPPED}\n  13 │ Cd5Ef6Gh7Ij\n  14 │ x",
            "  12 │ X=[REDACTED:github-token]\n  14 │ x",
        ),
        # behind a box's or a table's border, an indent, a diff's mark and an indent
        (f"│ {_WRAPPED}\n│ Cd5Ef6Gh7Ij\n│ done", "│ [REDACTED:github-token]\n│ done"),
        (f"| {_WRAPPED}\n| Cd5Ef6Gh7Ij\n| done", "| [REDACTED:github-token]\n| done"),
        (
            f"    x: {_WRAPPED}\n    Cd5Ef6Gh7Ij\n    next: 1",
            "    x: [REDACTED:github-token]\n    next: 1",
        ),
        (f"+    x: {_WRAPPED}\n+    Cd5Ef6\n", "+    x: [REDACTED:github-token]\n"),
        (f"+    {_WRAPPED}\n+Cd5Ef6\n", "+    [REDACTED:github-token]\n"),  # the file's
        (f"│   {_WRAPPED}\n│ Cd5Ef6\n", "│   [REDACTED:github-token]\n"),  # the box's
        # in JSON text, its lines ended by `\\n`
        (
            f'{{"out": "a\\n    12\\tX={_WRAPPED}\\n    13\\tCd5Ef6Gh7Ij\\n"}}',
            '{"out": "a\\n    12\\tX=[REDACTED:github-token]\\n"}',
        ),
        # leak: a keyword's value wrapped, its line as long as a terminal's
        (
            "      DB_PASSWORD=Xk9Lm2Pq7Rt4Vw8Zy3Bn6Cd1Fg5Hj0Kq\nMn4Pr8St2\nnext",
            "      DB_PASSWORD=[REDACTED:password]\nnext",
        ),
        (
            "    12→api_key: Xk9Lm2Pq7Rt4Vw8Zy3Bn6Cd1Fg5Hj0Kq\n    13→Mn4Pr8St2\n",
            "    12→api_key: [REDACTED:api-key]\n",
        ),
    ],
)
def test_a_token_wrapped_behind_a_lead_goes_with_its_rest(text, redacted):
    assert redact(text)[0] == redacted


@pytest.mark.parametrize(
    "text",
    [
        # what follows a token on the next line behind a lead is no part of it
        f"    12→{_WRAPPED}\n    14→Cd5Ef6Gh7Ij\n",  # not the next line's number
        f"    12→{_WRAPPED}\n    13→Done\n",  # a word
        f"  mergeable: {_WRAPPED}\n  mergedAt\n",  # a name of a list of fields
        f"   473→  x = {_WRAPPED}\n   474→    ToolCall\n",
        f"    {_WRAPPED}\n        Cd5Ef6Gh7Ij\n",  # indented deeper
        f"a.py:12:{_WRAPPED}\nb.py:13:Cd5Ef6Gh7Ij\n",  # another file
        f"| {_WRAPPED}\n│ Cd5Ef6Gh7Ij\n",  # another border
        f"{_WRAPPED}\n1115-\n",  # a number (grep's context line)
    ],
)
def test_the_line_after_a_token_behind_a_lead_that_is_not_its_rest_is_kept(text):
    redacted, found = redact(text)
    assert found == {"github-token": 1}
    start = text.index("ghp_")
    assert redacted == text[:start] + "[REDACTED:github-token]" + text[start + len(_WRAPPED) :]


@pytest.mark.parametrize(
    "text",
    [
        # a short value's line: what ends it, no wrap (a terminal is wider)
        "DB_PASSWORD=Xk9Lm2Pq7Rt\nMn4Pr8St2\n",
        # the next line is the next assignment, a word or a name
        "export DB_PASSWORD=Xk9Lm2Pq7Rt4Vw8Zy3Bn6Cd1Fg5Hj0Kq\nDEBUG=1\n",
        "export DB_PASSWORD=Xk9Lm2Pq7Rt4Vw8Zy3Bn6Cd1Fg5Hj0Kq\nready\n",
    ],
)
def test_the_line_after_a_value_that_is_not_its_rest_is_kept(text):
    redacted, found = redact(text)
    assert found == {"password": 1}
    assert redacted.endswith(text[text.index("\n") :]), redacted


# What a tool or a layout puts before each line: the lead of the k-th line, by kind.
_LEADS = {
    "read": lambda k: f"{k + 41:6d}→",
    "cat -n": lambda k: f"{k + 41:6d}\t",
    "grep -n": lambda k: f"{k + 9}:",
    "grep -n files": lambda k: f"src/.env:{k + 9}:",
    "bat": lambda k: f"{k + 99:4d} │ ",
    "border": lambda k: "│ ",
    "table": lambda k: "| ",
    "indent": lambda k: "    ",
    "diff": lambda k: "+",
}


@settings(max_examples=300)
@given(
    st.sampled_from(sorted(_LEADS)),
    st.sampled_from(["", "X=", "token: ", "x = "]),
    st.integers(34, 44),
    st.integers(0, 12),
    st.sampled_from(["\n", "\r\n"]),
)
def test_a_wrapped_token_behind_any_lead_is_never_kept(kind, before, cut, more, eol):
    """A token cut anywhere after the 30 characters its rule needs after `ghp_`, its rest
    (no word, no number: two characters or more, letters and digits) on the next line behind
    the same lead (the next number), goes whole; the line after stays."""
    token = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAb" + "Q2w9E4r1T8y5Z3q8v6N2k5L7"[: 12 + more]
    cut = min(cut, len(token) - 2)
    lead = _LEADS[kind]
    text = f"{lead(0)}{before}{token[:cut]}{eol}{lead(1)}{token[cut:]}{eol}{lead(2)}ok{eol}"
    redacted, found = redact(text)
    assert found == {"github-token": 1}, redacted
    assert token[cut:] not in redacted.replace("[REDACTED:github-token]", ""), redacted
    assert redacted.endswith(f"{lead(2)}ok{eol}"), redacted


def test_tokens_one_a_line_are_each_their_own():
    """A list of tokens, one a line (an .env file, an Edit): each line its own token, the
    next one no wrapped rest of the one before."""
    text = "\n".join(SECRETS[k] for k in ("jwt", "npm-token", "github-token", "openai-key"))
    redacted, found = redact(text)
    assert found == {k: 1 for k in ("jwt", "npm-token", "github-token", "openai-key")}


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        # what a hunt over every place a transcript stores text found kept (session 22)
        (
            "whsec_Wh5ecR3tXq8Lm2Pz6Kd4Vn7Bj9Tc3Gf1",
            "Wh5ecR3tXq8Lm2Pz6Kd4Vn7Bj9Tc3Gf1",
            "stripe-key",
        ),
        ("1//0gR3fr3shYk2Wq8Mn5Hd3Lx7Pv9Cz4Fb6Rt-Jg_Ns", "R3fr3shYk2Wq8Mn5", "google-oauth-token"),
        ("redis-cli -h cache -a Rd5Cl1Pw8zQ ping", "Rd5Cl1Pw8zQ", "password"),
        ("htpasswd -b -c .htpasswd admin Ht9Pw3Lq7zW", "Ht9Pw3Lq7zW", "password"),
        ("sudo htpasswd -bB /etc/nginx/.htpasswd dev 'S3cr3t!x9'", "S3cr3t!x9", "password"),
        ("htpasswd -nb admin Ht9Pw3Lq7zW | tee -a .htpasswd", "Ht9Pw3Lq7zW", "password"),
        (
            "Set-Cookie: sessionid=C00k13S3ss10nUw4Ej7Ra2Tm9Gy5; HttpOnly; Path=/",
            "C00k13S3ss10nUw4Ej7Ra2Tm9Gy5",
            "session-cookie",
        ),
        (
            "curl -H 'Cookie: theme=dark; _session=C00k13S3ss10nUw4Ej7Ra2Tm9Gy5' https://x",
            "C00k13S3ss10nUw4Ej7Ra2Tm9Gy5",
            "session-cookie",
        ),
        (
            'curl -b "sid=C00k13S3ss10nUw4Ej7Ra2Tm9Gy5" https://x',
            "C00k13S3ss10nUw4Ej7Ra2Tm9Gy5",
            "session-cookie",
        ),
        # a URL's backslashes escaped in JSON in JSON, a wrapped token's line ended by `\\n`
        ("http:\\\\\\\\\\\\\\\\admin:Bk5lshPw2ZqR@db.example.com", "Bk5lshPw2ZqR", "url-password"),
        ("AKIAB7Q3XW5N2R8T4BRN\\\\nQ7Z2K9\\\\n", "Q7Z2K9", "aws-access-key-id"),
        # a key named in words, as a summary lists it (a ref.tools key of the nineteenth
        # held-out set, kept in five of its seven forms: a new user's find printed it)
        ("- API Key: ref-2f38da86f582dd560f43\n- Endpoint: https", "ref-2f38da86", "api-key"),
        ("- **API Key**: `ref-2f38da86f582dd560f43`", "ref-2f38da86", "api-key"),
        ("**Secret Key:** Xk29fj2kQ3jd8sk2", "Xk29fj2k", "secret"),
        # in prose, a token after the name of a key (16 characters will do there)
        (
            "HTTP MCP at https://api.ref.tools/mcp with API key ref-2f38da86f582dd560f43",
            "2f38",
            "high-entropy-token",
        ),
        ("load api key ref-2f38da86f582dd560f43  do this now", "2f38", "high-entropy-token"),
        # a JSON config given to cmd or PowerShell, its quotes doubled
        ('"env":{""REF_API_KEY"":""ref-2f38da86f582dd560f43""}', "2f38", "api-key"),
        ('{\\"\\"password\\"\\":\\"\\"Xk29fj2kQ3jd8sk2\\"\\"}', "Xk29fj2k", "password"),
    ],
)
def test_a_secret_the_hunt_found_kept_is_redacted(text, secret, kind):
    for redacted, found in (redact(text), redact_json(json.dumps({"command": text}))):
        assert found == {kind: 1}, redacted
        assert secret not in redacted


@pytest.mark.parametrize(
    "text",
    [
        "htpasswd -c .htpasswd admin && htpasswd -b .htpasswd admin $PASSWORD",
        "Cookie: _ga=GA1.2.1234567890.1234567890; theme=dark; lang=en-US",
        "git checkout -b feature/login-cookie-fix && grep -b cookie: src/app.ts",
        "document.cookie = 'consent=yes'; the cookie: a session's",
        "x = 1//0 if y else 2",
        "- **Token:** `crypto.randomBytes(32).toString('base64url')`, stored raw",
        'PASSWORD="" DB_USER="admin1234"',
        "the token abcdef1234567890abcd",  # a short token after a word that is no key's name
        "API key: required",
        "**API Key**: your-api-key-here",
        "a secret key generation step, then the private key: see below",
    ],
)
def test_the_hunts_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


# -- REDACTION_VERSION 13: what a security test found kept (session 28) -------------------

GENERATED = "Vt7Qm2Zx9Lp4Wn8Rk3Bc6Yh1"
HEX_TOKEN = "0f3a9c2b7d1e4f6a8b0c2d4e6f8a0b1c3d5e7f90"
PUTTY = (
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: dev\nPublic-Lines: 2\n"
    "AAAAC3NzaC1lZDI1NTE5AAAAIC\nAAAAC3NzaC1lZDI\nPrivate-Lines: 2\n"
    "AAAAIPr1v4t3L1n3Qm7Hx2Kd9Lp4Rt6Vb3Nc8\nJz5WfYk2Wq8Mn5\nPrivate-MAC: 8f3a"
)


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        # a command line's token options (a lowercase word after one is no value)
        (f"npx vercel deploy --prod --token {GENERATED}", GENERATED, "token"),
        (f"netlify deploy --auth {GENERATED} --prod", GENERATED, "token"),
        (f"wrangler deploy --api-token '{GENERATED}'", GENERATED, "token"),
        (f"tool --access-token {GENERATED}", GENERATED, "token"),
        (f"tool --secret {GENERATED}", GENERATED, "secret"),
        (f"az ad sp create --client-secret {GENERATED}", GENERATED, "secret"),
        # a name ending in KEY, a value shorter than 32 that looks generated
        *(
            (f"{name}={GENERATED}", GENERATED, "key")
            for name in (
                "OPENAI_KEY",
                "STRIPE_KEY",
                "ENCRYPTION_KEY",
                "SIGNING_KEY",
                "MASTER_KEY",
                "JWT_KEY",
                "HMAC_KEY",
                "SUPABASE_SERVICE_ROLE_KEY",
                "LICENSE_KEY",
            )
        ),
        ("     3→APP_KEY=base64:Jd0Fc9Qz7Lm2Xv4Rt8Wn3Bp6Yh1Ka5ZzQ=", "Jd0Fc9Qz7Lm2", "key"),
        (f'const signingKey = "{GENERATED}";', GENERATED, "key"),
        (f"PASSPHRASE={GENERATED}", GENERATED, "password"),
        (f"export GPG_PASSPHRASE='{GENERATED}'", GENERATED, "password"),
        (f'{{"passphrase": "{GENERATED}"}}', GENERATED, "password"),
        # a name and its value in two fields: Kubernetes, compose, ECS
        (
            'env:\n  - name: DB_PASSWORD\n    value: "Mq8Zr3Lp7Wx2Kv9T"',
            "Mq8Zr3Lp7Wx2Kv9T",
            "password",
        ),
        (f"- name: OPENAI_KEY\n  value: {GENERATED}", GENERATED, "key"),
        (f"{{name: 'DB_PASSWORD', value: '{GENERATED}'}}", GENERATED, "password"),
        (f'{{"name": "API_TOKEN", "value": "{GENERATED}"}}', GENERATED, "token"),
        # XML configs: Maven, web.config, Spring
        (f"<password>{GENERATED}</password>", GENERATED, "password"),
        (f"<apiToken>{GENERATED}</apiToken>", GENERATED, "token"),
        (f'<add key="DbPassword" value="{GENERATED}" />', GENERATED, "password"),
        (f'<entry key="password">{GENERATED}</entry>', GENERATED, "password"),
        (f'<property name="password" value="{GENERATED}"/>', GENERATED, "password"),
        # a token as a URL's user
        (f"git clone https://{HEX_TOKEN}@github.com/o/r.git", HEX_TOKEN, "url-token"),
        (f"origin\thttps://{HEX_TOKEN}:x-oauth-basic@github.com/o/r.git", HEX_TOKEN, "url-token"),
        # GitHub's and Django REST framework's scheme
        (f"curl -H 'Authorization: token {GENERATED}' https://x", GENERATED, "token"),
        (f"Authorization: Token {GENERATED}", GENERATED, "token"),
        # key material
        (PUTTY, "Pr1v4t3L1n3", "private-key"),
        (
            "    client-key-data: " + base64.b64encode(PEM.encode()).decode(),
            base64.b64encode(PEM.encode()).decode()[40:60],
            "private-key",
        ),
        (
            "AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS0XKQ2",
            "QYQSZQGPQYQSZQGPQYQS",
            "private-key",
        ),
        # Ruby's and PHP's hashes, a URL's query
        (f'"password" => "{GENERATED}"', GENERATED, "password"),
        (f":password => '{GENERATED}'", GENERATED, "password"),
        (f"https://maps.example.com/api?key={GENERATED}&q=x", GENERATED, "api-key"),
        (f"https://db.example.firebaseio.com/a.json?auth={GENERATED}", GENERATED, "token"),
        ("http://cam.local/snap.cgi?user=admin&pwd=Cm4Pw9zQ", "Cm4Pw9zQ", "password"),
    ],
)
def test_a_form_the_security_test_found_kept_is_redacted(text, secret, kind):
    for redacted, found in (redact(text), redact_json(json.dumps({"command": text}))):
        assert found == {kind: 1}, redacted
        assert secret not in redacted


def test_x_oauth_basic_is_kept_and_the_token_before_it_goes():
    text = f"https://{HEX_TOKEN}:x-oauth-basic@github.com/o/r.git"
    assert redact(text) == (
        "https://[REDACTED:url-token]:x-oauth-basic@github.com/o/r.git",
        {"url-token": 1},
    )


@pytest.mark.parametrize(
    "text",
    [
        # an option's value that is a variable, a word, or no token
        "npm publish --access public --token $NPM_TOKEN",
        'vercel --token "$VERCEL_TOKEN"',
        "netlify deploy --auth none",
        "docker build --secret id=npmrc,src=$HOME/.npmrc .",
        "gcloud run deploy --secret db-password-prod",
        "tool --api-key-file keys/api.txt --token-file /var/run/token",
        # KEY names whose value is an id, a column, a path or code
        "PRIMARY_KEY=id",
        "SORT_KEY=name",
        'cache_key = f"user:{uid}:profile2"',
        'partitionKey: "tenant-2024-a1"',
        "CACHE_KEY=a1b2c3d4e5f6a7b8c9d0",
        'storageKey: "app-theme-v2-dark"',
        'publicKey: "BEl62iUYgUivxIkv69yViEuiBIa"',
        '"model_key": "TaylorAI/bge-micro-v2"',
        "S3_KEY=uploads/2024/report2.pdf",
        'objectKey: "images/a1b2c3d4e5f6g7h8.png"',
        "routing_key=orders.created.v2",
        "ENCRYPTION_KEY=${ENCRYPTION_KEY}",
        "SIGNING_KEY = derive2Key(seed1234567890ab)",
        "idempotency_key: 8f14e45f-ceea-467a",
        # a name and its value where the name holds no secret, or the value comes from one
        "- name: DB_HOST\n  value: db.internal",
        "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db",
        "- name: DB_PASSWORD\n  value: $(DB_PASS)",
        '<input type="hidden" name="authenticity_token" value="UdP8vuxflNCwDkxfjQDsWVvZR2VL">',
        # XML elements that hold no secret
        "<password>${db.password}</password>",
        "<maxTokens>4096</maxTokens>",
        "<key>CFBundleName</key>",
        '<add key="ApiBaseUrl" value="https://api.example.com" />',
        # a URL's user that is a name
        "git clone git@github.com:o/r.git",
        "https://alice@example.com/x",
        "ssh://git@github.com/o/r",
        "https://build-bot-deploy-user@git.example.com/o/r",
        # a variable or a placeholder after `Authorization: token`
        "Authorization: token $GITHUB_TOKEN",
        "Authorization: Token <your-token>",
        # a certificate in base64 (public), a PuTTY header without its key
        "certificate-authority-data: "
        + base64.b64encode(b"-----BEGIN CERTIFICATE-----\nMIIC5zCCAc+gAwIBAgIBADANBgkqh").decode(),
        "Private-Lines: 3 is what the header says",
        # code after `=>`, words after `?key=`
        '"password" => params[:password]',
        "tokens.map(token => token.trim())",
        "https://maps.example.com/api?key=YOUR_API_KEY",
        "/search?auth=true&key=user_name",
    ],
)
def test_the_security_tests_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


# -- REDACTION_VERSION 14: what version 13 left (session 28, later) -----------------------

PW = "Hx7kQ2mZp9"
DIGEST = "6629fae49393a05397450978507c4ef1"


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        # a name's last part `PW`, and `SALT` with a generated value
        (f"ADMIN_PW={PW}", PW, "password"),
        (f"DB_PW: {PW}", PW, "password"),
        (f"dbPw = '{PW}'", PW, "password"),
        (f'{{"admin_pw": "{PW}"}}', PW, "password"),
        (f"SALT={GENERATED}", GENERATED, "secret"),
        (f'"passwordSalt": "{GENERATED}"', GENERATED, "secret"),
        # a name in brackets, then an assignment
        (f"os.environ['OPENAI_KEY'] = '{GENERATED}'", GENERATED, "key"),
        (f'process.env["DB_PASSWORD"] = "{PW}"', PW, "password"),
        (f"ENV['API_TOKEN'] = '{GENERATED}'", GENERATED, "token"),
        # Windows and PowerShell
        (f"setx API_TOKEN {GENERATED}", GENERATED, "token"),
        (f'setx /M DB_PASSWORD "{PW}"', PW, "password"),
        (
            f'[Environment]::SetEnvironmentVariable("API_TOKEN", "{GENERATED}", "User")',
            GENERATED,
            "token",
        ),
        (
            f'[Environment]::SetEnvironmentVariable("OPENAI_KEY", "{GENERATED}", "User")',
            GENERATED,
            "key",
        ),
        # command lines
        (f"gh secret set NPM_TOKEN --body {GENERATED}", GENERATED, "token"),
        (f'gh secret set DEPLOY --repo o/r -b "{PW}"', PW, "secret"),
        (f"curl -u :{GENERATED} https://api.example.com", GENERATED, "password"),
        (f"echo {PW} | docker login ghcr.io -u me --password-stdin", PW, "password"),
        (f"echo '{PW}' | helm registry login r.example.com --password-stdin", PW, "password"),
        (f"kubectl create secret generic app --from-literal=key={GENERATED}", GENERATED, "key"),
        # .pgpass lines, Digest's response, an APIM key, an OAuth code
        (f"echo 'db.example.com:5432:app:app:{PW}' >> ~/.pgpass", PW, "password"),
        (f"cat > ~/.pgpass <<EOF\n*:*:*:postgres:{PW}\nEOF", PW, "password"),
        (
            f'Authorization: Digest username="me", realm="api", nonce="dcd98b", uri="/x", '
            f'response="{DIGEST}"',
            DIGEST,
            "token",
        ),
        ("Ocp-Apim-Subscription-Key: 9f8e7d6c5b4a3f2e", "9f8e7d6c5b4a3f2e", "api-key"),
        (
            "http://localhost:3000/callback?code=7c1d2a5e9f0b3c4d6e8a&state=xyz",
            "7c1d2a5e9f0b3c4d6e8a",
            "token",
        ),
    ],
)
def test_a_form_version_13_left_is_redacted(text, secret, kind):
    for redacted, found in (redact(text), redact_json(json.dumps({"command": text}))):
        assert found == {kind: 1}, redacted
        assert secret not in redacted


def test_a_pgpass_file_written_is_redacted():
    text = json.dumps({"file_path": "/home/me/.pgpass", "content": f"localhost:5432:app:me:{PW}\n"})
    assert redact_json(text) == (text.replace(PW, "[REDACTED:password]"), {"password": 1})


@pytest.mark.parametrize(
    "text",
    [
        # `pw` alone or glued to a word; a variable; code
        "pw=abc123XYZq",
        "OLDPW=abc123XYZq",
        "AUX_PWRON1=6",
        "ADMIN_PW=$ADMIN_PW",
        'dbPw = os.getenv("DB_PW")',
        # a salt that is a number, a word, a call or a variable; `salt` inside a word
        "SALT_ROUNDS=12",
        "salt: 'user-profile-hash-salt'",
        "const salt = await bcrypt.genSalt(10);",
        "SALT=${SALT}",
        f"basalt={GENERATED}",
        # a name in brackets given code, not a literal
        "row['password'] = user_input",
        'env["HF_HOME"] = str(self.cache_dir)',
        # setx of no secret, or of a variable
        'setx PATH "%PATH%;C:\\bin"',
        "setx PORT 8081",
        "setx API_TOKEN %TOKEN%",
        # gh secret set of a variable, a file, a word
        'gh secret set API_TOKEN --body "$API_TOKEN"',
        "gh secret set X --body-file f.txt",
        "gh secret set ENVIRONMENT --body production",
        # a variable on stdin, curl's empty user given one
        'echo "$CR_PAT" | docker login ghcr.io -u me --password-stdin',
        "curl -u :$TOKEN https://api.example.com",
        # kubectl's literals that hold no secret
        "kubectl create secret generic x --from-literal=username=admin",
        "kubectl create secret generic x --from-literal=key=value",
        # five fields that are no .pgpass line; Digest's other parameters
        "go: github.com/jackc/pgpassfile v1.0.0 2024-01-02:10:30:00:ok",
        f"Digest: sha256:{DIGEST}{DIGEST}",
        f"Digest u=1\n  response={DIGEST}",
        # a placeholder key, a code of words or a status
        "Ocp-Apim-Subscription-Key: your-subscription-key",
        "https://x.example.com/?code=200",
        "https://github.com/search?code=useState&type=code",
    ],
)
def test_version_14s_look_alikes_are_kept_beside_a_form_it_takes(text):
    assert redact(f"ADMIN_PW={PW}\n{text}") == (
        f"ADMIN_PW=[REDACTED:password]\n{text}",
        {"password": 1},
    )


# -- REDACTION_VERSION 16: command-line passwords and a password typed into a prompt ---------
# -- (session 30's security test) ---------------------------------------------------------

TYPED = "Zq8xLp3mW9vRt2KcQ7"


@pytest.mark.parametrize(
    "command",
    [
        # fed to `sudo -S` (and the other commands that read a password from their input)
        f"echo '{TYPED}' | sudo -S apt-get install -y libpq-dev",
        f'echo "{TYPED}" | sudo -S -k whoami',
        f"printf '%s\\n' {TYPED} | sudo -S apt-get update",
        f"printf '{TYPED}\\n' | sudo -S ls",
        f"sudo -S <<< '{TYPED}' apt-get install -y libpq-dev",
        f"sudo -S apt-get install -y x <<< {TYPED}",
        f"echo 'bob:{TYPED}' | chpasswd",
        f"chpasswd <<< 'bob:{TYPED}'",
        f"echo -n {TYPED} | passwd --stdin bob",
        f"printf '%s\\n' '{TYPED}' | docker login ghcr.io -u me --password-stdin",
        # sshpass's variable
        f"SSHPASS={TYPED} sshpass -e ssh deploy@10.0.0.5 'systemctl restart app'",
        f"export SSHPASS='{TYPED}'",
        # a program whose option takes a password
        f"mongosh -u admin -p {TYPED} --authenticationDatabase admin",
        f"mongo mydb -u admin -p '{TYPED}'",
        f"sqlcmd -S db -U sa -P {TYPED} -Q 'select 1'",
        f"az login --service-principal -u 0000-app -p {TYPED} --tenant t",
        f"az login -u me@example.com -p {TYPED}",
        f"keytool -list -keystore release.jks -storepass {TYPED}",
        f"jarsigner -keystore k.jks -storepass {TYPED} app.apk release",
        f"ldapsearch -x -D cn=admin,dc=x -w {TYPED} -b dc=x",
        f"ldapmodify -x -D cn=admin,dc=x -w '{TYPED}' -f add.ldif",
        f"smbclient //nas/share -U bob%{TYPED}",
        f"smbclient //nas/share --user=bob%{TYPED} -c ls",
        f"net use \\\\srv\\share /user:bob {TYPED}",
        f"net use Z: \\\\srv\\share {TYPED} /user:bob",
        f"gpg --batch --passphrase {TYPED} -d secrets.gpg",
        f"gpg --batch --passphrase={TYPED} -d secrets.gpg",
        f"mysqladmin -u root password {TYPED}",
        f"rabbitmqctl add_user admin {TYPED}",
        f"ssh-keygen -t ed25519 -N {TYPED} -f deploy_key",
        f"x11vnc -passwd {TYPED} -display :0",
        f"zip -P {TYPED} out.zip a.txt",
        f"7z a -p{TYPED} out.7z a",
        f"openssl enc -aes-256-cbc -k {TYPED} -in a -out b",
        # on the next line of a command continued by a backslash
        f"keytool -genkeypair -keystore r.jks \\\n  -storepass {TYPED}",
    ],
)
def test_a_command_line_password_version_15_kept_is_redacted(command):
    for redacted, found in (
        redact(command),
        redact_json(json.dumps({"command": command})),
        # a Codex shell call's argv
        redact_json(json.dumps({"command": ["bash", "-lc", command]})),
    ):
        assert found == {"password": 1}, redacted
        assert TYPED not in redacted


def test_each_password_option_of_a_command_is_redacted():
    command = f"keytool -genkey -keystore r.jks -storepass {TYPED} -keypass {TYPED[::-1]}"
    assert redact(command) == (
        "keytool -genkey -keystore r.jks -storepass [REDACTED:password]"
        " -keypass [REDACTED:password]",
        {"password": 2},
    )


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"session_id": 77, "chars": f"{TYPED}\n"}),
        json.dumps({"session_id": 77, "chars": f"{TYPED}\r\n", "yield_time_ms": 500}),
        json.dumps({"session_id": 77, "chars": TYPED}, separators=(",", ":")),
        # a code-mode cell, each quote
        json.dumps({"input": f'await tools.write_stdin({{session_id: 9, chars: "{TYPED}\\n"}})'}),
        json.dumps({"input": f"await tools.write_stdin({{session_id: 9, chars: '{TYPED}\\n'}})"}),
        json.dumps({"input": f"await tools.write_stdin({{session_id: 9, chars: `{TYPED}\\n`}})"}),
    ],
)
def test_a_password_typed_into_a_prompt_is_redacted(text):
    redacted, found = redact_json(text)
    assert found == {"password": 1}, redacted
    assert TYPED not in redacted
    json.loads(redacted)


@pytest.mark.parametrize(
    "chars",
    ["\u0003", "\n", "y\n", "yes\n", "exit\n", "q", "2\n", "8080\n", "npm test\n", "$PASSWORD\n"],
)
def test_what_is_typed_that_is_no_password_is_kept(chars):
    text = json.dumps({"session_id": 77, "chars": chars})
    assert redact_json(text) == (text, {})


@pytest.mark.parametrize(
    "text",
    [
        # `sudo -S` given no password; a variable fed
        "sudo -S apt-get install -y libpq-dev",
        "sudo -S -v",
        'echo "$SUDO_PASSWORD" | sudo -S apt-get update',
        "echo $PW | sudo -S ls",
        'sudo -S <<< "$PW" ls',
        "echo 'x' | tee a.txt; sudo -S ls",
        # an option that prompts or reads a file, a program named inside another word
        "keytool -list -keystore release.jks",
        "keytool -list -keystore k.jks -storepass:env STOREPASS",
        "gpg --batch --passphrase-file pass.txt -d secrets.gpg",
        "gpg --passphrase-fd 0 -d x.gpg",
        "ssh-keygen -t ed25519 -N '' -f key",
        "mongosh -u admin -p --authenticationDatabase admin",
        "unzip -P x a.zip",
        "ldapsearch -x -W -D cn=admin,dc=x",
        "net use \\\\srv\\share /user:bob *",
        "SSHPASS=$PASS sshpass -e ssh host",
        "az login --use-device-code",
        "smbclient -L nas -U bob",
    ],
)
def test_version_16s_look_alikes_are_kept_beside_a_form_it_takes(text):
    assert redact(f"mongosh -p {TYPED}\n{text}") == (
        f"mongosh -p [REDACTED:password]\n{text}",
        {"password": 1},
    )


def _typed_passwords(more: str = "") -> st.SearchStrategy[str]:
    """Passwords of 6 to 40 characters with a digit and a letter, as typed on a command line
    (`more`: the characters a quoted one may hold besides)."""
    return st.text(
        alphabet="abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!@#%^_+=.,:-" + more,
        min_size=6,
        max_size=40,
    ).filter(
        lambda p: (
            re.search(r"\d", p)
            and re.search(r"[A-Za-z]", p)
            and p[0].isalnum()
            and p[-1] != " "
            and "..." not in p
            # (a placeholder's mark, `xxxx`, is a value masked by design)
            and not redact_module._PLACEHOLDER.match(p)
        )
    )


# Each form of REDACTION_VERSION 16, the password a placeholder in it.
VERSION_16_FORMS = (
    "echo '{}' | sudo -S apt-get update",
    "printf '%s\\n' {} | sudo -S ls",
    "sudo -S <<< '{}' whoami",
    "SSHPASS={} sshpass -e ssh host",
    "mongosh -u admin -p {} db",
    "sqlcmd -S db -U sa -P {}",
    "az login -u me -p {}",
    "keytool -list -keystore k.jks -storepass {}",
    "ldapsearch -x -w {} -b dc=x",
    "smbclient //nas/s -U bob%{}",
    "net use \\\\srv\\s /user:bob {}",
    "gpg --batch --passphrase {} -d x.gpg",
    "echo 'bob:{}' | chpasswd",
    "echo -n {} | passwd --stdin bob",
    "mysqladmin -u root password {}",
    "rabbitmqctl add_user admin {}",
    "ssh-keygen -N {} -f k",
    "x11vnc -passwd {}",
)


@settings(max_examples=200, deadline=None)
@given(
    form=st.sampled_from(VERSION_16_FORMS),
    password=_typed_passwords(),
    before=st.sampled_from(["", "cd /srv && ", "set -e\n", "ls\n"]),
)
def test_a_version_16_password_is_never_kept(form, password, before):
    # a value the command-line rules before them take for a password (`sshpass -p`): they
    # judge one alike (not `A_2222`, too plain to tell from a name)
    assume(password not in redact(f"sshpass -p {password} ssh host")[0])
    command = before + form.format(password)
    for redacted, _ in (redact(command), redact_json(json.dumps({"command": command}))):
        assert password not in redacted, redacted


# -- REDACTION_VERSION 17: version 16's forms with their common variations (session 31's ---
# -- security test, F5) --------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        # sudo's other options before `-S`, in any order, or grouped with it
        f"echo '{TYPED}' | sudo -u postgres -S psql -c 'select 1'",
        f"echo '{TYPED}' | sudo -p '' -S apt-get update",
        f"echo {TYPED} | sudo -E -S ./deploy.sh",
        f"echo {TYPED} | sudo -H -S ls",
        f"echo {TYPED} | sudo -ES ls",
        f"echo {TYPED} | sudo -nS true",
        f"echo {TYPED} | sudo  -S ls",
        f"echo {TYPED} | sudo --user=root --stdin ls",
        f"echo {TYPED} | sudo -g adm -k -S ls",
        f"sudo -u root -S <<< '{TYPED}' ls",
        # a quoted fed password holding `&`, `;`, `(` or a space
        f"echo '{TYPED}&3x' | sudo -S apt-get install -y nginx",
        f"echo '{TYPED};(x' | sudo -S ls",
        f'echo "correct horse {TYPED}" | sudo -S apt-get update',
        f"echo 'bob:{TYPED}&x' | chpasswd",
        f"sudo -S <<< '{TYPED}&x' ls",
        # the feeder not ending at the pipe
        f"(echo {TYPED}) | sudo -S ls",
        f"{{ echo {TYPED}; }} | sudo -S ls",
        f"echo $'{TYPED}' | sudo -S ls",
        f"echo {TYPED} 2>/dev/null | sudo -S ls",
        f"echo {TYPED} 2>&1 | sudo -S ls",
        # a heredoc into `sudo -S`
        f"sudo -S apt-get update <<EOF\n{TYPED}\nEOF",
        # a Windows domain before smbclient's user; a quoted option value holding `&` or `;`
        f"smbclient //nas/s -U 'CORP\\bob%{TYPED}' -c ls",
        f"smbclient //nas/s -U CORP\\\\bob%{TYPED} -c ls",
        f"smbclient //nas/s -U 'bob%{TYPED}&x y' -c ls",
        f"gpg --batch --passphrase '{TYPED}&x' -d f.gpg",
        f"keytool -list -storepass '{TYPED};x' -keystore k.jks",
    ],
)
def test_a_command_line_password_version_16_kept_is_redacted(command):
    for redacted, found in (
        redact(command),
        redact_json(json.dumps({"command": command})),
        redact_json(json.dumps({"command": ["bash", "-lc", command]})),
    ):
        assert found == {"password": 1}, redacted
        assert TYPED not in redacted


@pytest.mark.parametrize("typed", [f'{TYPED[:4]}"{TYPED[4:]}', f"{TYPED[:4]}'{TYPED[4:]}"])
@pytest.mark.parametrize("end", ["\n", "\r", ""])
def test_a_typed_password_holding_a_quote_or_a_backslash_is_redacted(typed, end):
    cell = f"await tools.write_stdin({{session_id: 9, chars: {json.dumps(typed + end)}}})"
    for text in (
        json.dumps({"session_id": 77, "chars": typed + end}),
        json.dumps({"session_id": 77, "chars": typed.replace('"', "\\") + end}),
        # a code-mode cell
        json.dumps({"input": cell}),
    ):
        redacted, found = redact_json(text)
        assert found == {"password": 1}, redacted
        assert TYPED[4:] not in redacted
        json.loads(redacted)


@pytest.mark.parametrize(
    "text",
    [
        # sudo without `-S`, or `-S` no option of sudo's
        "echo hello | sudo tee /etc/x",
        "sudo -u postgres psql",
        f"echo {TYPED} | sudo -s",
        f"echo {TYPED} | sudo -uS ls",
        f"echo {TYPED} | sudo ls -S",
        f"echo {TYPED} | pseudo -S x",
        'echo "$PW" 2>/dev/null | sudo -u root -S ls',
        "sudo -nS true",
        # a heredoc whose first line is no password
        "sudo -S tee /etc/hosts <<EOF\n127.0.0.1 localhost\nEOF",
        "sudo -S tee /etc/x.service <<EOF\n[Unit]\nEOF",
        "sudo -S bash <<'EOF'\napt-get update\nEOF",
        "sudo -S sh <<EOF\n#!/bin/sh\nEOF",
        # smbclient without a password; what is typed that holds a quote and no password
        "smbclient -L nas -U 'CORP\\bob'",
        'smbclient -U "bob%$PW"',
    ],
)
def test_version_17s_look_alikes_are_kept_beside_a_form_it_takes(text):
    assert redact(f"mongosh -p {TYPED}\n{text}") == (
        f"mongosh -p [REDACTED:password]\n{text}",
        {"password": 1},
    )


@pytest.mark.parametrize("chars", ['"\n', "'\n", "\\\n", 'echo "hi"\n', 'y"\n'])
def test_what_is_typed_with_a_quote_that_is_no_password_is_kept(chars):
    text = json.dumps({"session_id": 77, "chars": chars})
    assert redact_json(text) == (text, {})


# Each form of REDACTION_VERSION 17, the password (which may hold `&`, `;`, `(`, a space) a
# placeholder in it.
VERSION_17_FORMS = (
    "echo '{}' | sudo -u postgres -S psql",
    "echo '{}' | sudo -p '' -S ls",
    "echo '{}' | sudo -nS ls",
    "(echo '{}') | sudo -S ls",
    "echo '{}' 2>/dev/null | sudo -H -S ls",
    "sudo -E -S <<< '{}' ls",
    "echo 'bob:{}' | sudo chpasswd",
    "smbclient //nas/s -U 'CORP\\bob%{}' -c ls",
    "gpg --batch --passphrase '{}' -d x.gpg",
)


@settings(max_examples=200, deadline=None)
@given(
    form=st.sampled_from(VERSION_17_FORMS),
    password=_typed_passwords("&;() "),
    before=st.sampled_from(["", "cd /srv && ", "set -e\n", "ls\n"]),
)
def test_a_version_17_password_is_never_kept(form, password, before):
    # (a value the rules take for a password where it is quoted: no placeholder)
    assume(password not in redact(f"sshpass -p '{password}' ssh host")[0])
    command = before + form.format(password)
    for redacted, _ in (redact(command), redact_json(json.dumps({"command": command}))):
        assert password not in redacted, redacted


def test_a_token_in_utf16_text_read_as_utf8_is_redacted_in_json():
    """UTF-16 text read as UTF-8 has a NUL after each character, which JSON escapes
    (`g\\u0000h\\u0000p\\u0000_...`, a Write's input of a file a tool wrote so): an escaped
    NUL reads as nothing, as an invisible character does, and the token goes whole, its
    NULs with it; the JSON stays JSON, and one without a secret is kept as written."""
    token = "ghp_abcdefGhIjKlMnOpQrStUvWxYz0123456789"
    text = json.dumps({"content": "".join(c + "\0" for c in f"GITHUB_TOKEN={token}\r\n")})
    redacted, found = redact_json(text)
    assert found == {"github-token": 1}
    content = json.loads(redacted)["content"]
    assert content.replace("\0", "") == "GITHUB_TOKEN=[REDACTED:github-token]\r\n"
    plain = json.dumps({"content": "".join(c + "\0" for c in "no secret here, just text\r\n")})
    assert redact_json(plain) == (plain, {})


# -- REDACTION_VERSION 19: Azure CLI's keys, a user:password given to base64, a name's ------
# -- number (session 33's security test) ------------------------------------------------------

# Made up, in the shapes Azure prints: a storage account's key (the base64 of 64 bytes), a
# namespace's or a registry's (of 32 bytes, or 24).
STORAGE_KEY = (
    "q3N8vWk2Lr7sTz0aYb4Xc6Dd9Ee1Ff5Gg8Hh2Ii3Jj4Kk5Ll6Mm7Nn8Oo9Pp0Qq1Rr2Ss3Tt4Uu5Vv6Ww7Xx8Yy=="
)
AZURE_KEY = "Zk3mN8pQ2rS5tU7vW9xY1zA4bC6dE8fG0hJ2kL4mN6o="
REGISTRY_PASSWORD = "Gh7kLm2Np9Qr4St6Uv8Wx1Yz3Ab5Cd+E"


@pytest.mark.parametrize(
    "text, secret, kind",
    [
        # `Authorization: Basic` made on the command line, and a Docker config's auth so made
        (
            f'curl -H "Authorization: Basic $(echo -n deploy:{TYPED} | base64)" https://api.x',
            TYPED,
            "password",
        ),
        (f"AUTH=$(printf '%s' 'admin:{TYPED}' | base64 -w0)", TYPED, "password"),
        (f'echo -n "ci-bot:{TYPED}"|base64', TYPED, "password"),
        (f"curl -u deploy:{TYPED} https://api.x", TYPED, "password"),
        # az storage account keys list, as JSON and as a table
        (
            '[\n  {\n    "creationTime": "2026-01-02T10:00:00.0000000+00:00",\n'
            '    "keyName": "key1",\n    "permissions": "FULL",\n'
            f'    "value": "{STORAGE_KEY}"\n  }}\n]',
            STORAGE_KEY,
            "azure-storage-key",
        ),
        (
            "KeyName    Permissions    Value\n---------  -------------  -----\n"
            f"key1       FULL           {STORAGE_KEY}",
            STORAGE_KEY,
            "azure-storage-key",
        ),
        (f"2026-01-02T10:00:00+00:00\tkey2\tFULL\t{STORAGE_KEY}", STORAGE_KEY, "azure-storage-key"),
        # an App Service publish profile, as XML and as az's JSON
        (
            '<publishProfile profileName="app - Web Deploy" userName="$app"'
            f' userPWD="{AZURE_KEY[:40]}" destinationAppUrl="https://app.azurewebsites.net">',
            AZURE_KEY[:40],
            "password",
        ),
        (f'    "userPWD": "{AZURE_KEY[:40]}",', AZURE_KEY[:40], "password"),
        # az acr credential show: the second password too
        (
            '{\n  "passwords": [\n    {\n      "name": "password2",\n'
            f'      "value": "{REGISTRY_PASSWORD}"\n    }}\n  ],\n  "username": "myregistry"\n}}',
            REGISTRY_PASSWORD,
            "password",
        ),
        # az eventhubs ... keys list, az maps account keys list: the primary one too
        (f'  "primaryKey": "{AZURE_KEY}",', AZURE_KEY, "key"),
        (f'  "secondaryKey": "{AZURE_KEY}",', AZURE_KEY, "key"),
        (f'  "primaryMasterKey": "{STORAGE_KEY}",', STORAGE_KEY, "key"),
        # a name with a number after its keyword
        (f"DB_PASSWORD2={TYPED}", TYPED, "password"),
        (f"API_KEY_V2={TYPED}", TYPED, "api-key"),
        (f'{{"password2": "{TYPED}"}}', TYPED, "password"),
        (f"SECRET_KEY_2={TYPED}", TYPED, "secret"),
        (f"export GITHUB_TOKEN_1={TYPED}", TYPED, "token"),
        (f"smtp_pass2: '{TYPED}'", TYPED, "password"),
    ],
)
def test_a_form_version_18_kept_is_redacted(text, secret, kind):
    redacted_as(text, secret, kind)


def redacted_as(text, secret, kind):
    """`secret` goes from `text` as one secret of `kind`, and from the same text in a JSON
    input (a Write's content), where a line break is `\\n` and a quote `\\"`."""
    for redacted, found in (redact(text), redact_json(json.dumps({"content": text}))):
        assert secret not in redacted, redacted
        assert found == {kind: 1}, redacted


@pytest.mark.parametrize(
    "text",
    [
        # the shell's working folder, an id named primary key, a year or a program's name
        "cd /x && echo $PWD && OLDPWD=/home/a",
        'primaryKey: true, primaryKey: "id", primary_key="user_id"',
        f'"primaryKey": "{AZURE_KEY[:-1]}"',  # (no padding: an id may look so)
        "TOKEN_2022_PROGRAM_ID=TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
        "token-2022: TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
        "password123 = form.cleaned_data",
        # base64 of what is no user:password, or of a variable's
        'echo -n "$USER:$PASS" | base64',
        "echo 10:30 | base64",
        "echo hello | base64",
        # FULL before what is no key
        "Permissions: FULL access granted to everyone on the share",
        "FULL  abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz",
    ],
)
def test_version_19s_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


@settings(max_examples=200, deadline=None)
# (a token under 32 characters that only `API key` and its kin name, the name numbered:
# the high-entropy rule read no number after its keyword; REDACTION_VERSION 33)
@example(name="API_KEY", suffix="2", password="A22222334456789B.A", form="{}={}")
@given(
    name=st.sampled_from(["DB_PASSWORD", "API_KEY", "SECRET", "GITHUB_TOKEN", "smtpPassword"]),
    suffix=st.sampled_from(["2", "_2", "_V2", "v3", "_12"]),
    password=_typed_passwords(),
    form=st.sampled_from(["{}={}", "{}: '{}'", '"{}": "{}"', "export {}={}"]),
)
def test_a_value_of_a_name_with_a_number_is_never_kept(name, suffix, password, form):
    # (a value the rules take for a secret where it is given to the name without its number)
    assume(password not in redact(form.format(name, password))[0])
    text = form.format(name + (suffix.upper() if name.isupper() else suffix.lower()), password)
    for redacted, _ in (redact(text), redact_json(json.dumps({"content": text}))):
        assert password not in redacted, redacted


# -- REDACTION_VERSION 20: a JWT wrapped across lines (session 33's security test) -----------

# Made up, in the shape `kubectl create token` prints: a header, a payload and an HS256
# signature.
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    ".eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6ZGVmYXVsdDpkZXBsb3llciIsImlhdCI6MTcwMDAwMDAwMH0"
    ".Qk3v9Zx8Wc7Vb6Nm5Lk4Jh3Gf2Ds1Aa0Pp9Oo8Ii7Uu4Y"
)


def _wrapped(text, width):
    return "\n".join(text[i : i + width] for i in range(0, len(text), width))


@pytest.mark.parametrize("width", [40, 64, 76, 80, 100, 120])
@pytest.mark.parametrize(
    ("before", "first", "after"),
    [
        ("$ kubectl create token deployer\n", "", "\n$ kubectl get pods"),
        ("", "", "\nToken created, valid for 1h."),
        ("", "Authorization: Bearer ", "\n/var/run/secrets/kubernetes.io/token"),
        ("", "  token: ", "\nDone"),
    ],
)
def test_a_wrapped_jwt_goes_whole(width, before, first, after):
    """Each line of a JWT a terminal wrapped goes, the line after it (prose, a path, a
    prompt, a word) stays, as text and as JSON text."""
    text = before + _wrapped(first + JWT, width) + after
    assert redact(text) == (before + first + "[REDACTED:jwt]" + after, {"jwt": 1})
    redacted, found = redact_json(json.dumps({"content": text}))
    assert json.loads(redacted) == {"content": before + first + "[REDACTED:jwt]" + after}
    assert found == {"jwt": 1}


@pytest.mark.parametrize(
    "text",
    [
        # the base64 of a JSON document (`base64 -w 76`), a JWT's header alone, a first line
        # and what follows it, which makes no JWT: kept
        _wrapped(base64.b64encode(json.dumps({"a": 1, "b": "x" * 200}).encode()).decode(), 76),
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\nDone\n",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\n.gitignore\n",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\nsrc/app.py\n",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.\n.eyJzdWIiOiJ4In0\n",
    ],
)
def test_what_makes_no_wrapped_jwt_is_kept(text):
    assert redact(text) == (text, {})


def test_the_line_after_a_wrapped_jwt_is_kept_when_it_fills_its_line():
    """A JWT whose last line is full, then a line as long or shorter that is no rest of it:
    a word, a flag, a path, the next JWT of a list (its header and payload go as their own,
    since REDACTION_VERSION 21)."""
    lines = _wrapped(JWT, 50).split("\n")
    whole = "\n".join(lines[:-1]) + "\n" + lines[-1].ljust(50, "Q")[:50]
    for after, kept in (
        ("Completed", "Completed"),
        ("--no-verify", "--no-verify"),
        ("out/token.txt", "out/token.txt"),
        (JWT[:50], "[REDACTED:jwt]"),
    ):
        redacted, _ = redact(whole + "\n" + after + "\n")
        assert redacted == "[REDACTED:jwt]\n" + kept + "\n"


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(_LEADS)),
    st.sampled_from(["", "X=", "token: ", "Authorization: Bearer "]),
    st.integers(20, 130),
    st.sampled_from(["\n", "\r\n"]),
    st.sampled_from(["ok", "$ ls -la", "see /tmp/x"]),
)
def test_a_wrapped_jwt_behind_any_lead_is_never_kept(kind, before, width, eol, after):
    """A JWT wrapped at any width, each line behind the same lead (the next number), goes
    whole; the line after it stays."""
    content = before + JWT
    chunks = [content[i : i + width] for i in range(0, len(content), width)]
    # (the head on the first line; a last line that is a word or a number is no rest)
    assume(len(chunks[0]) >= len(before) + 11 and re.search(r"\d", chunks[-1]))
    assume(re.search(r"[A-Za-z]", chunks[-1]) and not chunks[-1].startswith("-"))
    lead = _LEADS[kind]
    text = "".join(f"{lead(k)}{c}{eol}" for k, c in enumerate(chunks)) + lead(len(chunks)) + after
    redacted, found = redact(text)
    assert set(found) == {"jwt"}, redacted
    assert not any(JWT[i : i + 10] in redacted for i in range(0, len(JWT) - 10)), redacted
    assert redacted.endswith(f"{eol}{lead(len(chunks))}{after}"), redacted


# -- REDACTION_VERSION 20: provider tokens and auth schemes no rule knew, `vault kv get`'s
# -- table (session 33's security test) --------------------------------------------------------

DISCORD = SECRETS["discord-token"]


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        # a Discord bot's token: bare, given to its client, in a .env (a value with dots), and
        # after Discord's own scheme
        (f"$ cat token.txt\n{DISCORD}\n", DISCORD, "discord-token"),
        (f'client.login("{DISCORD}");', DISCORD, "discord-token"),
        (f"DISCORD_TOKEN={DISCORD}\n", DISCORD, "discord-token"),
        (f'-H "Authorization: Bot {DISCORD}"', DISCORD, "discord-token"),
        # an older bot's id, 18 digits from 8
        (
            "bot.run('ODc2NTQzMjEwOTg3NjU0MzIx.YQk3vZ.Zq8vN2kL5mR7tX1wY4bC6dF9gH3')",
            "ODc2NTQzMjEwOTg3NjU0MzIx.YQk3vZ.Zq8vN2kL5mR7tX1wY4bC6dF9gH3",
            "discord-token",
        ),
        # schemes of other providers: Discord's with a token of another shape, Okta's
        (
            '-H "Authorization: Bot Zq8vN2kL5mR7tX1wY4bC6d"',
            "Zq8vN2kL5mR7tX1wY4bC6d",
            "discord-token",
        ),
        (
            'curl -H "Authorization: SSWS 00Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5x" https://x',
            "00Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5x",
            "okta-token",
        ),
        ("authorization: ssws 00Zq8vN2kL5mR7tX1wY4bC6d", "00Zq8vN2kL5mR7tX1wY4bC6d", "okta-token"),
        # GitLab's other tokens, bare
        ("glptt-8f3a9c2b7d1e4f6a8b0c2d4e6f8a0b1c2d4e6f8a", "8f3a9c2b7d1e4f6a8b0c", "gitlab-token"),
        (
            "gitlab-runner register --token glrt-t1_Zq8vN2kL5mR7tX1wY4bC",
            "Zq8vN2kL5mR7",
            "gitlab-token",
        ),
        ("CI_DEPLOY_PASSWORD: gldt-Zq8vN2kL5mR7tX1wY4bC", "Zq8vN2kL5mR7", "gitlab-token"),
        # Heroku's, Atlassian's, Postman's and NuGet's keys where commands print or take them
        (f"$ heroku auth:token\n{SECRETS['heroku-token']}", "Zq8vN2kL5mR7", "heroku-token"),
        (
            f"curl -u me@x.com:{SECRETS['atlassian-token']} https://x.atlassian.net",
            "Zq8vN2kL5mR7",
            "atlassian-token",
        ),
        (f"x-api-key: {SECRETS['postman-key']}", SECRETS["postman-key"][5:], "postman-key"),
        (
            f"dotnet nuget push pkg.nupkg -k {SECRETS['nuget-key']} -s https://api.nuget.org",
            SECRETS["nuget-key"],
            "nuget-key",
        ),
        # `vault kv get` and `vault read`: a table of names and values
        (
            "====== Data ======\nKey         Value\n---         -----\n"
            "password    Zq8vN2kL5mR7tX1wY4bC6d\nusername    app\n",
            "Zq8vN2kL5mR7tX1wY4bC6d",
            "password",
        ),
        (
            "Key                Value\n---                -----\nlease_duration     1h\n"
            "db_password        A1a-ckirtymYrx2DLv6w\r\n",
            "A1a-ckirtymYrx2DLv6w",
            "password",
        ),
        # PowerShell's Get-ChildItem env:
        (
            "Name               Value\n----               -----\n"
            "CLIENT_SECRET      Qm7xLp3vW9tRz2Kc\nPATH               C:\\x\n",
            "Qm7xLp3vW9tRz2Kc",
            "secret",
        ),
        (
            "Key\tValue\n---\t-----\n  client_secret\tQm7xLp3vW9tRz2Kc\n",
            "Qm7xLp3vW9tRz2Kc",
            "secret",
        ),
    ],
)
def test_a_form_version_19_kept_is_redacted(text, secret, kind):
    redacted_as(text, secret, kind)


@pytest.mark.parametrize(
    "text",
    [
        # what a Discord token's first part starts as, in words and names
        "NODE_ENV=production MODE=CODE INDEX NOTE MTU=1500 ODE solver",
        # a Discord token's shape whose first part is no user id (base64 of `123abc...`)
        "MTIzYWJjZGVmZ2hpamtsbW5vcHFy.Gq8vNk.Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5",
        "MTEuMC4wLmpzb24.config.Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5",
        # a scheme with a variable or a word
        'curl -H "Authorization: Bot ${DISCORD_TOKEN}" -H "Authorization: SSWS $OKTA_TOKEN"',
        "Authorization: Bot token, as Discord's documentation says",
        # prefixes inside words, too short, or words
        "employ2kq8vn2kl5mr7tx1wy4bc6df9gh3jk0pqst2uv5xw8ya1 glrt-short gldt-deploy-token-name",
        "PMAK-your-postman-api-key HRKU-your-heroku-token-here-please",
        # a table's lines that are no secret: a word, a placeholder, a version, prose, a name
        "Key         Value\n---         -----\npassword    required\ntoken       ********\n",
        "jsonwebtoken  9.0.2\npassport-jwt  4.0.1\ntiktoken      0.5.2\n",
        "password is required\nThe password    field is empty\n",
        "secret    my-app-secret-name\napi_key    $(cat /run/secrets/key)\n",
        "token_accessor    8609694a-cdbc-db9b-d345-e782dbb562ed\n",
        # a line of a name and a value, in no table
        "password    Zq8vN2kL5mR7tX1wY4bC6d\n",
    ],
)
def test_version_20s_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


@settings(max_examples=200, deadline=None)
@given(
    user_id=st.integers(10**16, 10**20 - 1),
    when=st.text(
        alphabet="abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789_-",
        min_size=6,
        max_size=6,
    ),
    hmac=st.sampled_from([27, 38]),
    form=st.sampled_from(["{}", 'client.login("{}")', "DISCORD_TOKEN={}", "Authorization: Bot {}"]),
    before=st.sampled_from(["", "x ", "\n", '"']),
)
def test_a_discord_token_is_never_kept(user_id, when, hmac, form, before):
    first = base64.b64encode(str(user_id).encode()).decode().rstrip("=")
    token = f"{first}.{when}.{'Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5xW'[:hmac]}"
    redacted_as(before + form.format(token) + " ok", token, "discord-token")


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(["password", "db_password", "API_TOKEN", "secret", "client_secret"]),
    indent=st.sampled_from(["", "  ", "\t"]),
    gap=st.sampled_from(["  ", "    ", "\t", "           "]),
    value=st.text(
        alphabet="abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789",
        min_size=12,
        max_size=40,
    ),
    eol=st.sampled_from(["\n", "\r\n", ""]),
)
def test_a_generated_value_of_a_table_is_never_kept(name, indent, gap, value, eol):
    # (a value the rules take for generated where it is given to the name with `=`; one with
    # a placeholder's mark, `...JKxxxx`, is a value masked by design: `X_KEY=` takes it as
    # a token of high entropy all the same)
    assume(value not in redact(f"X_KEY={value}")[0])
    assume(not redact_module._PLACEHOLDER.match(value))
    text = f"Key    Value\n---    -----\n{indent}{name}{gap}{value}{eol}"
    text += "username    app\n" if eol else ""
    for redacted, _ in (redact(text), redact_json(json.dumps({"content": text}))):
        assert value not in redacted, redacted


# -- REDACTION_VERSION 21: what version 20 left (session 33's security tests) ---------------

OKTA = "00Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5xW"
HEADER, PAYLOAD, SIGNATURE = JWT.split(".")


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        # Okta's scheme without its header: a header split from its name, a config's value
        (f'curl -H "SSWS {OKTA}" https://x.okta.com/api/v1/users', OKTA, "okta-token"),
        (f"okta_token: SSWS {OKTA}\n", OKTA, "okta-token"),
        (f"OKTA_AUTH='SSWS\t{OKTA}'", OKTA, "okta-token"),
        # an opaque Bearer token a terminal wrapped: its rest holds `.`, `~`, `+`, `/`, `=`
        (
            "Authorization: Bearer ya29.a0AfH6SMBx3kL9qPzR7vW2nT5yU8iO1p\nQw3Er5Ty7Ui9Op1As3D"
            "f5~x+c/v=\n$ next",
            "Qw3Er5Ty7Ui9Op1As3Df5~x+c/v=",
            "bearer-token",
        ),
        (
            "    Authorization: Bearer Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0E\n    d9Cb8Aa7.Zx9Yw8/V"
            "u7Ts6Rq5P\n    o4Nm3\n    Done",
            "d9Cb8Aa7.Zx9Yw8/Vu7Ts6Rq5P",
            "bearer-token",
        ),
        # a JWT split across lines: strings concatenated, a continued line, an indent
        (f'const t = "{HEADER}." +\n  "{PAYLOAD}." +\n  "{SIGNATURE}";', SIGNATURE, "jwt"),
        (f'T = ("{HEADER}"\n     ".{PAYLOAD}.{SIGNATURE}")', PAYLOAD, "jwt"),
        (f'token = "{HEADER}" +\n  "{PAYLOAD}" +\n  "." + "{SIGNATURE}"', SIGNATURE, "jwt"),
        (f"TOKEN={HEADER}.{PAYLOAD}.\\\n{SIGNATURE}", SIGNATURE, "jwt"),
        (f"  token: {HEADER}.{PAYLOAD}.\n        {SIGNATURE}\nDone", SIGNATURE, "jwt"),
        # its header and payload, the signature on a line of its own: they go, with what
        # the signature signs
        (f"header.payload: {HEADER}.{PAYLOAD}\nsignature: {SIGNATURE}", PAYLOAD, "jwt"),
        # GitLab's other tokens, and a routable one's parts after its dots
        ("CI_JOB_TOKEN=glcbt-64_Zq8vN2kL5mR7tX1wY4bC6dF9gH3", "Zq8vN2kL5mR7", "gitlab-token"),
        (
            "curl https://gitlab.com/x.atom?feed_token=glft-Zq8vN2kL5mR7tX1wY4bC",
            "Zq8vN2",
            "gitlab-token",
        ),
        ("glimt-Zq8vN2kL5mR7tX1wY4bC6dF9", "Zq8vN2kL5mR7", "gitlab-token"),
        ("glagent-Zq8vN2kL5mR7tX1wY4bC6dF9gH3jK0pQsT2uV5xW8yA1bE4cG7hJ0", "Zq8vN2", "gitlab-token"),
        ("secret: gloas-8f3a9c2b7d1e4f6a8b0c2d4e6f8a0b1c2d4e6f8a", "8f3a9c2b7d1e", "gitlab-token"),
        ("glsoat-Zq8vN2kL5mR7tX1wY4bC", "Zq8vN2kL5mR7", "gitlab-token"),
        ("glffct-Zq8vN2kL5mR7tX1wY4bC", "Zq8vN2kL5mR7", "gitlab-token"),
        ("glwt-Zq8vN2kL5mR7tX1wY4bC6dF9", "Zq8vN2kL5mR7", "gitlab-token"),
        ("glrtr-Zq8vN2kL5mR7tX1wY4bC6dF9", "Zq8vN2kL5mR7", "gitlab-token"),
        ("glpat-Zq8vN2kL5mR7tX1wY4bC6dF9gH3.01.0y1b2c3d4", "0y1b2c3d4", "gitlab-token"),
        # a table of names and values under its header, without its rule of dashes
        (
            "====== Data ======\nKey         Value\npassword    Zq8vN2kL5mR7tX1wY4bC6d\n"
            "username    app\n",
            "Zq8vN2kL5mR7tX1wY4bC6d",
            "password",
        ),
        (
            "NAME               VALUE\nCLIENT_SECRET      Qm7xLp3vW9tRz2Kc\n",
            "Qm7xLp3vW9tRz2Kc",
            "secret",
        ),
    ],
)
def test_a_form_version_20_kept_is_redacted(text, secret, kind):
    redacted_as(text, secret, kind)


@pytest.mark.parametrize(
    "text",
    [
        # `SSWS` before what is no Okta token: a variable, a word, an id of another length
        'curl -H "SSWS $OKTA_TOKEN" -H "SSWS ${OKTA_API_TOKEN}"',
        "the SSWS scheme is Okta's, SSWS 00 means nothing",
        "SSWS 00Zq8vN2kL5mR7tX1wY4bC6d and SSWS 00" + "a" * 50,
        # Okta's shape without its scheme: any id's
        f"request id {OKTA}",
        # a JWT and what follows it: another string, a word, a list's next JWT
        f'"{JWT}" +\n "Done"',
        f'["{JWT}",\n "{JWT}"]',
        f"{JWT}\nnext line of prose",
        # a header and what makes no payload after it, split or in prose
        f"see {HEADER} and {PAYLOAD} for the parts",
        f"{HEADER}.eyJzdWIi\nwith prose after",
        f'"{HEADER}" +\n "Zq8vN2kL5mR7"',
        # GitLab's prefixes in words, too short, or a placeholder
        "glft-short glimt-your-incoming-mail-token gloas-application-secret-here",
        # a line of a name and its value under a header of other columns, or under none
        "Name        Status\npassword    Zq8vN2kL5mR7tX1wY4bC6d\n",
        "Key         Value\npassword    required\ntoken       ********\n",
    ],
)
def test_version_21s_look_alikes_are_kept(text):
    redacted, found = redact(text)
    assert (redacted, found) == (text, {}) or (
        # (a whole JWT goes, as it always did: what follows it stays)
        "[REDACTED:jwt]" in redacted and redacted.replace("[REDACTED:jwt]", JWT) == text
    )


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        # aligned YAML, and 1Password's `op item get`: 4 or more spaces before the value
        (
            "database:\n  host:        db\n  password:    Zq8A7kQ9zLmX2pR4tVw8yBn\n",
            "Zq8A7kQ9",
            "password",
        ),
        (
            "Fields:\n  username:    admin\n  password:    Yy7A7kQ9zLmX2pR4tVw8yBn\n",
            "Yy7A7kQ9",
            "password",
        ),
        ("api_key:      Zq8A7kQ9zLmX2pR4tVw8yBn", "Zq8A7kQ9", "api-key"),
        ('{"password":     "Zq8A7kQ9zLmX2pR4tVw8yBn"}', "Zq8A7kQ9", "password"),
        # an ini's aligned `=`, spaces or tabs on both sides
        ("client_secret    =    Zq8A7kQ9zLmX2pR4tVw8yBn", "Zq8A7kQ9", "secret"),
        ("DB_PASSWORD=\t\t\tZq8A7kQ9zLmX2pR4tVw8yBn", "Zq8A7kQ9", "password"),
        ("password:" + " " * 40 + "Zq8A7kQ9zLmX2pR4tVw8yBn", "Zq8A7kQ9", "password"),
    ],
)
def test_a_value_after_aligned_spaces_is_redacted(text, secret, kind):
    """A value after four or more spaces was kept (`password:    x`: aligned YAML, `op
    item get`; a security test, session 34): up to 40 spaces or tabs are the gap."""
    redacted_as(text, secret, kind)


@pytest.mark.parametrize(
    "text",
    [
        "password:      ${DB_PASSWORD}",
        "token:         null",
        "the password       is long enough",
    ],
)
def test_what_aligned_spaces_lead_to_that_is_no_secret_is_kept(text):
    assert redact(text) == (text, {})


@pytest.mark.parametrize(
    "after", ["src/app/main.py", "Done", "/usr/local/bin", "app.config.json", "--verbose", "42"]
)
def test_the_line_after_a_bearer_token_is_kept(after):
    """A Bearer token at its line's end, then a line of its own: a path, a word, a name, a
    flag, a number."""
    text = f"Authorization: Bearer Zx9Yw8Vu7Ts6Rq5Po4Nm3\n{after}\n"
    assert redact(text) == (
        f"Authorization: Bearer [REDACTED:bearer-token]\n{after}\n",
        {"bearer-token": 1},
    )


@settings(max_examples=300, deadline=None)
@given(
    cuts=st.lists(st.integers(12, len(JWT) - 2), min_size=1, max_size=4, unique=True),
    gap=st.sampled_from(['" +\n  "', '"\n    "', "' +\n'", '" + \\\n"', '"\n"', "\n    "]),
    before=st.sampled_from(["const t = ", "token: ", "x = (", ""]),
)
def test_a_split_jwt_is_never_kept(cuts, gap, before):
    """Cut anywhere into pieces that code or an indent puts apart, a JWT's header, payload
    and signature all go, as text and as JSON text."""
    pieces = [JWT[a:b] for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), len(JWT)], strict=True)]
    # A line of its own, as a wrap's (no quote or `+` joins it), is what follows a JWT when
    # it is a word or starts with a dash, and so is a string joined after its signature
    # (43 characters, HS256's, the shortest).
    whole = len(HEADER) + len(PAYLOAD) + 2 + 43
    joined = "'" in gap or '"' in gap
    assume(
        not any(
            (cut >= whole or not joined)
            and (redact_module._PLAIN_WORD.fullmatch(piece) or piece[0] == "-")
            for cut, piece in zip(sorted(cuts), pieces[1:], strict=True)
        )
    )
    text = before + '"' + gap.join(pieces) + '";\n'
    for redacted, _ in (redact(text), redact_json(json.dumps({"content": text}))):
        for part in JWT.split("."):
            for k in range(0, len(part) - 7, 8):
                assert part[k : k + 8] not in redacted, redacted


@settings(max_examples=200, deadline=None)
@given(
    token=st.text(
        alphabet="abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789._~+/=-",
        min_size=60,
        max_size=200,
    ),
    width=st.sampled_from([40, 64, 80, 120]),
)
def test_a_wrapped_bearer_token_is_never_kept(token, width):
    """An opaque Bearer token a terminal wrapped: every line of it goes."""
    assume(token[0].isalnum() and re.search(r"\d", token) and re.search(r"[A-Za-z]", token))
    lines = _wrapped("Authorization: Bearer " + token, width).split("\n")
    # (a line a wrap starts with a dash, a dot, `/`, `+` or `~` may be a flag or a path)
    assume(all(line[0].isalnum() or line[0] == "_" for line in lines[1:]))
    # (its first line must be a token alone, not digits or `x...`; a line after it that is a
    # word, a number or a path is none of it: see _bearer, _wrapped_rest_end)
    assume(redact(lines[0])[1])
    assume(all(not anchors_in(line) for line in lines[1:]))
    assume(not any(redact_module._PLAIN_WORD.fullmatch(line) for line in lines[1:]))
    assume(not any(redact_module._DOTTED_WORDS.fullmatch(line) for line in lines[1:]))
    text = "\n".join(lines) + "\n$ kubectl get pods\n"
    expected = "Authorization: Bearer [REDACTED:bearer-token]\n$ kubectl get pods\n"
    assert redact(text)[0] == expected
    assert json.loads(redact_json(json.dumps({"content": text}))[0]) == {"content": expected}


# -- REDACTION_VERSION 22: what version 21 left (session 34's security test) ----------------

VAULT_ID = "https://kv-prod.vault.azure.net/secrets/dbpass/4387e9f3d6e14c459867679a90fd0f79"
# (REDACTION_VERSION 23's value of a secret store, and the base64 of a Secret's `data:`)
SECRET_VALUE = "Zq8vN2kL5mR7tX1wY4bC"


def _b64(value):
    return base64.b64encode(value.encode()).decode()


@pytest.mark.parametrize(
    ("text", "secrets", "kind"),
    [
        # a JWT's parts apart: items of a list, arguments, a dict's values, a template's pieces
        (f'parts = ["{HEADER}", "{PAYLOAD}", "{SIGNATURE}"]', (PAYLOAD, SIGNATURE), "jwt"),
        (f'tok = ".".join(["{HEADER}", "{PAYLOAD}", "{SIGNATURE}"])', (SIGNATURE,), "jwt"),
        (f'["{HEADER}.", "{PAYLOAD}.", "{SIGNATURE}"]', (PAYLOAD, SIGNATURE), "jwt"),
        (
            f'{{\n  "h": "{HEADER}",\n  "p": "{PAYLOAD}",\n  "s": "{SIGNATURE}"\n}}',
            (PAYLOAD, SIGNATURE),
            "jwt",
        ),
        (f"header: {HEADER}\npayload: {PAYLOAD}\nsig: {SIGNATURE}\n", (SIGNATURE,), "jwt"),
        (f"jwt(h={HEADER!r}, p={PAYLOAD!r}, s={SIGNATURE!r})", (SIGNATURE,), "jwt"),
        (f"const t = `${{'{HEADER}'}}.${{'{PAYLOAD}'}}.${{'{SIGNATURE}'}}`", (SIGNATURE,), "jwt"),
        # a scheme and its token in two strings
        (f'headers = {{"Authorization": "SSWS " + "{OKTA}"}}', (OKTA,), "okta-token"),
        (f'$h = "SSWS " . "{OKTA}";', (OKTA,), "okta-token"),
        (f'auth = ("SSWS "\n        "{OKTA}")', (OKTA,), "okta-token"),
        ("h = {'Authorization': 'Bearer ' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2'}", ("Vu7Ts6",), "token"),
        # a table's name that fills its column, one space before the value below the header's
        ("NAME        VALUE\nDB_PASSWORD Zq8vN2kL5mR7tX1wY4bC\n", ("Zq8vN2kL",), "password"),
        # a table in a diff or an apply_patch's body, `op item get`'s fields too
        (
            "*** Add File: notes.txt\n+Key         Value\n+password    Zq8vN2kL5mR7tX1wY4bC\n",
            ("Zq8vN2kL",),
            "password",
        ),
        ("+Fields:\n+  password:    Zq8vN2kL5mR7tX1wY4bC\n", ("Zq8vN2kL",), "password"),
        # `doppler secrets`' box
        (
            "│ NAME        │ VALUE                │ NOTE │\n├─────────────┼─────\n"
            "│ DB_PASSWORD │ Zq8vN2kL5mR7tX1wY4bC │      │\n",
            ("Zq8vN2kL",),
            "password",
        ),
        (
            "| Name | Value |\n|---|---|\n| API_TOKEN | Zq8vN2kL5mR7tX1wY4bC |",
            ("Zq8vN2kL",),
            "token",
        ),
        # a Key Vault secret's value, whatever its name: `az keyvault secret show`'s sorted
        # keys, the REST API's answer, YAML, tsv
        (
            f'{{\n  "attributes": {{\n    "enabled": true\n  }},\n  "id": "{VAULT_ID}",\n'
            f'  "name": "dbpass",\n  "tags": {{"env": "prod"}},\n  "value": "Hunter2!pw"\n}}',
            ("Hunter2!pw",),
            "secret",
        ),
        (f'{{"value":"Hunter2!pw","id":"{VAULT_ID}"}}', ("Hunter2!pw",), "secret"),
        (f"id: {VAULT_ID}\nname: dbpass\nvalue: Hunter2!pw\n", ("Hunter2!pw",), "secret"),
        (f"None\t{VAULT_ID}\tNone\tdbpass\tZq8vN2kL5mR7tX1wY4bC\n", ("Zq8vN2kL",), "secret"),
        # a field's label and its value: 1Password's `op item get --format json`
        (
            '{"fields": [{"id": "password", "type": "CONCEALED", "label": "password", '
            '"value": "Fz0nCf6mM2jHp5As1Dr"}]}',
            ("Fz0nCf6mM2jHp5As1Dr",),
            "password",
        ),
    ],
)
def test_a_form_version_21_kept_is_redacted(text, secrets, kind):
    for redacted, found in (redact(text), redact_json(json.dumps({"content": text}))):
        for secret in secrets:
            assert secret not in redacted, redacted
        # (a Key Vault id's version after `.../dbpass/` is a token after a keyword too)
        assert found.get(kind, found.get("bearer-token")) == 1, found


@pytest.mark.parametrize(
    "text",
    [
        # a JWT's header beside what is no payload, a whole JWT beside another value
        f'["{HEADER}", "Zq8vN2kL5mR7tX1wY4bC"]',
        f'{{"alg": "{HEADER}", "note": "see docs"}}',
        # a scheme in a string, then no string of a token
        '"Bearer " + token, "SSWS " + os.environ["OKTA"]',
        # one space between a name and its value, not below a column of a table
        "Key         Value\npassword Zq8vN2kL5mR7tX1wY4bC\n",
        # a box's cells that are no table's values, a table's line that ends in a pipe
        "│ Key │ Value │\n│ password │ required │\n",
        "Key    Value\ntoken  Zq8vN2kL5mR7tX1wY4bC | head\n",
        # a Key Vault reference (no secret: where one is), a list of secrets (no values)
        '[{"name": "DB", "value": "@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/'
        'secrets/db/)"}, {"name": "X", "value": "production"}]',
        '[{"id": "https://kv.vault.azure.net/secrets/db", "tags": {}}, {"value": "x1"}]',
        "https://kv.vault.azure.net/secrets/dbpass  dbpass  text/plain",
        # a label of no secret's name, or a secret's label beside a variable
        '[{"label": "Home", "value": "production-build"}, {"label": "token", "value": "${T}"}]',
        # REDACTION_VERSION 23: a parameter that is no SecureString, one without its value, a
        # store given a file or a variable, a store of settings given settings, code
        '{"Parameter": {"Name": "/ami", "Type": "String", "Value": "ami-0abc1234def567890"}}',
        '{"Parameters": [{"Name": "/x", "Type": "SecureString", "KeyId": "alias/aws/ssm"}]}',
        "aws ssm put-parameter --name /api/url --type String --value https://api.example.com/v2",
        "aws secretsmanager create-secret --name prod/db --secret-string file://creds.json",
        "az keyvault secret set --vault-name kv --name cert --file ./cert.pem",
        "vault kv put secret/app password=@pw.txt token=-",
        "echo $TOKEN | gh secret set CONN",
        "heroku config:set NODE_ENV=production WEB_CONCURRENCY=2 "
        "BUILDPACK_URL=https://github.com/heroku/heroku-buildpack-python",
        "client.put_secret_value(SecretId=sid, SecretString=json.dumps(payload))",
        'Properties:\n  GenerateSecretString:\n    SecretStringTemplate: \'{"username": "admin"}\''
        "\n  SecretString: !Ref DbPass\n",
        # a ConfigMap's data, a kind that is not a Secret, a Secret's values that are no secret
        f"apiVersion: v1\nkind: ConfigMap\ndata:\n  LOG_TOKEN_TTL: {_b64(SECRET_VALUE)}\n",
        f"apiVersion: v1\nkind: SecretProviderClass\ndata:\n  x: {_b64(SECRET_VALUE)}\n",
        "kind: Secret\ndata:\n  username: YWRtaW4=\n  port: NTQzMg==\n"
        "  host: ZGIuZXhhbXBsZS5jb20=\n",
        "kind: Secret\nstringData:\n  user: postgres\n  config.yaml: |\n    a: b\n",
    ],
)
def test_version_22s_look_alikes_are_kept(text):
    redacted, found = redact(text)
    assert (redacted, found) == (text, {}) or (
        "[REDACTED:jwt]" in redacted and redacted.replace("[REDACTED:jwt]", JWT) == text
    )


# -- REDACTION_VERSION 23: a secret store's value, whatever its name (session 35's hunt) ------

DB_URL = _b64(f"postgres://app:{SECRET_VALUE}@db/app")


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        # AWS Secrets Manager's `get-secret-value`: JSON, YAML, text; a JSON object's values
        (
            f'{{\n  "Name": "prod/api",\n  "SecretString": "{SECRET_VALUE}",\n'
            '  "VersionId": "a1"\n}',
            (),
        ),
        (f"Name: prod/api\nSecretString: {SECRET_VALUE}\nVersionId: a1\n", ()),
        (
            f"arn:aws:secretsmanager:us-east-1:1:secret:prod/api-AbC\t2026-03-01T10:00:00+00:00"
            f"\tprod/api\t{SECRET_VALUE}\ta1b2c3d4\n",
            (),
        ),
        (
            '{"SecretString": "{\\"username\\":\\"app\\",\\"conn\\":\\"'
            + SECRET_VALUE
            + '\\",\\"port\\":5432}"}',
            (),
        ),
        # AWS SSM's SecureString, whatever the parameter's name: JSON (its value after its type
        # or before it), YAML, text
        (
            f'{{"Parameter": {{"Name": "/prod/db/conn", "Type": "SecureString", '
            f'"Value": "{SECRET_VALUE}", "Version": 3}}}}',
            (),
        ),
        (f'{{"Value": "{SECRET_VALUE}", "Type": "SecureString", "Name": "/x"}}', ()),
        (f"Parameter:\n  Name: /prod/db/conn\n  Type: SecureString\n  Value: {SECRET_VALUE}\n", ()),
        (
            "PARAMETER\tarn:aws:ssm:us-east-1:1:parameter/db\ttext\t2026-01-01\t/db\tSecureString"
            f"\t{SECRET_VALUE}\t3\n",
            (),
        ),
        # a secret store's command given the value
        (
            f"aws ssm put-parameter --name /prod/db/conn --value '{SECRET_VALUE}' "
            "--type SecureString --overwrite",
            (),
        ),
        (f"aws secretsmanager create-secret --name prod/api --secret-string {SECRET_VALUE}", ()),
        (f"aws secretsmanager put-secret-value --secret-id x --secret-string '{SECRET_VALUE}'", ()),
        (f"az keyvault secret set --vault-name kv --name dbpass --value {SECRET_VALUE}", ()),
        (f"vault kv put -mount=secret app conn='{SECRET_VALUE}' user=app", ()),
        (f"kubectl create secret generic app --from-literal=conn={SECRET_VALUE}", ()),
        (f"heroku config:set CONN={SECRET_VALUE} -a app", ()),
        (f"fly secrets set CONN={SECRET_VALUE}", ()),
        # a value piped into a secret setter
        (f"echo {SECRET_VALUE} | gh secret set CONN", ()),
        (f"printf {SECRET_VALUE} | npx wrangler secret put CONN", ()),
        (f"echo -n '{SECRET_VALUE}' | gcloud secrets create conn --data-file=-", ()),
        (f"echo -n {SECRET_VALUE} | gcloud secrets versions add conn --data-file=-", ()),
        # a Kubernetes Secret's values under names with no keyword: `kubectl get -o yaml`, a
        # list of them, an apply_patch, stringData
        (
            f"apiVersion: v1\ndata:\n  DATABASE_URL: {DB_URL}\n  username: YWRtaW4=\nkind: Secret"
            "\nmetadata:\n  name: db\ntype: Opaque\n",
            (DB_URL[16:40],),
        ),
        (
            f"items:\n- apiVersion: v1\n  data:\n    CONN: {_b64(SECRET_VALUE)}\n  kind: Secret\n"
            f"- apiVersion: v1\n  data:\n    LOG: {_b64('debug-level-verbose-x')}\n"
            "  kind: ConfigMap\n",
            (_b64(SECRET_VALUE),),
        ),
        (
            "*** Begin Patch\n*** Add File: k8s/secret.yaml\n+apiVersion: v1\n+kind: Secret\n"
            f"+type: Opaque\n+data:\n+  DATABASE_URL: {DB_URL}\n*** End Patch",
            (DB_URL[16:40],),
        ),
        (f'apiVersion: v1\nkind: Secret\nstringData:\n  conn: "{SECRET_VALUE}"\n', ()),
    ],
)
def test_a_secret_stores_value_is_redacted_whatever_its_name(text, secrets):
    for redacted, found in (redact(text), redact_json(json.dumps({"content": text}))):
        for secret in (SECRET_VALUE, *secrets):
            assert secret not in redacted, redacted
        assert found == {"secret": 1}, found


# -- REDACTION_VERSION 24: a credential a tool is told to keep (session 35, third round) ----


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # a package manager's setting that names a registry's credential, its value after a
        # space (the `.npmrc` rule reads `KEY=V` only)
        (f"npm config set //npm.corp.example/:_authToken {SECRET_VALUE}", "secret"),
        (f"npm config set '//npm.corp.example/:_authToken' '{SECRET_VALUE}'", "secret"),
        (f"npm set //npm.corp.example/:_password {SECRET_VALUE}", "secret"),
        (f"npm config set _auth {SECRET_VALUE}", "secret"),
        (f"pnpm config set //npm.corp.example/:_authToken {SECRET_VALUE}", "secret"),
        (f"yarn config set npmAuthToken {SECRET_VALUE}", "secret"),
        (f'yarn config set npmScopes.corp.npmAuthIdent "bob:{SECRET_VALUE}"', "secret"),
        (f"poetry config http-basic.corp bob {SECRET_VALUE}", "secret"),
        (f"poetry config pypi-token.corp {SECRET_VALUE}", "secret"),
        (f"composer config --global http-basic.repo.example.com bob {SECRET_VALUE}", "secret"),
        (f"composer config -g github-oauth.github.com {SECRET_VALUE}", "secret"),
        (f"bundle config set --global rubygems.pkg.github.com bob:{SECRET_VALUE}", "secret"),
        (f"bundle config https://gems.corp.example/ bob:{SECRET_VALUE}", "secret"),
        # a registry's credentials given to skopeo, podman, buildah
        (f"skopeo copy --src-creds bob:{SECRET_VALUE} docker://a docker://b", "secret"),
        (f"podman pull --creds='bob:{SECRET_VALUE}' registry.corp.example/app", "secret"),
        # a login given its token as its argument
        (f"cargo login {SECRET_VALUE}", "secret"),
        (f"cargo login --registry corp {SECRET_VALUE}", "secret"),
        (f"wandb login --relogin {SECRET_VALUE}", "secret"),
        (f"vault login {SECRET_VALUE}", "secret"),
        (f"ngrok config add-authtoken {SECRET_VALUE}", "secret"),
        (f"mc alias set corp https://minio.corp.example admin {SECRET_VALUE}", "secret"),
        # docker login's kin, NuGet's feed and key
        (f"podman login -u bob -p {SECRET_VALUE} registry.corp.example", "password"),
        (f"helm registry login reg.example -u bob -p '{SECRET_VALUE}'", "password"),
        (
            "dotnet nuget add source https://nuget.corp.example/v3/index.json -n corp -u bob "
            f"-p {SECRET_VALUE} --store-password-in-clear-text",
            "password",
        ),
        (f"dotnet nuget push app.nupkg -k {SECRET_VALUE} -s https://nuget.example", "password"),
    ],
)
def test_a_credential_a_tool_is_told_to_keep_is_redacted(text, kind):
    for redacted, found in (redact(text), redact_json(json.dumps({"content": text}))):
        assert SECRET_VALUE not in redacted, redacted
        assert found == {kind: 1}, found


@pytest.mark.parametrize(
    "text",
    [
        "npm config set //npm.corp.example/:_authToken ${NPM_TOKEN}",
        'yarn config set npmAuthToken "$NPM_TOKEN"',
        "npm config set registry https://npm.corp.example/ && npm config get _authToken",
        "npm config set //npm.corp.example/:always-auth true",
        "poetry config http-basic.corp bob && poetry install",
        "poetry config virtualenvs.in-project true",
        "bundle config set --local path vendor/bundle",
        "bundle config mirror.https://rubygems.org https://mirror.corp.example",
        "cargo login --registry my-registry",
        "vault login -method=oidc role=admin",
        "wandb login --host https://wandb.corp.example",
        "mc alias set local http://localhost:9000 minioadmin minioadmin",
        "podman login -u bob -p $REGISTRY_PASSWORD reg.example && podman run -p 8080:80 x",
        "skopeo copy --src-creds $USER:$PASS docker://a docker://b",
        "dotnet nuget push app.nupkg -k $NUGET_KEY -s https://api.nuget.org/v3/index.json",
    ],
)
def test_version_24s_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


# -- REDACTION_VERSION 25: JSON held in JSON, settings stores, URLs without a scheme -------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # a SecretString that holds an object: a value after the object it holds closes
        (
            '{"Name": "prod/app", "SecretString": "{\\"db\\": {\\"host\\": \\"db.internal\\", '
            f'\\"port\\": 5432}}, \\"dbuser\\": \\"app\\", \\"conn\\": \\"{SECRET_VALUE}\\"}}"}}',
            "secret",
        ),
        # a Kubernetes Secret as JSON: `kubectl get secret -o json` (keys sorted), a list of
        # them, a manifest's stringData
        (
            f'{{"apiVersion": "v1", "data": {{"conn": "{_b64(SECRET_VALUE)}", '
            '"username": "YWRtaW4="}, "kind": "Secret", "type": "Opaque"}',
            "secret",
        ),
        (
            f'{{"items": [{{"data": {{"conn": "{_b64(SECRET_VALUE)}"}}, "kind": "Secret"}}, '
            f'{{"data": {{"LOG": "{_b64("debug-level-verbose-x")}"}}, "kind": "ConfigMap"}}]}}',
            "secret",
        ),
        (
            f'{{"kind": "Secret", "stringData": {{"conn": "{SECRET_VALUE}", "user": "app"}}}}',
            "secret",
        ),
        # `vault write` under the KV engine's mount, or a value that looks generated elsewhere
        (f"vault write secret/app value={SECRET_VALUE}", "secret"),
        (f"vault write sys/custom/x seed={SECRET_VALUE} ttl=72h", "secret"),
        # Consul's and etcd's stores: a key whose last part names a secret, or a value that
        # looks generated
        ("consul kv put app/db/password hunter2pw", "secret"),
        (f"consul kv put -flags=42 config/api/token '{SECRET_VALUE}'", "secret"),
        (f"consul kv put app/seed {SECRET_VALUE}", "secret"),
        (f"etcdctl put /app/conn {SECRET_VALUE}", "secret"),
        # a URL's credentials without its scheme: a DSN with a port or a path, Go's MySQL DSN
        (f"psql admin:{SECRET_VALUE}@db.example.com:5432/app", "url-password"),
        (f"export DB_URL=app:{SECRET_VALUE}@10.0.0.5/appdb", "url-password"),
        (f'dsn := "root:{SECRET_VALUE}@tcp(127.0.0.1:3306)/app"', "url-password"),
        (f"DATABASE=app:{SECRET_VALUE}@db:5432", "url-password"),
        # a URL whose user an earlier rule took (an AWS key id): its password still goes
        (f"aws s3 ls s3://AKIAB7Q3XW5N2R8T4BRN:{SECRET_VALUE}@bucket/", "url-password"),
        # PyPI's upload
        (f"twine upload -u __token__ -p {SECRET_VALUE} dist/*", "password"),
    ],
)
def test_a_form_version_24_kept_is_redacted(text, kind):
    for redacted, found in (redact(text), redact_json(json.dumps({"content": text}))):
        assert SECRET_VALUE not in redacted and _b64(SECRET_VALUE) not in redacted, redacted
        assert "hunter2pw" not in redacted, redacted
        assert found.get(kind) == 1, found


@pytest.mark.parametrize(
    "text",
    [
        # settings given to vault, Consul and etcd
        "vault write pki/roles/web allowed_domains=example.com ttl=72h max_ttl=720h",
        "vault write auth/jwt/config oidc_discovery_url=https://id.example.com bound_issuer=x",
        "vault write secret/app @data.json",
        "consul kv put app/max_conns 100",
        "consul kv put app/name billing-service",
        "consul kv put app/db/password -",
        "consul kv put app/config @config.json",
        "etcdctl put /app/feature-flags/dark-mode true",
        # a ConfigMap as JSON, a Secret's list without values
        f'{{"data": {{"conn": "{_b64(SECRET_VALUE)}"}}, "kind": "ConfigMap"}}',
        '{"items": [{"kind": "Secret", "metadata": {"name": "db"}, "type": "Opaque"}]}',
        # an `@` that no service's address follows with a password before it: an email, an
        # image's digest, an npm alias, an scp path, a search filter, a variable
        "from:johnsmith1990@gmail.com",
        "image: node:20-alpine@sha256:3f4e5d6c7b8a9f0e1d2c3b4a5968776655443322",
        '"react": "npm:react@18.2.0"',
        "git clone git@github.com:org/repo.git && scp build.tgz deploy@web.example.com:/srv/",
        "Co-Authored-By: Claude <noreply@anthropic.com>",
        "DATABASE=app:${DB_PASSWORD}@db:5432/app",
        "mailto:someone@example.com",
        "twine upload -r testpypi -p $TWINE_PASSWORD dist/*",
    ],
)
def test_version_25s_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


# -- REDACTION_VERSION 28 (session 37): what a security round found kept ---------------------

CONSUL_SECRET = "3d6e5b2a-1c4f-4e8a-9b7d-2f1e0c9a8b7d"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # Consul's and Nomad's ACL tokens: a UUID under a label that says it is the secret
        (f"AccessorID:   0f3c2b1a-aaaa\nSecretID:     {CONSUL_SECRET}\nLocal: false", "SecretID:"),
        (f'{{\n    "SecretID": "{CONSUL_SECRET}",\n    "Local": false', '"SecretID": "'),
        (f"Accessor ID  = 0f3c\nSecret ID    = {CONSUL_SECRET}\nName = Bootstrap", "Secret ID"),
        # vault operator init
        ("Unseal Key 1: qZ0b3Jd8+abc/x9yzQ1w2e3r4t5y6u7i8o9p0aS=\n\n", "Unseal Key 1: "),
        ("Initial Root Token: s.Q7mKx2Lp9Zt4Wv8N\n", "Initial Root Token: "),
        # kubeadm's bootstrap token
        ("kubeadm join 10.0.0.5:6443 --token abcdef.0123456789abcdef --discovery", "--token "),
    ],
)
def test_a_secret_under_a_clis_label_is_redacted(text, kept):
    redacted, kinds = redact(text)
    assert sum(kinds.values()) == 1 and kept in redacted and "[REDACTED:" in redacted
    secret = re.search(r"[:=] *\"?([A-Za-z0-9+/=._-]{8,})|--token (\S+)", text[text.index(kept) :])
    assert (secret.group(1) or secret.group(2)) not in redacted


@pytest.mark.parametrize(
    "text",
    [
        "SecretID: <hidden>",
        "the SecretID field of the token, and its AccessorID",
        "Secret ID    = anonymous",
        "Unseal Key 1: [REDACTED:key]",
        "kubeadm token create --ttl 24h --token-ttl 0",
        "--token abcdef.ghijklmnopqrstuv",  # no digit: words
    ],
)
def test_version_28s_labelled_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


@pytest.mark.parametrize(
    ("command", "told"),
    [
        # a variable given a printer's output, printed later in the same call
        ("V=$(vault kv get -field=value x); echo $V", "secret"),
        ('export PW=$(op read op://v/i/p) && echo "$PW"', "secret"),
        (
            "P=$(kubectl get secret db -o jsonpath='{.data.password}' | base64 -d)\necho \"$P\"",
            "secret",
        ),
        # infrastructure tools and other CLIs that print one value
        ("terraform output -raw db_password", "password"),
        ("pulumi config get dbPassword", "password"),
        ("pulumi stack output apiToken --show-secrets", "token"),
        ("bw get password github.com", "password"),
        ("lpass show --password db", "password"),
        ("infisical secrets get STRIPE --plain", "secret"),
        ("chamber read -q app db_password", "secret"),
        # a file that holds a secret alone, in a container too
        ("docker exec app cat /run/secrets/db_password", "secret"),
        ("sudo cat /var/lib/rancher/k3s/server/node-token", "secret"),
        ("cat ~/.vault-token", "secret"),
        ("kubectl exec api-0 -- cat /var/run/secrets/stripe", "secret"),
        # credentials files under other names: a backup, a .env of several parts
        ("cat ~/.pgpass.bak", "pgpass"),
        ("less ~/.netrc.old", "netrc"),
        ("type C:\\Users\\dev\\AppData\\Roaming\\postgresql\\pgpass.conf.orig", "pgpass"),
        ("cat .env.development.local", "env"),
    ],
)
def test_version_28s_printers_are_told(command, told):
    assert redact_module.printed_secret_kind(command) == told


@pytest.mark.parametrize(
    "command",
    [
        "X=$(date); echo $X",
        "V=$(vault kv get -field=value x) ; echo done",
        "terraform output -raw instance_ip",
        "pulumi config get aws:region",
        "cat token.go",
        "cat src/password_reset.py",
        "grep -r password src/",
        "sed -n 1,5p secrets/README",
        "cat README.md",
        "cat ~/.pgpass.example | wc -l",
    ],
)
def test_version_28s_printer_look_alikes_are_not_told(command):
    assert redact_module.printed_secret_kind(command) is None


def test_a_read_of_a_secrets_file_is_redacted_without_its_line_numbers():
    assert redact_module.printed_secret_kind(None, "/run/secrets/db_password") == "secret"
    assert redact_module.printed_secret_kind(None, "/home/dev/.pgpass~") == "pgpass"
    assert redact_module.printed_secret_kind(None, "/srv/app/src/token.ts") is None
    view = "     1→Qz7hT3kLm9Wp2Xv8\n"
    assert redact_module.redact_printed(view, "secret") == (
        "     1→[REDACTED:secret]\n",
        {"secret": 1},
    )


# -- REDACTION_VERSION 29 (session 37, second round): what the first round left ------------

SECRET = "Qz7hT3kLm9Wp2Xv8Rb4N"


@pytest.mark.parametrize(
    "text",
    [
        # a store that reads its value from its input, given it in a heredoc
        f'vault write secret/app - <<EOF\n{{"conn": "db.internal", "signing": "{SECRET}"}}\nEOF',
        f"vault write secret/legacy value=- <<EOF\n{SECRET}\nEOF",
        f"consul kv put app/db/password - <<'EOF'\n{SECRET}\nEOF",
        f"cat <<EOF | kubectl create secret generic db --from-file=creds=/dev/stdin\n{SECRET}\nEOF",
        f'cat <<\'EOF\' | vault kv put secret/app -\n{{\n  "webhook": "{SECRET}"\n}}\nEOF',
        f"kubectl create secret generic app --from-env-file=/dev/stdin <<EOF\nA={SECRET}\nEOF",
        f"gh secret set DEPLOY_SIGNING <<'EOF'\n{SECRET}\nEOF",
        f"aws secretsmanager put-secret-value --secret-id app --secret-string file:///dev/stdin"
        f' <<EOF\n{{"upstream": "{SECRET}"}}\nEOF',
        # a YAML block scalar under a secret's name
        f"db:\n  user: app\n  password: |\n    {SECRET}\n  host: db\n",
        f"api:\n  api_key: >-\n    {SECRET}\n  url: https://x",
        # Redis's password
        f"redis-cli -h db CONFIG SET requirepass {SECRET}",
        f"bind 0.0.0.0\nrequirepass {SECRET}\nmasterauth {SECRET}",
        f"redis-cli -h cache AUTH app {SECRET}",
        f"$ redis-cli\n127.0.0.1:6379> AUTH {SECRET}\nOK",
        # a `.env` written, its names saying nothing
        f'{{"file_path": "/srv/app/.env.local", "content": "PORT=3000\\nSIGNING={SECRET}\\n"}}',
        f'{{"file_path": "/srv/.env", "old_string": "A", "new_string": "A\\nB=\\"{SECRET}\\""}}',
        f"*** Begin Patch\n*** Add File: .env.production\n+COOKIE_SIGNING={SECRET}\n*** End Patch",
        f"*** Update File: /srv/app/.env\n@@\n PORT=3000\n+UPSTREAM={SECRET}\n*** End Patch",
        f"cat > .env <<'EOF'\nPORT=3000\nUPSTREAM_SIGNING={SECRET}\nEOF",
        f"cat <<EOF | tee -a /srv/.env.staging >/dev/null\nX={SECRET}\nEOF",
    ],
)
def test_a_form_version_28_kept_is_redacted(text):
    redacted, kinds = redact(text)
    assert SECRET not in redacted and sum(kinds.values()) == text.count(SECRET)


@pytest.mark.parametrize(
    "text",
    [
        # a store of settings given a setting, a heredoc sent to no store
        "consul kv put app/max_conns - <<EOF\n100\nEOF",
        f"consul kv put app/feature - <<EOF\nenabled\nEOF\necho {SECRET}",
        "vault write pki/roles/x - <<EOF\nttl: 72h\nallowed_domains: corp.io\nEOF",
        f"cat <<EOF > notes.txt\nvault write secret/x -\n{SECRET}\nEOF",
        f"vault write secret/x a=b\ncat <<EOF\n{SECRET}\nEOF",
        # a block scalar under another name, or a key's PEM (the private-key rule's)
        f"description: |\n  {SECRET}\n",
        "password: |\n  ${DB_PASSWORD}\n",
        # Redis's words, no password
        "requirepass foobared",
        "(error) NOAUTH Authentication required. AUTH failed",
        "OAUTH token refresh",
        f"AUTH {SECRET} in a text that names no such server",
        # a `.env` of settings, a file that is no `.env`, JavaScript's `process.env`
        '{"file_path": "/srv/app/.env", "content": "PORT=3000\\nNODE_ENV=production\\n"}',
        f'{{"file_path": "/srv/app/.envrc", "content": "A={SECRET}\\n"}}',
        f'{{"file_path": "/srv/app/config.js", "content": "process.env.X;\\nA={SECRET}\\n"}}',
        f"const a = process.env.X; // .env\nA={SECRET}",
    ],
)
def test_version_29s_look_alikes_are_kept(text):
    assert redact(text) == (text, {})


@pytest.mark.parametrize(
    ("command", "output", "kind"),
    [
        ('echo "token is $GITHUB_TOKEN"', "token is {}\n", "token"),
        ("printf 'pw=%s\\n' \"$DB_PASSWORD\"", "pw={}\n", "password"),
        ('echo "Using key: ${STRIPE_SECRET} for $APP_ENV"', "Using key: {} for prod\n", "secret"),
        ('echo "as app with $PGPASSWORD to db"; ls', "as app with {} to db\nx y\n", "password"),
        ('printf "%s:%s\\n" "$DB_USER" "$DB_PASSWORD"', "app:{}\n", "password"),
        ('echo -e "stripe\\t$STRIPE_SECRET_KEY"', "stripe\t{}\n", "secret"),
        # a variable a printer gave its value
        ('V=$(op read op://x/y/z); echo "value=$V done"', "value={} done\n", "secret"),
        # a secrets file decrypted
        ("sops -d secrets.enc.yaml", "stripe: {}\nregion: eu\n", "secret"),
        (
            "sops --decrypt --output-type json s.json",
            '{{\n  "stripe": "{}",\n  "n": "eu"\n}}',
            "secret",
        ),
        ("sops decrypt .env.enc", "MODE=prod\nUPSTREAM={}\n", "secret"),
        ("ansible-vault view group_vars/prod/vault.yml", "vault_stripe: {}\n", "secret"),
    ],
)
def test_version_29s_printed_secrets_are_redacted(command, output, kind):
    told = redact_module.printed_secret_kind(command)
    assert told is not None
    text = output.format(SECRET)
    redacted, kinds = redact_module.redact_printed(text, told)
    assert SECRET not in redacted and kinds == {kind: 1}
    assert redacted == text.replace(SECRET, f"[REDACTED:{kind}]")


@pytest.mark.parametrize(
    "command",
    [
        'echo "Token prefix: ${GITHUB_TOKEN:0:4}"',
        'echo "Token length: ${#GITHUB_TOKEN}"',
        'echo "Token set: ${API_TOKEN:+yes}"',
        'echo "DB_PASSWORD=$DB_PASSWORD" >> .env',
        'echo "token is $GITHUB_TOKEN" | sha256sum',
        'echo "user $USER home $HOME"',
        'git commit -m "echo token is $TOKEN"',
        "printf -v line 'pw=%s' \"$DB_PASSWORD\"",
        "sops -d secrets.enc.yaml > secrets.yaml",
        "sops --encrypt secrets.yaml",
    ],
)
def test_version_29s_printer_look_alikes_are_not_told(command):
    assert redact_module.printed_secret_kind(command) is None


def test_a_sentence_keeps_what_its_secret_does_not_print():
    told = redact_module.printed_secret_kind('echo "token is $GITHUB_TOKEN"; npm test')
    output = "token is \nnot a token is shown\n  PASS token is ok here\n"
    assert redact_module.redact_printed(output, told) == (output, {})


# REDACTION_VERSION 30: a third hunt's shapes.
@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # Vault's KV v2 secret as its API returns it, compact or indented, or escaped in JSON
        ('{{"data":{{"data":{{"upstream":"{}"}},"metadata":{{"version":3}}}}}}', "secret"),
        (
            '{{\n  "data": {{\n    "data": {{\n      "webhook": "{}",\n      "region": "eu"\n'
            '    }},\n    "metadata": {{"version": 1}}\n  }}\n}}',
            "secret",
        ),
        ('{{\\"data\\": {{\\"data\\": {{\\"k\\": \\"{}\\"}}, \\"metadata\\": {{}}}}}}', "secret"),
        # Terraform: a sensitive output (its value before or after the flag), a random password
        ('{{"db": {{"sensitive": true, "type": "string", "value": "{}"}}}}', "secret"),
        (
            '{{"out": {{"a": 1}}, "db": {{"value": "{}", "type": "string", "sensitive": true}}}}',
            "secret",
        ),
        (
            '{{"type": "random_password", "instances": [{{"attributes": {{"length": 24, '
            '"lower": true, "result": "{}"}}}}]}}',
            "secret",
        ),
        # GitHub Actions' mask
        ('2026-03-09T10:00:00Z ##[command]echo "::add-mask::{}"', "secret"),
        ("echo ::add-mask::{}", "secret"),
        # a variable exported a generated literal, whatever its name
        ("export SIGNING={}; echo ok", "secret"),
        ("+ export DEPLOY_HOOK='{}'\n", "secret"),
        # a cookie header in a map of headers
        ("headers={{'Cookie': 'sid={}; theme=dark'}}", "session-cookie"),
        ('{{"Set-Cookie": "connect.sid={}; Path=/; HttpOnly"}}', "session-cookie"),
        # curl's proxy credentials
        ("curl -x http://proxy:3128 --proxy-user ci:{} https://example.org", "password"),
        ("curl -U ci:{} -x proxy:3128 https://example.org", "password"),
    ],
)
def test_version_30s_shapes_are_redacted(text, kind):
    text = text.format(SECRET)
    redacted, kinds = redact_json(text) if text.startswith("{") else redact(text)
    assert SECRET not in redacted and kinds == {kind: 1}


@pytest.mark.parametrize(
    "text",
    [
        # a `data` object of another API, without Vault's metadata beside it
        '{"data": {"data": {"id": "Qz7hT3kLm9Wp2Xv8Rb4N"}}, "links": {}}',
        # an output not sensitive, a flag in another object, a random string's result
        '{"ip": {"sensitive": false, "value": "Qz7hT3kLm9Wp2Xv8Rb4N"}}',
        '{"value": "Qz7hT3kLm9Wp2Xv8Rb4N"}, {"sensitive": true}',
        '{"type": "random_id", "attributes": {"hex": "Qz7hT3kLm9Wp2Xv8Rb4N"}}',
        # a mask of a variable, an expression
        'echo "::add-mask::$DEPLOY_TOKEN"',
        "echo '::add-mask::${{ steps.token.outputs.value }}'",
        # an export of a commit, a path, a word, a UUID, a number
        "export GIT_SHA=8db03ece9f114d423f84f68a315471141c626d5c",
        "export GOPATH=/home/dev/go/workspace-2024",
        "export FEATURE=dark-mode-toggle-v2",
        "export RUN_ID=3f0a2b1c-1234-4abc-8def-0123456789ab",
        "export BUILD_NUMBER=20260309100000123",
        # a cookie of a preference
        "headers={'Cookie': 'theme=dark; lang=en'}",
        # a proxy without credentials
        "curl -x http://proxy:3128 -U ci https://example.org",
    ],
)
def test_version_30s_look_alikes_are_kept(text):
    assert (redact_json(text) if text.startswith("{") else redact(text)) == (text, {})


@pytest.mark.parametrize(
    ("command", "path"),
    [("cat ~/.config/rclone/rclone.conf", None), (None, "/home/dev/.config/rclone/rclone.conf")],
)
def test_an_rclone_conf_shown_whole_has_its_keys_redacted(command, path):
    told = redact_module.printed_secret_kind(command, path)
    assert told is not None
    text = f"[b2]\ntype = b2\naccount = 0012ab\nkey = {SECRET}\n\n[s3]\ntype = s3\nregion = eu\n"
    redacted, kinds = redact_module.redact_printed(text, told)
    assert redacted == text.replace(SECRET, "[REDACTED:secret]") and kinds == {"secret": 1}
    # its `key` only where it is shown: a key elsewhere is as often a name
    assert redact(f"key = {SECRET}") == (f"key = {SECRET}", {})


# REDACTION_VERSION 31: what version 30 left.
@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # a key named in a sentence by its provider, a token, a secret or a password by its kind
        ("Rotate the leaked Stripe key {} in the dashboard", "api-key"),
        ("The Mailgun key is {}.", "api-key"),
        ("- [ ] revoke the Twilio token {} (prod)", "token"),
        ("use the webhook secret {} to sign", "secret"),
        ("Login with the admin password {} then change it", "password"),
        (
            '{{"todos": [{{"content": "Rotate the leaked Stripe key {} now", "status": "x"}}]}}',
            "api-key",
        ),
        # on a line a backslash continues: a wrapped `echo`
        ('echo "Deploying with the \\\n  token {}" > /dev/null', "token"),
    ],
)
def test_a_secret_named_in_a_sentence_is_redacted(text, kind):
    text = text.format(SECRET)
    redacted, kinds = redact_json(text) if text.startswith("{") else redact(text)
    assert SECRET not in redacted and f"[REDACTED:{kind}]" in redacted and kinds == {kind: 1}


@pytest.mark.parametrize(
    "text",
    [
        # a key of data: an id, a hash, a name
        "cache key 3f9a2b7c8d1e4f5a6b7c",
        f"the cache key {SECRET}",
        "primary key id",
        "sort key createdAt",
        f"partition key {SECRET}",
        "the sort key user_id_created_at_2024",
        "GPG key 3AA5C34371567BD2 imported",
        # a key without a word before it, a name's end, a token that pages a list
        f"key {SECRET}",
        f"csrf_token {SECRET}",
        f"pass the next page token {SECRET} to list more",
        # a keyword that starts its line, a table's row (see version 22's look-alikes)
        f"password {SECRET}",
        # words, hex digits in groups, a short value
        "the token abcdefghijklmnopqrst",
        "the secret 3f0a2b1c-1234-4abc-8def",
        "the Stripe key sk_test_x",
    ],
)
def test_a_key_of_data_in_a_sentence_is_kept(text):
    assert redact(text) == (text, {})


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # a line continued inside quotes: the next line's spaces are printed
        ('echo "Deploying with \\\n  token: $API_TOKEN now"', "Deploying with   token: {} now\n"),
        ('echo "Deploying with \\\ntoken: $API_TOKEN"; ls', "Deploying with token: {}\nx\n"),
        # and between bare words, where they are not
        ("echo Deploying with \\\n    token: $API_TOKEN now", "Deploying with token: {} now\n"),
        ("printf 'pw=%s\\n' \\\n  \"$DB_PASSWORD\"", "pw={}\n"),
    ],
)
def test_a_wrapped_echo_of_a_secret_in_a_sentence_is_redacted(command, output):
    told = redact_module.printed_secret_kind(command)
    assert told is not None
    text = output.format(SECRET)
    redacted, kinds = redact_module.redact_printed(text, told)
    assert SECRET not in redacted and sum(kinds.values()) == 1


def test_a_wrapped_echo_redirected_is_not_told():
    assert redact_module.printed_secret_kind('echo "token: \\\n$API_TOKEN" \\\n  > .env') is None


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        (
            "db:\n  user: app\n  password: |\n    {}\n  host: db\n",
            "correct horse battery staple",
        ),
        ("vault:\n  passphrase: >-\n    {}\n", "purple monkey dishwasher 42"),
        ("- name: signing\n  secret: |\n    {}\n", "Tr0ub4dor and 3 more words"),
    ],
)
def test_a_block_scalars_passphrase_of_several_words_is_redacted(text, phrase):
    text = text.format(phrase)
    assert redact(text) == (text.replace(phrase, "[REDACTED:secret]"), {"secret": 1})


@pytest.mark.parametrize(
    "text",
    [
        "password: |\n  {{ .Values.db.password | b64enc }}\n",
        "password: >\n  Set this in the vault.\n",
        "token: |\n  ${{ secrets.GH_TOKEN }}\n",
        "run: |\n  echo hello world again\n",
        "description: |\n  the admin password of the db\n",
        "private_key: |\n  -----BEGIN OPENSSH PUBLIC KEY-----\n",
    ],
)
def test_a_block_scalars_words_that_are_no_passphrase_are_kept(text):
    assert redact(text) == (text, {})


# -- REDACTION_VERSION 32: what version 31 left (session 39's security round) ---------------

# A password as people choose and say them: a word and digits, a symbol (under 16 characters).
_CHOSEN = st.builds(
    lambda word, digits, symbol, capital: (
        (word.capitalize() if capital else word) + digits + symbol
    ),
    st.sampled_from(["hunter", "summer", "dragon", "monkey", "tango", "river", "falcon"]),
    st.text(alphabet="0123456789", min_size=1, max_size=4),
    st.sampled_from(["", "!", "@", "#", "&", "*", "?"]),
    st.booleans(),
)
# Or letters and digits at random.
_RANDOM_SHORT = st.text(
    alphabet="abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=6, max_size=15
).filter(
    lambda v: (
        redact_module._mixed(v)
        and not redact_module._TECHNICAL.fullmatch(v)
        # (nor a stand-in's word and digits, `pw2345`: see test_words_after_a_password_...)
        and re.sub("[^a-z]", "", v.lower()) not in redact_module._STAND_IN_WORDS
        and not redact_module._PLACEHOLDER.match(v)  # (`xxxx`: masked by design)
    )
)


@settings(max_examples=300, deadline=None)
@given(
    password=st.one_of(_CHOSEN, _RANDOM_SHORT).filter(lambda v: 6 <= len(v) <= 15),
    sentence=st.sampled_from(
        [
            "the staging password is {}",
            "The root password was set to {}. Change it after the first login.",
            "Log in as admin with the password {} and change it.",
            "SSH into web-2, the sudo password is {}, and restart nginx",
            "The GPG passphrase is {}.",
            "- [ ] rotate: the webhook secret is {}\n",
            "Guest network: corp-guest, its password: {} (rotated monthly).",
            "created user deploy (password {})",
            "reset the admin password to {} for now",
        ]
    ),
)
def test_a_short_password_named_in_a_sentence_is_never_kept(password, sentence):
    """A password under 16 characters after `password`, `passphrase` or `secret` in a
    sentence goes, as text and in a tool call's JSON (a TodoWrite's)."""
    text = sentence.format(password)
    redacted, kinds = redact(text)
    assert password not in redacted and sum(kinds.values()) == 1, redacted
    todo = json.dumps({"todos": [{"content": text, "status": "pending"}]})
    assert password not in redact_json(todo)[0]


@pytest.mark.parametrize(
    "text",
    [
        "The password is required",
        "the password is 8 characters long",
        "the password is stored in .env",
        "password is SHA256 hashed",
        "the password is argon2id-hashed",
        "the secret is base64url encoded",
        "tokens signed with the secret HS256 only",
        "if password is None:",
        "the password is 12chars at least",
        "the secret is in config.yml",
        "the password is v1.2.3",
        "The password is $DB_PASSWORD",
        "the password is <your-password>",
        "the password is user.pw1",
        # a test's stand-in: its word says so
        'text := "password is test12345"',
        "the password is example123",
        # a keyword that starts its line, and one space: a table's row, a column's type
        "password hunter2x!",
        "  password VARCHAR(255),",
        "secret VARCHAR(255),",
    ],
)
def test_words_after_a_password_in_a_sentence_are_kept(text):
    assert redact(text) == (text, {})


@settings(max_examples=200, deadline=None)
@given(
    token=st.text(alphabet="abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=16),
    keyword=st.sampled_from(["secret", "token", "key", "password"]),
    before=st.sampled_from(["Update the Stripe webhook", "Registered runner", "created it"]),
)
def test_a_generated_value_in_an_aside_after_its_kind_is_never_kept(token, keyword, before):
    """`the Stripe webhook (secret V)`: a keyword that opens a parenthesis names its value, as
    one after a word does."""
    assume(redact_module._generated(token) and not redact_module._HEX.fullmatch(token))
    text = f"{before} ({keyword} {token}) in the dashboard"
    redacted, kinds = redact(text)
    assert token not in redacted and sum(kinds.values()) == 1, redacted


def test_a_keyword_in_parentheses_without_a_sentence_is_kept():
    # (a list's item or a call's argument, no sentence before it)
    for text in (f"(key {SECRET})", f"f(token {SECRET})", f"(cache key {SECRET})"):
        assert redact(text) == (text, {})


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(["API_TOKEN", "DB_PASSWORD", "STRIPE_SECRET_KEY", "OPENAI_KEY"]),
    line_end=st.sampled_from(["\n", "\r\n"]),
    indent=st.sampled_from(["", "  ", "    ", "\t"]),
    lead=st.sampled_from(["export ", "", "docker run -e ", "env "]),
    after=st.sampled_from(["", " ./deploy.sh", "\n./deploy.sh", " && make release"]),
)
def test_a_value_after_a_line_continuation_is_never_kept(name, line_end, indent, lead, after):
    """`API_TOKEN=\\` then the value on the next line, as a wrapped command writes it: the
    backslash and the line break are nothing to the shell, and no end of the assignment."""
    command = f"{lead}{name}=\\{line_end}{indent}{SECRET}{after}"
    for redacted, _ in (redact(command), redact_json(json.dumps({"command": command}))):
        assert SECRET not in redacted, redacted


def test_a_header_after_a_line_continuation_is_redacted():
    command = f'curl -H "X-Api-Key: \\\n{SECRET}" https://api.corp.io/v1/me'
    assert redact(command) == (command.replace(SECRET, "[REDACTED:api-key]"), {"api-key": 1})
    # a continuation before what is no value stays as it was
    for text in ("PASSWORD=\\\n  $DB_PASSWORD ./run", "token=\\\n  required", "key: \\\n  abc"):
        assert redact(text) == (text, {})


# Words as a passphrase's (no word of _STAND_IN_WORDS).
_PASS_WORDS = ["purple", "monkey", "dishwasher", "correct", "horse", "battery", "staple"]
_PASS_WORDS += ["sunshine", "rainbow", "unicorn", "tangerine", "falcon", "copper", "lantern"]


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(st.sampled_from(_PASS_WORDS), min_size=3, max_size=5),
    sep=st.sampled_from(["-", "_", "."]),
    name=st.sampled_from(["DB_PASSWORD", "SESSION_SECRET", "API_TOKEN", "STRIPE_KEY"]),
    how=st.sampled_from(["write", "edit", "read", "cat", "patch"]),
)
def test_a_dot_env_secret_of_words_is_never_kept(words, sep, name, how):
    """A `.env` written, read or shown whose secret, under a name that says one, is words
    joined (`DB_PASSWORD=purple-monkey-dishwasher`): a passphrase, in a file of secrets."""
    value = sep.join(words)
    content = f"PORT=3000\nAPP_NAME=my-cool-app\n{name}={value}\nLOG_LEVEL=debug\n"
    if how in ("write", "edit"):
        body = {"file_path": "/srv/app/.env"}
        body |= {"content": content} if how == "write" else {"new_string": content}
        redacted = redact_json(json.dumps(body))[0]
    elif how == "patch":
        patch = "*** Begin Patch\n*** Add File: .env.production\n"
        patch += "".join(f"+{line}\n" for line in content.splitlines()) + "*** End Patch\n"
        redacted = redact_json(json.dumps({"command": ["apply_patch", patch]}))[0]
    else:
        told = redact_module.printed_secret_kind(
            "cat .env" if how == "cat" else None, "/srv/app/.env" if how == "read" else None
        )
        redacted = redact_module.redact_printed(content, told)[0]
    assert value not in redacted and "my-cool-app" in redacted and "debug" in redacted


@pytest.mark.parametrize(
    "line",
    [
        "DEV_SECRET=dev-only-secret-not-for-production",
        "JWT_SECRET=change-me-in-production",
        "API_TOKEN=your-api-token-here",
        "CACHE_KEY=user-profile-page",
        "GOOGLE_APPLICATION_CREDENTIALS=service-account-prod.json",
        "SIGNING_KEY=keys-prod-signing.pem",
        "APP_NAME=purple-monkey-dishwasher",
        "DB_PASSWORD_FILE=run-secrets-db",
    ],
)
def test_a_dot_env_line_of_words_that_is_no_secret_is_kept(line):
    told = redact_module.printed_secret_kind("cat .env")
    assert redact_module.redact_printed(line + "\n", told) == (line + "\n", {})


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(
        st.from_regex(r"[a-z][a-z_]{2,12}", fullmatch=True), min_size=1, max_size=3, unique=True
    ),
    nested=st.booleans(),
    state=st.booleans(),
    indent=st.sampled_from([None, 2, 4]),
)
def test_a_sensitive_outputs_object_value_is_never_kept(names, nested, state, indent):
    """`terraform output -json` (its keys sorted: `sensitive`, `type`, `value`) and a state's
    outputs (`value`, `type`, `sensitive`): an output declared sensitive whose value is an
    object holds its secrets under any names, at any depth; a non-sensitive one's stay."""
    value = {n: f"{SECRET[:10]}{i}{SECRET[10:]}" for i, n in enumerate(names)}
    kinds = {n: "string" for n in names}
    if nested:
        value, kinds = {"primary": value}, {"primary": ["object", kinds]}
    output = {"sensitive": True, "type": ["object", kinds], "value": value}
    if state:
        output = {"value": value, "type": ["object", kinds], "sensitive": True}
    plain = {
        "sensitive": False,
        "type": ["object", {"host": "string"}],
        "value": {"host": "Zq8vN2kL5mR7tX1"},
    }
    text = json.dumps({"creds": output, "endpoint": plain}, indent=indent)
    redacted = redact(text)[0]
    assert SECRET[10:] not in redacted and "Zq8vN2kL5mR7tX1" in redacted, redacted


class _Counted:
    """A pattern whose finditer counts the matches it gives (see the test below)."""

    def __init__(self, pattern):
        self.pattern, self.count = pattern, 0

    def finditer(self, *args):
        for m in self.pattern.finditer(*args):
            self.count += 1
            yield m

    def fullmatch(self, *args):
        return self.pattern.fullmatch(*args)


@pytest.mark.parametrize(
    "unit", ["echo $A $B $C $D $E $F \\\n", 'echo "$A \\\n', "echo a \\\n  $TOKEN "]
)
def test_a_wrapped_echos_words_are_read_once(monkeypatch, unit):
    """A command of `echo`s on lines a backslash continues is one command, its words those of
    the first `echo`: each is read once (each `echo` read to its 400-character bound took
    2.0 s for 180 KB)."""
    command = unit * 500
    tokens = _Counted(re.compile(redact_module._SHELL_TOKEN.pattern))
    monkeypatch.setattr(redact_module, "_SHELL_TOKEN", tokens)
    redact_module._printed_sentence(command)
    assert tokens.count <= 2 * len(tokens.pattern.findall(command))


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(
        st.sampled_from(
            ["echo $A", "; ", " && ", " | ", "\n", "\\\n", "sudo -u x ", "X=a(b ", "{ ", "(", "`"]
            + ["kubectl exec p -- ", "docker exec app ", "env ", "x ", "$(", "'", '"', "  "]
        ),
        max_size=30,
    )
)
def test_a_command_start_is_looked_for_from_the_last_separator(parts):
    """_at_command_start reads back only to the last `;`, `&`, `|` or line break, where the
    lead it looks for starts, and answers as _PRINTER_LEAD read _LEAD_MAX characters back."""
    command = "".join(parts)
    for at in range(len(command) + 1):
        lead = redact_module._PRINTER_LEAD.search(command, max(0, at - 400), at) is not None
        assert redact_module._at_command_start(command, at) == lead


# -- REDACTION_VERSION 34: what version 33 left (session 40's security round) ---------------

# A word people choose as a password, as a letter-only one is written: no adjective's,
# participle's or adverb's ending, no word a sentence says of a password (see _chosen_word).
# This module's own text: hypothesis tries the words its source holds, and a password that
# is a piece of its test's template (`sqlplu` of `sqlplus`) stays in the text around it.
_SOURCE = Path(__file__).read_text().lower()
_CHOSEN_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=6, max_size=15).filter(
    lambda w: (
        w not in _SOURCE
        and not w.endswith(redact_module._WORD_ENDINGS)
        and w not in redact_module._SAID_OF_A_PASSWORD
        and w not in redact_module._STAND_IN_WORDS
        # (a placeholder's mark, `aaxxxx`, is a value masked by design)
        and not redact_module._PLACEHOLDER.match(w)
    )
)


@settings(max_examples=300, deadline=None)
@given(
    word=_CHOSEN_WORD,
    capital=st.booleans(),
    sentence=st.sampled_from(
        [
            "the db password is {}",
            "The staging password is {} until Friday.",
            "The root password was set to {}. Change it after the first login.",
            "Connect to the guest wifi, the password is {}, then reboot it",
            "the vpn passphrase is now {}",
            "password: {}",
            "database:\n  host: db\n  password: {}\n  port: 5432\n",
            "Guest network: corp-guest, its password: {} (rotated monthly).",
            # a password's name first on its line (YAML's, a `.properties`')
            "db:\n  db_password: {}\n",
            "- ansible_become_password: {}",
            "spring.datasource.password={}\n",
        ]
    ),
)
def test_a_password_of_letters_alone_is_never_kept(word, capital, sentence):
    """A password of letters alone after a linking verb or a key's colon (version 33 read one
    of letters and digits only), as text and in a tool call's JSON."""
    password = word.capitalize() if capital else word
    text = sentence.format(password)
    redacted, kinds = redact(text)
    assert password not in redacted and kinds == {"password": 1}, redacted
    todo = json.dumps({"todos": [{"content": text, "status": "pending"}]})
    assert password not in redact_json(todo)[0]


@pytest.mark.parametrize(
    "text",
    [
        # what a sentence says of a password
        "The password is required",
        "the password is incorrect.",
        "the password is hashed with bcrypt",
        "the password is stored in the keychain",
        "the password is visible in the logs",
        "if the password is missing, ask",
        "the password is optional",
        "the password is probably wrong",
        "the password is whatever you set",
        "the password is different for staging",
        # an infinitive, a word that goes on, a type, a name
        "the password to access the admin panel",
        "password: string;",
        "  password: string",
        "password: str = Field(...)",
        "  password: hashedPassword\n",
        "  password: userPwd,\n",
        "const user = { email, password: hashed };",
        "Password: Optional[str] = None",
        "the password is sunshine-ish words",
        "See the password: section below",
        # a name in code, a type, a word said of it
        "db_password = sunshine",
        "x = dict(db_password=sunshine)",
        "db_password: string",
        "  db_password: hashed\n",
        "dbPassword: SecretStr",
        "db_password: changeme",
        "new_password: newPassword",
    ],
)
def test_words_said_of_a_password_are_kept(text):
    assert redact(text) == (text, {})


@settings(max_examples=200, deadline=None)
@given(
    head=st.text(alphabet="abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ", min_size=2),
    tail=st.text(alphabet="abcdefghjkmnpqrstuvwxyz23456789!", min_size=3, max_size=6),
    sentence=st.sampled_from(
        [
            "the staging password is {} until Friday",
            "PGPASSWORD='{}' psql -h db -U app",
            'PGPASSWORD="{}" psql -h db -U app',
            "PGPASSWORD={} psql -h db -U app",
            "./connect.sh password={}",
            "mysql -u root -p'{}' app",
        ]
    ),
)
def test_a_password_holding_a_dollar_is_never_kept(head, tail, sentence):
    """`pa$$w0rd!x`: a `$` inside a password (not first, where it starts a variable) is part
    of it, in a sentence too (version 33's short password stopped at it)."""
    password = (head[:6] + "$" + tail)[:15]
    assume(redact_module._mixed(password) and len(password) >= 6)
    # (nor a stand-in's word, `NULL$222`: see test_words_after_a_password_...)
    assume(re.sub("[^a-z]", "", password.lower()) not in redact_module._STANDS_IN)
    text = sentence.format(password)
    redacted, _ = redact(text)
    assert password not in redacted and "$" not in redacted.replace("[REDACTED:", ""), redacted


@settings(max_examples=100, deadline=None)
@given(
    word=st.sampled_from(["password", "Password", "secret", "Secret", "passwd", "passphrase"]),
    digits=st.text(alphabet="0123456789", min_size=2, max_size=5),
    symbol=st.sampled_from(["", "!"]),
)
def test_a_passwords_word_and_digits_is_never_kept(word, digits, symbol):
    """`password123`: the weak password people choose, no stand-in (a stand-in's word says it
    is one: `test123`, `example1`); the assignment rules take it already."""
    password = (word + digits + symbol)[:15]
    for text in (f"the admin password is {password}", f"The vpn passphrase is {password}."):
        assert password not in redact(text)[0]
    assert password not in redact(f'"password": "{password}"')[0]


def _cat_env(content: str) -> str:
    return redact_module.redact_printed(content, redact_module.printed_secret_kind("cat .env"))[0]


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(st.sampled_from(_PASS_WORDS), min_size=3, max_size=5),
    sep=st.sampled_from(["-", "_", "."]),
    name=st.from_regex(r"[A-Z][A-Z0-9]{1,10}(?:_[A-Z][A-Z0-9]{1,10})?", fullmatch=True),
    how=st.sampled_from(["write", "cat"]),
)
def test_a_dot_env_value_of_words_under_a_name_that_says_nothing_is_never_kept(
    words, sep, name, how
):
    """`FOO=correct-horse-battery` in a `.env` seen or written whole: under a name that says
    nothing of what it holds, words joined are a passphrase (version 33 read them only under a
    secret's name)."""
    last = name.rpartition("_")[2].lower()
    assume(last not in redact_module._SETTING_NAMES and redact_module._name_of_kind(name) is None)
    value = sep.join(words)
    content = f"PORT=3000\nAPP_NAME=my-cool-app\n{name}={value}\nLOG_LEVEL=debug\n"
    if how == "write":
        body = json.dumps({"file_path": "/srv/app/.env", "content": content})
        redacted = redact_json(body)[0]
    else:
        redacted = _cat_env(content)
    assert value not in redacted and "my-cool-app" in redacted, redacted


@pytest.mark.parametrize(
    "line",
    [
        "APP_NAME=purple-monkey-dishwasher",
        "S3_BUCKET=acme-prod-uploads",
        "QUEUE=jobs-high-priority",
        "NEXT_PUBLIC_GREETING=hello-big-world",
        "LOG_FORMAT=json-pretty-print",
        "REGION=eu-west-1",
        "FOO=dev-only-value",
        "UPSTREAM=a-b-c",
    ],
)
def test_a_dot_env_setting_of_words_is_kept(line):
    assert _cat_env(line + "\n") == line + "\n"


def test_words_of_a_name_that_says_nothing_are_kept_out_of_a_dot_env():
    # (the same line in code or a shell's command is no file of secrets)
    for text in ("FOO=correct-horse-battery", "export UPSTREAM=purple_monkey_dishwasher"):
        assert redact(text) == (text, {})


_WP_KEY = "Zq(8L|mP2x!W k9Rt<V4nBc7Hs3}Jd6Fg1Ya5T@Zq8L+mP2x~Wk9RtV4nBc7Hs3Jd6"


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "define( 'DB_PASSWORD', 'sunshineqx' );",
            ("define( 'DB_PASSWORD', '[REDACTED:password]' );", {"password": 1}),
        ),
        (
            f"define( 'AUTH_KEY',         '{_WP_KEY}' );",
            ("define( 'AUTH_KEY',         '[REDACTED:api-key]' );", {"api-key": 1}),
        ),
        (
            f"define('NONCE_SALT', '{_WP_KEY[::-1]}');",
            ("define('NONCE_SALT', '[REDACTED:secret]');", {"secret": 1}),
        ),
        # wp-config-sample.php's placeholders, and the settings that are no secret
        ("define( 'NONCE_SALT', 'put your unique phrase here' );", None),
        ("define( 'DB_PASSWORD', 'password_here' );", None),
        ("define( 'DB_USER', 'wordpress' );", None),
        ("define( 'WP_DEBUG', false );", None),
    ],
)
def test_a_php_constants_secret_is_redacted(text, expected):
    """WordPress's wp-config.php: `define( 'NAME', 'value' )`, its database's password and
    its keys and salts (version 33 kept them all)."""
    assert redact(text) == (expected or (text, {}))
    if expected:
        assert json.loads(redact_json(json.dumps({"c": text}))[0])["c"] == expected[0]


@pytest.mark.parametrize(
    "command, path, output, expected",
    [
        (
            "cat ~/.pypirc",
            None,
            "[corp]\nrepository = https://pypi.corp.io\nusername = deploy\npassword = sunshineqx\n",
            "[corp]\nrepository = https://pypi.corp.io\nusername = deploy\n"
            "password = [REDACTED:password]\n",
        ),
        (
            None,
            "/home/dev/.my.cnf",
            "     1→[client]\n     2→user=root\n     3→password=sunshineqx\n",
            "     1→[client]\n     2→user=root\n     3→password=[REDACTED:password]\n",
        ),
        (
            "cat /etc/mysql/my.cnf",
            None,
            '[client]\nuser = "root"\npassword = *****\n',
            '[client]\nuser = "root"\npassword = *****\n',
        ),
        (
            "aws ecr get-login-password --region eu-west-1",
            None,
            "eyJwYXlsb2FkIjoiWnE4TG1QMnhXazlSdFY0bkJjN0hzM0pkNkZnMVlhNVQiLCJkYXRha2V5IjoiQVFF\n",
            "[REDACTED:token]\n",
        ),
        ("op signin --raw", None, f"{SECRET}{SECRET}\n", "[REDACTED:token]\n"),
    ],
)
def test_version_34s_printed_secrets_are_redacted(command, path, output, expected):
    """An option file's password of any shape (`.pypirc`, `.my.cnf`), ECR's login password
    and 1Password's session token, printed alone."""
    told = redact_module.printed_secret_kind(command, path)
    assert told is not None
    assert redact_module.redact_printed(output, told)[0] == expected


@settings(max_examples=100, deadline=None)
@given(
    body=st.text(
        alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        min_size=60,
        max_size=200,
    ),
    head=st.text(
        alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        min_size=14,
        max_size=14,
    ),
)
def test_fly_and_terraform_cloud_tokens_are_never_kept(body, head):
    """`fly auth token`'s `FlyV1 fm2_...` and Terraform Cloud's `<14>.atlasv1.<rest>` (which
    the keyword rules took for a dotted name)."""
    assume(redact_module._mixed(body) and redact_module._mixed(head))
    fly = f"FlyV1 fm2_{body},fm2_{body[:40]}"
    assert redact(fly + "\n") == ("[REDACTED:fly-token]\n", {"fly-token": 1})
    rest = body.replace("+", "-").replace("/", "_")
    tfc = f'credentials "app.terraform.io" {{\n  token = "{head}.atlasv1.{rest}"\n}}'
    assert f"{head}.atlasv1" not in redact(tfc)[0]


def test_a_type_or_a_stand_in_after_a_passwords_colon_is_kept():
    # (pydantic's `password: SecretStr`, distutils' .pypirc example `password: sekrit`: the
    # standard library's and site-packages' docs, where version 34 first read them as passwords)
    for text in ("class User(BaseModel):\n    password: SecretStr\n", "    password: sekrit\n"):
        assert redact(text) == (text, {})
    assert redact("the webhook secret is ybjFwjePac") == (
        "the webhook secret is [REDACTED:secret]",
        {"secret": 1},
    )


def test_each_program_of_the_password_options_has_one_row():
    # (_PROGRAM_OPTION is keyed by the program: a second row of one would replace the first,
    # as a second `openssl` row did to `openssl enc -k`)
    programs = [p for names, _ in redact_module._PASSWORD_OPTIONS for p in names]
    assert len(programs) == len(set(programs))


@settings(max_examples=100, deadline=None)
@given(password=st.one_of(_CHOSEN, _RANDOM_SHORT).filter(lambda v: len(v) >= 6))
def test_version_34s_command_line_passwords_are_never_kept(password):
    """`net user bob PW /add` (Windows), `openssl passwd -6 PW` (a password hashed for
    /etc/shadow), and `--password=word` of letters alone, which an `=` gives."""
    for command in (
        f"net user deploy {password} /add",
        f"useradd -p $(openssl passwd -6 {password}) deploy",
        f"openssl passwd -apr1 {password}",
    ):
        assert password not in redact(command)[0], command
    assert redact("mysql -u root --password=sunshineqx app")[0] == (
        "mysql -u root --password=[REDACTED:password] app"
    )
    for kept in ("psql --password mydb", "mysql --password=changeme", "net user deploy /delete"):
        assert redact(kept) == (kept, {})
    assert redact(f"openssl enc -k {password} -in x")[0] != f"openssl enc -k {password} -in x"


@settings(max_examples=150, deadline=None)
@given(
    password=st.one_of(_CHOSEN, _RANDOM_SHORT, _CHOSEN_WORD),
    salt=st.text(
        alphabet=string.ascii_letters + string.digits + "!@#$%^&*()-_ []{}<>~`+=,.;:/?|",
        min_size=64,
        max_size=64,
    ),
    spaces=st.sampled_from(["", " ", "         "]),
)
def test_a_wp_configs_secrets_are_never_kept(password, salt, spaces):
    """wp-config.php's `define( 'DB_PASSWORD', ... )` (any password of one) and its keys and
    salts (64 characters of WordPress's generator), however aligned."""
    assume(redact_module._entropy(salt) >= 4.0)
    assume(not any(redact_module._TEMPLATE.search(s) for s in (salt, salt[::-1])))
    text = (
        f"define( 'DB_PASSWORD',{spaces} '{password}' );\n"
        f"define( 'SECURE_AUTH_KEY',{spaces} '{salt}' );\n"
        f"define( 'LOGGED_IN_SALT',{spaces} '{salt[::-1]}' );\n"
    )
    redacted = redact(text)[0]
    assert password not in redacted and salt not in redacted and salt[::-1] not in redacted


@settings(max_examples=150, deadline=None)
@given(
    password=st.one_of(_CHOSEN, _RANDOM_SHORT, _CHOSEN_WORD),
    path=st.sampled_from(["~/.pypirc", "/home/dev/.my.cnf", "/etc/mysql/my.cnf", ".pypirc.bak"]),
    how=st.sampled_from(["cat", "read"]),
    spaces=st.sampled_from(["", " "]),
)
def test_an_option_files_password_is_never_kept(password, path, how, spaces):
    """A `.pypirc` or a MySQL option file shown whole: its `password` of any shape."""
    told = redact_module.printed_secret_kind(
        f"cat {path}" if how == "cat" else None, path if how == "read" else None
    )
    content = f"[client]\nuser{spaces}={spaces}root\npassword{spaces}={spaces}{password}\n"
    assert password not in redact_module.redact_printed(content, told)[0]


@settings(max_examples=150, deadline=None)
@given(
    word=_CHOSEN_WORD,
    capital=st.booleans(),
    user=st.sampled_from(["admin", "root", "the deploy user", "bob@corp.io", "the sa account"]),
    verb=st.sampled_from(["is", "was", "was set to", "is now"]),
    end=st.sampled_from(["", ".", " until Friday.", ", then log in"]),
)
def test_a_password_named_with_its_user_is_never_kept(word, capital, user, verb, end):
    """`the password for admin is sunshine` (version 34 read only `the password is X`)."""
    password = word.capitalize() if capital else word
    text = f"Tell Dana the password for {user} {verb} {password}{end}"
    assert password not in redact(text)[0], text


@pytest.mark.parametrize(
    "text",
    [
        "[sudo] password for bob: \nSorry, try again.",
        "[sudo] password for ubuntu: something",
        "the password for admin is required",
        "Reset the password for admin to default",
    ],
)
def test_a_password_for_a_user_that_is_no_password_is_kept(text):
    assert redact(text) == (text, {})


@settings(max_examples=150, deadline=None)
@given(
    word=_CHOSEN_WORD,
    key=st.sampled_from(["pass", "password", "db_password", "smtp_pass"]),
    indent=st.sampled_from(["", "  ", "    "]),
    comment=st.sampled_from(["", " # prod", "   # staging only", "\t# rotated 2024-05"]),
)
def test_a_yaml_password_with_a_comment_or_under_pass_is_never_kept(word, key, indent, comment):
    """A key's password of letters alone first on its line, with a comment after it
    (`db_password: sunshine # prod`), or under `pass:` (`smtp:` then `pass: sunshine`)."""
    text = f"smtp:\n{indent}user: mailer\n{indent}{key}: {word}{comment}\nport: 25\n"
    assert word not in redact(text)[0], text


@pytest.mark.parametrize(
    "text",
    [
        "bypass: something\n",
        "PASS: tests/test_x.py\n",
        "  pass: required # see docs\n",
        "db_password: string # the type\n",
        "password: sunshine-words # x\n",
    ],
)
def test_a_pass_key_or_a_comment_after_a_word_said_of_it_is_kept(text):
    assert redact(text) == (text, {})


@settings(max_examples=150, deadline=None)
@given(
    password=st.one_of(_CHOSEN_WORD, _RANDOM_SHORT),
    order=st.permutations(["host=db", "user=app", "dbname=shop", "port=5432"]),
    at=st.integers(min_value=0, max_value=4),
    wrap=st.sampled_from(['psycopg2.connect("{}")', "psql '{}' -c 'select 1'", "{}"]),
)
def test_a_libpq_connection_strings_password_is_never_kept(password, order, at, wrap):
    """libpq's `host=db user=app password=sunshine dbname=x`, the password anywhere among its
    other keywords."""
    parts = list(order)
    parts.insert(at, f"password={password}")
    text = wrap.format(" ".join(parts))
    assert f"password={password}" not in redact(text)[0], text


@pytest.mark.parametrize(
    "text",
    [
        'psycopg2.connect("host=db user=app password=required")',
        "f(user=app, password=hunter)",
        "connect(password=sunshine, host=db)",
    ],
)
def test_a_word_in_a_libpq_string_or_alone_in_code_is_kept(text):
    assert redact(text) == (text, {})


@settings(max_examples=150, deadline=None)
@given(
    password=st.one_of(_CHOSEN_WORD, _RANDOM_SHORT),
    user=st.sampled_from(["scott", "system", "app_user", "SYS"]),
    where=st.sampled_from(["", "@orcl", "@//db.corp.io:1521/XEPDB1", "@XEPDB1 as sysdba"]),
    how=st.sampled_from(["sqlplus {}", "sqlplus -S {}", "SQL> conn {}", "SQL> connect {}"]),
)
def test_an_oracle_logons_password_is_never_kept(password, user, where, how):
    """`sqlplus USER/PW@DB` (or without `@DB`), and `conn USER/PW@TNS` at its prompt: the
    password up to the `@`, the connect identifier kept."""
    text = how.format(f"{user}/{password}{where}") + "\nConnected."
    redacted = redact(text)[0]
    # (the password may be a piece of the text around it: `sqlplu` of `sqlplus`)
    assert f"/{password}" not in redacted, text
    assert f"{user}/[REDACTED:password]{where}" in redacted


def test_an_oracle_logon_without_a_password_is_kept():
    for text in (
        "sqlplus / as sysdba",
        "sqlplus -S /nolog @scripts/run.sql",
        "sqlplus @x/y.sql",
        "Use sqlplus for input/output checks, or sqlcl",
    ):
        assert redact(text) == (text, {})


@settings(max_examples=150, deadline=None)
@given(
    password=st.one_of(_CHOSEN_WORD, _RANDOM_SHORT),
    salt=st.text(alphabet=string.ascii_letters + string.digits + "./", min_size=1, max_size=16),
    algorithm=st.sampled_from(["", "-1 ", "-5 ", "-6 ", "-apr1 "]),
    first=st.booleans(),
)
def test_openssl_passwds_password_after_a_salt_is_never_kept(password, salt, algorithm, first):
    """`openssl passwd -salt S PW`, `openssl passwd -1 -salt S PW`, the options in any order."""
    options = f"-salt {salt} {algorithm}" if first else f"{algorithm}-salt {salt} "
    text = f"openssl passwd {options}{password}"
    assert not redact(text)[0].endswith(password), text


@settings(max_examples=150, deadline=None)
@given(
    password=st.one_of(
        _CHOSEN.filter(lambda v: not v.isalnum() or not v.islower()),
        _RANDOM_SHORT.filter(lambda v: not v.islower() and not v.isupper()),
    ),
    how=st.sampled_from(
        [
            "export DB_PASSWORD='{}' && ./run.sh",
            "PGPASSWORD='{}' psql -h db",
            "mysql -u root -p'{}' -e 'select 1'",
            "sshpass -p '{}' ssh bob@db",
        ]
    ),
)
def test_a_dollar_that_starts_a_single_quoted_password_is_never_kept(password, how):
    """`'$ecretPa55'`: a `$` inside single quotes is no variable in a shell."""
    value = "$" + password
    assume(value[1:2] not in "{(")
    text = how.format(value)
    assert value not in redact(text)[0], text


@pytest.mark.parametrize(
    "text",
    [
        "DB_PASSWORD='$DB_PASSWORD'",
        "password: '${DB_PASS}'",
        "PGPASSWORD='$pgpass' psql",
        "mysql -u root -p'$MYSQL_ROOT_PASSWORD'",
        'PGPASSWORD="$ecretPa55" psql',
    ],
)
def test_a_variable_in_single_quotes_or_any_in_double_quotes_is_kept(text):
    assert redact(text) == (text, {})


def _jwt_part(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@settings(max_examples=150, deadline=None)
@given(
    signature=st.binary(min_size=12, max_size=40),
    label=st.sampled_from(["S3 Access Key: 625729a0", "S3 Region: local", "X1 Url: http://x"]),
    indent=st.sampled_from(["", "   "]),
)
def test_a_wrapped_jwts_rest_stops_at_a_labelled_line(signature, label, indent):
    """`supabase status`: a JWT on its line, then `S3 Access Key: ...`; version 34 read `S3`
    as the rest of a short signature and hid the label."""
    jwt = ".".join(
        _jwt_part(x) for x in (b'{"alg":"HS256","typ":"JWT"}', b'{"role":"anon"}', signature)
    )
    assume(not jwt.endswith(("-", "_")))
    text = f"service_role key: {jwt}\n{indent}{label}\n"
    redacted = redact(text)[0]
    assert jwt not in redacted and f"\n{indent}{label.split(':')[0]}:" in redacted, redacted


# REDACTION_VERSION 36: a passphrase, a login's `user / password`, a URL's password with
# nothing after its `@`.
_PASSPHRASE_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=12).filter(
    lambda w: (
        w not in redact_module._PROSE_WORDS
        and w not in redact_module._STAND_IN_WORDS
        and not w.endswith(redact_module._VERB_ENDINGS)
        # (the last word's test: a word said of a password ends no passphrase)
        and not w.endswith(redact_module._WORD_ENDINGS)
        and w not in redact_module._SAID_OF_A_PASSWORD
        and not redact_module._PLACEHOLDER.match(w)  # (`xxxx`: masked by design)
    )
)
_PASSPHRASE_WORDS = st.lists(_PASSPHRASE_WORD, min_size=3, max_size=6)


@settings(max_examples=150, deadline=None)
@given(
    words=_PASSPHRASE_WORDS,
    capital=st.booleans(),
    where=st.sampled_from(
        [
            "The db password is {} and my login is jdoe.",
            "the root password was set to {}.",
            "Note: the vault password is now {}, rotate it",
            "database:\n  password: {}\n",
            "spring.datasource.password={}\n",
            "./admin --password={} --yes",
        ]
    ),
)
def test_a_passphrase_of_letters_alone_is_never_kept(words, capital, where):
    """Words run together (`correcthorsebattery`, 16 letters or more), where a password of
    letters alone is read: version 35 took 6 to 15 letters only."""
    password = "".join(words)
    assume(16 <= len(password) <= 64)
    password = password.capitalize() if capital else password
    text = where.format(password)
    assert password not in redact(text)[0], text


@settings(max_examples=150, deadline=None)
@given(
    words=_PASSPHRASE_WORDS,
    how=st.sampled_from(
        [
            "my password is {}.",
            "The password was set to {}, ok?",
            "ansible_become_password: {}\n",
            'The admin password is "{}" (without quotes).',
            "The GPG passphrase is {}.",
            "the passphrase is {}\nthen run it",
            "The passphrase is {}",
        ]
    ),
)
def test_a_passphrase_of_words_is_never_kept(words, how):
    """Words joined by `-` where a password of letters alone is read, and words apart in
    quotes after a linking verb or after `passphrase is` up to the clause's end."""
    sep = " " if '"' in how or "passphrase" in how else "-"
    password = sep.join(words)
    assume(len(password) <= 64)
    # (a first word that makes a placeholder of what follows, `true-...`, `test-...`, is
    # kept by design: `your-api-key`; hypothesis found `true-aaa-aaa`)
    assume(not redact_module._PLACEHOLDER.match(password))
    text = how.format(password)
    assert password not in redact(text)[0], text


@pytest.mark.parametrize(
    "text",
    [
        "the password is required and must be case-sensitive",
        "the password is internationalization",
        "the password is indistinguishable from noise",
        "The password is case-sensitive.",
        "the password is auto-generated-per-user.",
        "the password is one-time-use.",
        "the password is dev-only-secret-not-for-production.",
        "the passphrase is used to encrypt the key.",
        "the passphrase is never stored anywhere.",
        "the password is stored in the keychain and rotated weekly.",
        "The passphrase is hashed with argon two.",
        "The password is correct horse battery staple, said the comic.",
        "password: PasswordConfirmationField\n",
        'the password is "required"',
        "the password is incorrect.",
    ],
)
def test_words_said_of_a_password_or_a_phrase_are_kept(text):
    assert redact(text) == (text, {})


@settings(max_examples=150, deadline=None)
@given(
    password=_RANDOM_SHORT,
    symbol=st.sampled_from(["", "!", "#", "@"]),
    user=st.sampled_from(["jdoe", "admin", "deploy", "ops.bot", "bob@corp.io"]),
    how=st.sampled_from(
        [
            "my admin login is {} / {} if you need it.",
            "The ftp login is {}/{}",
            "credentials are {} / {}.",
            "Creds: {}/{}\n",
        ]
    ),
)
def test_a_logins_user_slash_password_is_never_kept(password, symbol, user, how):
    """`my admin login is jdoe / Winter2026!`: a user's name, a `/`, and a password of
    letters and digits."""
    password += symbol
    text = how.format(user, password)
    assert password not in redact(text)[0], text


@pytest.mark.parametrize(
    "text",
    [
        "the login is GET/POST",
        "credentials are root/toor",
        "the login is /api/v2/login",
        "login is admin/password",
        "the login is app/v1.2.3.",
        "login: user/changeme123",
        "see login.html/page for the form",
    ],
)
def test_a_login_without_a_password_after_its_slash_is_kept(text):
    assert redact(text) == (text, {})


@settings(max_examples=150, deadline=None)
@given(
    password=_RANDOM_SHORT,
    scheme=st.sampled_from(["postgres", "mysql", "redis", "https", "amqp"]),
    after=st.sampled_from(["", "\n", "\nhost=db", '"', "'", '", "x": 1', "`"]),
)
def test_a_urls_password_with_nothing_after_its_at_is_never_kept(password, scheme, after):
    """An Edit's fragment, `old_string: postgres://app:PW@`: the `@` ends the text, its line
    or a quoted string (version 35 wanted a host after it)."""
    text = f"{scheme}://app:{password}@{after}"
    assert password not in redact(text)[0], text


@pytest.mark.parametrize(
    "text",
    ["http://localhost:8080@\n", "see https://x:*****@\n", "C:/Users/me:x@"],
)
def test_a_port_or_a_placeholder_before_a_bare_at_is_kept(text):
    assert redact(text) == (text, {})


@settings(max_examples=150, deadline=None)
@given(
    words=_PASSPHRASE_WORDS,
    how=st.sampled_from(
        [
            "the right password is in wp-config ({}).",
            "The passphrase for the key ({}) is in the vault.",
            "Password, the db user's one: ({})",
        ]
    ),
)
def test_a_passphrase_in_an_aside_after_a_password_is_never_kept(words, how):
    """An assistant's `the right password is in wp-config (correcthorsebattery)`."""
    password = "".join(words)
    assume(16 <= len(password) <= 64 and "pass" not in password)
    text = how.format(password)
    assert password not in redact(text)[0], text


@pytest.mark.parametrize(
    "text",
    [
        "the password field (optional) is shown",
        "set the password (internationalization) first",
        "the auth plugin for the password (mysqlnativepassword)",
        "the password. Then run it (correcthorsebattery)",
        "the password hasher (PasswordHasherFactory)",
    ],
)
def test_an_aside_that_is_no_passphrase_is_kept(text):
    assert redact(text) == (text, {})


# REDACTION_VERSION 37: longer passphrases, a passphrase's clause ended by `and`, a login told
# how (`log in with user / password`), a password in another language, a dotted token.
_LONG_PASSPHRASE_WORDS = st.lists(_PASSPHRASE_WORD, min_size=9, max_size=12)


@settings(max_examples=100, deadline=None)
@given(
    words=_LONG_PASSPHRASE_WORDS,
    how=st.sampled_from(
        [
            "my password is {}.",
            "The password was set to {}, ok?",
            "database:\n  password: {}\n",
            "the passphrase is {}\nthen run it",
        ]
    ),
    joined=st.booleans(),
)
def test_a_passphrase_longer_than_version_36_read_is_never_kept(words, how, joined):
    """Nine to twelve words, or 65 to 128 letters: version 36 read eight words and 64."""
    sep = " " if "passphrase" in how else "" if joined else "-"
    password = sep.join(words)
    assume(len(password) > 64 and len(password) <= 128)
    assume(not redact_module._PLACEHOLDER.match(password))
    text = how.format(password)
    assert password not in redact(text)[0], text


@settings(max_examples=100, deadline=None)
@given(words=_PASSPHRASE_WORDS, clause=st.sampled_from([" and the key is in ~/.ssh", " but ok"]))
def test_a_passphrase_ended_by_and_or_but_is_never_kept(words, clause):
    password = " ".join(words)
    text = f"the passphrase is {password}{clause}"
    assert password not in redact(text)[0], text


@pytest.mark.parametrize(
    "text",
    [
        "the passphrase is used to encrypt the key and nothing else",
        "the passphrase is never stored and is hashed",
        "Passphrase is required and must match",
    ],
)
def test_a_sentence_about_a_passphrase_before_and_is_kept(text):
    assert redact(text) == (text, {})


@pytest.mark.parametrize(
    "text",
    [
        "log in with admin / Copper123%vtt on the dashboard",
        "you can sign in with deploy / Falcon560!hta",
        "Log in as root/Winter2026x then",
        "sign-in using ops / k9Xq2LmP4bZ",
    ],
)
def test_a_login_told_how_is_redacted(text):
    redacted, counts = redact(text)
    assert counts == {"password": 1}, redacted
    assert redacted.split("/")[-1].lstrip().startswith("[REDACTED:password]")


@pytest.mark.parametrize(
    "text",
    [
        "Log in as root/toor",
        "sign in with GitHub / Google",
        "log in with the form / v1.2.3",
        "sign in using email/password",
        "the blog in with a/b2c3d4e5",
    ],
)
def test_a_login_told_how_without_a_password_is_kept(text):
    assert redact(text) == (text, {})


@pytest.mark.parametrize(
    "text",
    [
        "mon mot de passe est Harbor481!jok pour le serveur",
        "mein Passwort ist Winter163%vis für den Server",
        "Kennwort: Zq8rT2mPx9",
        "mi contraseña es Copper764!ohj para la base de datos",
        "minha senha é Falcon692#ely no servidor",
        "la mia password è Copper203%ana per il database",
        "salasana on Harbor089#rfg tuotantopalvelimelle",
        "mijn wachtwoord is Falcon079%xyu voor de server",
        "パスワードは Tundra937!ksc です",
        "数据库密码是 Falcon915!yqa",
        "пароль: Tundra249!dkt",
        "hasło to Harbor963!kdv do serwera",
        "lösenord är Snow2026xq!",
    ],
)
def test_a_password_told_in_another_language_is_redacted(text):
    redacted, counts = redact(text)
    assert counts == {"password": 1}, redacted


@pytest.mark.parametrize(
    "text",
    [
        "Das Passwort ist falsch",
        "Le mot de passe est requis",
        "Passwort: ${DB_PASS}",
        "mot de passe : sha256 ok",
        "senha e 12345678",
        "la contraseña es test1234",
        "пароль: config.yml",
        "パスワードは8文字以上",
    ],
)
def test_words_about_a_password_in_another_language_are_kept(text):
    assert redact(text) == (text, {})


@pytest.mark.parametrize(
    "text",
    [
        "MAPBOX_SECRET=sk.eyJ1Ijoi4hjylZswhIIEYeIrK20dHFNS7Qroyp3SqiF3uspw9QSJqAbL9EuooBX8J.arGUcXhBShAdsNfrH0CqzA\n",
        "users:\n- name: admin\n  user:\n    token: stbz6i.oq04q96xckhmw5v9\n",
    ],
)
def test_a_token_whose_parts_a_dot_joins_is_redacted(text):
    """Parts that start with letters read as a dotted name of code: version 36 kept them."""
    redacted, counts = redact(text)
    assert sum(counts.values()) == 1 and "[REDACTED:" in redacted, redacted


@pytest.mark.parametrize(
    "text",
    [
        "token = self.oauth2ProviderV2Config.value",
        "password: config.db.password2Secret",
        "api_key = settings.OPENAI_API_KEY_V2",
        "secret = app.config.signingKeyRotation2024",
    ],
)
def test_a_dotted_name_of_code_is_kept(text):
    assert redact(text) == (text, {})


# REDACTION_VERSION 38: a password given to a call, to PowerShell's ConvertTo-SecureString, to
# a DSL, to Mongo's `pwd:`; a Wi-Fi key; a password printed after the line that introduces
# it, sent by an expect script, told after `pwd for X is`; a Makefile's `:=`, a password fed
# to cryptsetup, a Markdown table's lower-case `value`; a Google app password, a seed phrase.
_GIVEN = st.one_of(_CHOSEN, _RANDOM_SHORT).filter(lambda v: len(v) >= 8)


@settings(max_examples=200, deadline=None)
@given(
    password=_GIVEN,
    how=st.sampled_from(
        [
            "r = requests.get(url, auth=('admin', '{}'))\n",
            "resp = httpx.post(u, auth = ('svc', \"{}\"), json=body)",
            "s.auth = HTTPBasicAuth(user, '{}')",
            'Connection c = DriverManager.getConnection(url, "app", "{}");\n',
            'conn = DriverManager.getConnection("jdbc:mysql://db:3306/app", user,\n    "{}");',
            'var cred = new NetworkCredential("svc", "{}", "CORP");\n',
            'new PasswordAuthentication("bob", "{}".toCharArray())',
            "server.login('me@example.com', '{}')\n",
            'db.changeUserPassword("app", "{}")',
            "$pw = ConvertTo-SecureString '{}' -AsPlainText -Force",
            '$s = ConvertTo-SecureString -String "{}" -AsPlainText -Force',
            "release {{\n    storePassword \"{}\"\n    keyPassword '{}'\n}}\n",
            'mongosh --eval \'db.createUser({{user: "app", pwd: "{}", roles: []}})\'',
            '{{"user": "app", "pwd": "{}"}}',
            'network={{\n  ssid="home"\n  psk="{}"\n}}\n',
            "[wifi-security]\nkey-mgmt=wpa-psk\npsk={}\n",
            'spawn ssh root@host\nexpect "password:"\nsend "{}\\r"\ninteract\n',
            'expect "*assword*" {{ send "{}\\r" }}',
            "pwd for the router is {}",
            "the pw for admin was set to {}.",
            "DEPLOY_PASSWORD := {}\ndeploy:\n\t./deploy.sh\n",
            "DB_PASSWORD ?= {}\n",
            "echo -n '{}' | cryptsetup luksOpen /dev/sdb1 vault -",
            "| name | value |\n|---|---|\n| DB_PASSWORD | {} |\n",
        ]
    ),
)
def test_a_password_given_where_version_37_kept_it_is_never_kept(password, how):
    text = how.format(password, password)
    assert password not in redact(text)[0], text
    assert password not in redact_json(json.dumps({"content": text}))[0], text


def _made(value):
    """A password a program made: random-looking, of both cases when not all hex (and not
    starting as a mask does, `*`)."""
    if not redact_module._random_looking(value) or redact_module._PLACEHOLDER.match(value):
        return False
    return set(value) <= set("0123456789abcdef") or (
        re.search("[a-z]", value) is not None and re.search("[A-Z]", value) is not None
    )


@settings(max_examples=100, deadline=None)
@given(
    password=st.one_of(
        st.text(alphabet="0123456789abcdef", min_size=32, max_size=32),
        st.text(alphabet=string.ascii_letters + string.digits + "*_=+-", min_size=20, max_size=20),
    ).filter(_made),
    how=st.sampled_from(
        [
            "Please use the following password to proceed to installation:\n\n{}\n\n"
            "This may also be found at: /var/jenkins_home/secrets/initialAdminPassword\n",
            "The generated password for the elastic built-in superuser is : {}\n",
            "Password for the elastic user (reset with `bin/elasticsearch-reset-password -u"
            " elastic`):\n  {}\n",
        ]
    ),
)
def test_a_password_printed_below_or_after_what_introduces_it_is_never_kept(password, how):
    text = how.format(password)
    assert password not in redact(text)[0], text


_SEED_WORD = _PASSPHRASE_WORD.filter(lambda w: len(w) <= 8)


@settings(max_examples=100, deadline=None)
@given(
    words=st.sampled_from([12, 15, 18, 24]).flatmap(
        lambda n: st.lists(_SEED_WORD, min_size=n, max_size=n)
    ),
    how=st.sampled_from(
        [
            "my wallet seed phrase is {}",
            "Mnemonic: {}\n",
            'MNEMONIC="{}"',
            "the recovery phrase was {} and I lost the paper",
        ]
    ),
)
def test_a_seed_phrase_is_never_kept(words, how):
    text = how.format(" ".join(words))
    redacted = redact(text)[0]
    assert not any(" ".join(words[i : i + 3]) in redacted for i in range(len(words) - 2)), text


_APP_GROUP = st.text(alphabet=string.ascii_lowercase, min_size=4, max_size=4).filter(
    lambda g: (
        g not in redact_module._PROSE_WORDS
        and g not in redact_module._STAND_IN_WORDS
        and g not in redact_module._ENGLISH_FOURS
    )
)


@settings(max_examples=100, deadline=None)
@given(
    groups=st.lists(_APP_GROUP, min_size=4, max_size=4, unique=True),
    how=st.sampled_from(
        [
            "use this Gmail app password: {}",
            "The App Password is {}.",
            "app-specific password: `{}`",
        ]
    ),
)
def test_a_google_app_password_is_never_kept(groups, how):
    password = " ".join(groups)
    text = how.format(password)
    assert password not in redact(text)[0], text


@pytest.mark.parametrize(
    "text",
    [
        # calls given no password, or a name, a placeholder, a variable
        "r = requests.get(url, auth=(user, password))",
        "auth=('admin', 'password')",
        "auth=('admin', os.environ['PW'])",
        "HTTPBasicAuth('user', 'changeme')",
        'new NetworkCredential("svc", pwd)',
        'DriverManager.getConnection(url, "sa", "")',
        "server.login(user, self.password)",
        "page.login('admin', 'admin')",
        "$pw = ConvertTo-SecureString $plain -AsPlainText -Force",
        '$pw = ConvertTo-SecureString "$env:PW" -AsPlainText -Force',
        "ConvertTo-SecureString 'Winter2026!x'",
        # a DSL's word, a prompt's text, a path
        'storePassword System.getenv("STORE_PW")',
        'print("Wrong password "+x)',
        'label "Password" do',
        'raise "wrong password" unless ok',
        '"pwd": "/home/dev/project"',
        "cwd: '/srv/app', pwd: '/srv/app'",
        "key_mgmt=WPA-PSK",
        "psk=$WIFI_PSK",
        # a prompt and what follows it
        "Enter password:\n\nLogin Succeeded\n",
        "[sudo] password for dev:\nSorry, try again.\n",
        "password:\n  required: true\n",
        'expect "password:"\nsend "$password\\r"\n',
        "the pass for the test is flaky",
        "pwd for the repo is /home/dev/repo",
        # Go's and a Makefile's assignments of code and names
        'token := os.Getenv("TOKEN")',
        'password := r.FormValue("password")',
        "TOKEN_FILE ?= ~/.config/token",
        # app passwords and seed phrases that are sentences
        "App password: this will work fine",
        "app password: xxxx xxxx xxxx xxxx",
        "the mnemonic is stored in the keystore and never leaves the device at all",
        "seed phrase: write down the twelve words your wallet shows you and keep them safe offline",
        "| name | value |\n|---|---|\n| DB_PASSWORD | required |\n",
    ],
)
def test_what_version_38_reads_is_kept_where_it_holds_no_secret(text):
    assert redact(text) == (text, {})
