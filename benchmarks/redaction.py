"""redact() alone, in one process: over every stored text of an index, and over adversarial texts.

    python benchmarks/redaction.py benchmarks/.work/full.db
    python benchmarks/redaction.py --adversarial-only

Reads the text columns that the build redacts (messages, tool calls, tool results) from
an index, then times each column's redactor (pastfix.prepare.redactor: JSON text for tool
call inputs) and the anchor scan (`anchors_in()`) over all of them, best of three, in CPU
seconds. The index's texts are already redacted; an index built with --no-redact gives
the same timings when it holds no secret, as the generated corpora do.

Then the adversarial rows of issue 19: a failed result that repeats a keyword, and PEM
headers without an END line, at three sizes each doubling the last; and commands a call's
result is told by (printed_secret_kind), repeated. Linear rules take
twice the time for twice the text; the rules before took four times (issue 19: 2.9 s,
11 s and 42 s for `password=` at 45, 90 and 180 KB; 12.7 s for 6,000 PEM headers).
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from pastfix.prepare import redactor
from pastfix.records import TABLE
from pastfix.redact import anchors_in, printed_secret_kind

TABLES = ("messages", "tool_calls", "tool_results")

# name, the column whose redactor runs, the text repeated to fill each size (KB), what ends it.
ADVERSARIAL = (
    ("`password=` repeated", ("tool_results", "content"), "password=", "", (45, 90, 180)),
    ("`key=` repeated", ("tool_results", "content"), "key=", "", (45, 90, 180)),
    # REDACTION_VERSION 21: up to 40 spaces between a name and its value
    (
        "`password:` + 40 spaces, repeated",
        ("tool_results", "content"),
        "password:" + " " * 40,
        "",
        (45, 90, 180),
    ),
    (
        "PEM headers without END",  # a `!` after them: no footer can be reached
        ("tool_results", "content"),
        "-----BEGIN RSA PRIVATE KEY-----\n",
        "!-----END RSA PRIVATE KEY-----",
        (50, 100, 200),
    ),
    (
        "`token: ` + 40 random characters, repeated",
        ("tool_results", "content"),
        "token: Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed9Cb8Aa7 ",
        "",
        (45, 90, 180),
    ),
    # command-line passwords: each `curl` and `mysql` looks at most 300 characters ahead
    ("`curl ` repeated", ("tool_calls", "command"), "curl ", "", (45, 90, 180)),
    ("`mysql -u` repeated", ("tool_calls", "command"), "mysql -u ", "", (45, 90, 180)),
    # REDACTION_VERSION 4: SQL's passwords, a default in code, a value in backticks
    (
        "SQL `WITH PASSWORD '` repeated",
        ("tool_calls", "command"),
        "WITH PASSWORD '",
        "",
        (45, 90, 180),
    ),
    (
        "`process.env.DB_PASSWORD || '` repeated",
        ("tool_results", "content"),
        "process.env.DB_PASSWORD || '",
        "",
        (45, 90, 180),
    ),
    ("`password: `` ` `` repeated", ("messages", "text"), "password: `", "", (45, 90, 180)),
    (
        "`Basic ` + credentials that decode, repeated",
        ("tool_results", "content"),
        "Basic dXNlcjpwYXNzd29yZA== ",
        "",
        (45, 90, 180),
    ),
    # one JSON string: decoded, then redacted as text and as JSON text
    (
        "JSON input, `\\npassword=` repeated",
        ("tool_calls", "input"),
        "\\npassword=",
        "",
        (45, 90, 180),
    ),
    # REDACTION_VERSION 8: a text with escapes is redacted as written and decoded; a key's
    # lines may start with a tool's prefix
    (
        "JSON and percent escapes before a keyword, repeated",
        ("tool_results", "content"),
        "\\u0070assword%3D\\/",
        "",
        (45, 90, 180),
    ),
    (
        "PEM headers and Read's `     2→` lines without END",
        ("tool_results", "content"),
        "-----BEGIN RSA PRIVATE KEY-----\n     2→MIIEowIBAAKCAQEA\n",
        "!-----END RSA PRIVATE KEY-----",
        (50, 100, 200),
    ),
    # REDACTION_VERSION 6: a .env line's value runs to the line's end
    (
        "`.env` lines of a value with delimiters, repeated",
        ("tool_results", "content"),
        "DB_PASSWORD=Qx7,Lm9&vT2;pQ8\n",
        "",
        (45, 90, 180),
    ),
    # REDACTION_VERSION 9: names ending in `pass`, session cookies, invisible characters in
    # a token, tokens wrapped across lines, a URL after one slash
    ("`db_pass=` repeated", ("tool_results", "content"), "db_pass=", "", (45, 90, 180)),
    ("`Cookie: ` repeated", ("tool_calls", "command"), "Cookie: ", "", (45, 90, 180)),
    (
        "a token split by zero-width spaces, repeated",
        ("tool_results", "content"),
        "ghp_abc\u200bdef\u200b",
        "",
        (45, 90, 180),
    ),
    (
        "a token's line and its rest, repeated",
        ("tool_results", "content"),
        "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCd\n",
        "",
        (45, 90, 180),
    ),
    ("`https:/` repeated", ("tool_results", "content"), "https:/", "", (45, 90, 180)),
    # REDACTION_VERSION 12: a key's name in words (each `key` after `API ` starts to try),
    # and quotes doubled
    ("`API key ` repeated", ("messages", "text"), "API key ", "", (45, 90, 180)),
    (
        '`""password"":""` repeated',
        ("tool_results", "content"),
        '""password"":""',
        "",
        (45, 90, 180),
    ),
    # REDACTION_VERSION 13: token options, names ending in KEY, a name and its value in two
    # fields, XML elements, a token as a URL's user, `Authorization: token`, PuTTY keys, a
    # PEM key in base64, query parameters
    (
        "`--token ` + a generated value, repeated",
        ("tool_calls", "command"),
        "--token Vt7Qm2Zx9Lp4Wn8Rk3Bc6Yh1 ",
        "",
        (45, 90, 180),
    ),
    ("`--auth ` repeated", ("tool_calls", "command"), "--auth ", "", (45, 90, 180)),
    ("`X_KEY=` repeated", ("tool_results", "content"), "X_KEY=", "", (45, 90, 180)),
    (
        "`signingKey: ` + a generated value, repeated",
        ("tool_results", "content"),
        "signingKey: Jd0Fc9Qz7Lm2Xv4Rt8Wn3Bp6 ",
        "",
        (45, 90, 180),
    ),
    (
        "`- name: DB_PASSWORD` and `value: `, repeated",
        ("tool_results", "content"),
        "- name: DB_PASSWORD\n  value: ",
        "",
        (45, 90, 180),
    ),
    ('`<add key="` repeated', ("tool_results", "content"), '<add key="', "", (45, 90, 180)),
    ("`<password>` repeated", ("tool_results", "content"), "<password>x</", "", (45, 90, 180)),
    (
        "`https://` + a long user, repeated",
        ("tool_results", "content"),
        "https://Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2",
        "",
        (45, 90, 180),
    ),
    (
        "`Authorization: token ` repeated",
        ("tool_calls", "command"),
        "Authorization: token ",
        "",
        (45, 90, 180),
    ),
    (
        "PuTTY `Private-Lines: 999` and a line, repeated",
        ("tool_results", "content"),
        "PuTTY-User-Key-File-3\nPrivate-Lines: 999\nAAAAB3NzaC1yc2E\n",
        "",
        (45, 90, 180),
    ),
    ("`LS0tLS1CRUdJTi` repeated", ("tool_results", "content"), "LS0tLS1CRUdJTi", "", (45, 90, 180)),
    ("`?key=` repeated", ("tool_results", "content"), "?key=", "", (45, 90, 180)),
    # REDACTION_VERSION 14: names ending in `PW` and `SALT`, a name in brackets, `setx`,
    # PowerShell's SetEnvironmentVariable, `gh secret set`, an echo into --password-stdin,
    # kubectl's --from-literal, .pgpass lines, Digest's response, an APIM key, `?code=`
    ("`ADMIN_PW=` repeated", ("tool_results", "content"), "ADMIN_PW=", "", (45, 90, 180)),
    (
        "`os.environ['DB_PASSWORD'] = '` repeated",
        ("tool_results", "content"),
        "os.environ['DB_PASSWORD'] = '",
        "",
        (45, 90, 180),
    ),
    ("`['X_KEY'] = ` repeated", ("tool_results", "content"), "['X_KEY'] = ", "", (45, 90, 180)),
    ("`SALT=` repeated", ("tool_results", "content"), "SALT=", "", (45, 90, 180)),
    ("`setx ` repeated", ("tool_calls", "command"), "setx ", "", (45, 90, 180)),
    (
        '`SetEnvironmentVariable("X", "` repeated',
        ("tool_calls", "command"),
        'SetEnvironmentVariable("X", "',
        "",
        (45, 90, 180),
    ),
    (
        "`gh secret set X ` repeated, a `--body` at the end",
        ("tool_calls", "command"),
        "gh secret set X ",
        "--body Zq9Lm2Xv8",
        (45, 90, 180),
    ),
    (
        "`| --password-stdin` repeated (each looks back for an `echo`)",
        ("tool_calls", "command"),
        "| --password-stdin ",
        "",
        (45, 90, 180),
    ),
    ("`--from-literal=` repeated", ("tool_calls", "command"), "--from-literal=", "", (45, 90, 180)),
    (
        "`.pgpass` lines, repeated",
        ("tool_results", "content"),
        "~/.pgpass\nh:1:d:u:Zq9Lm2Xv8\n",
        "",
        (45, 90, 180),
    ),
    (
        "`Digest u=` repeated (each looks for a `response=`)",
        ("tool_results", "content"),
        "Digest u= ",
        "",
        (45, 90, 180),
    ),
    (
        "`Ocp-Apim-Subscription-Key: ` repeated",
        ("tool_calls", "command"),
        "Ocp-Apim-Subscription-Key: ",
        "",
        (45, 90, 180),
    ),
    ("`?code=` repeated", ("tool_results", "content"), "?code=", "", (45, 90, 180)),
    ("`curl -u :` repeated", ("tool_calls", "command"), "curl -u :", "", (45, 90, 180)),
    # REDACTION_VERSION 16: what feeds `sudo -S`, a program's password options, typed chars
    (
        "`echo x | sudo -S ` repeated",
        ("tool_calls", "command"),
        "echo x | sudo -S ",
        "",
        (45, 90, 180),
    ),
    ("`sudo -S <<< ` repeated", ("tool_calls", "command"), "sudo -S <<< ", "", (45, 90, 180)),
    ("`chpasswd` repeated", ("tool_calls", "command"), "echo a:b chpasswd", "", (45, 90, 180)),
    ("`keytool ` repeated", ("tool_calls", "command"), "keytool ", "", (45, 90, 180)),
    (
        "`keytool -storepass ` repeated",
        ("tool_calls", "command"),
        "keytool -storepass ",
        "",
        (45, 90, 180),
    ),
    ("`smbclient -U a%` repeated", ("tool_calls", "command"), "smbclient -U a%", "", (45, 90, 180)),
    ("`net use \\\\` repeated", ("tool_calls", "command"), "net use \\\\", "", (45, 90, 180)),
    ("`SSHPASS=` repeated", ("tool_calls", "command"), "SSHPASS=", "", (45, 90, 180)),
    ('`"chars": "` repeated', ("tool_calls", "input"), '"chars": "', "", (45, 90, 180)),
    ("`chars: ` repeated", ("tool_calls", "input"), "chars: `", "", (45, 90, 180)),
    # REDACTION_VERSION 17: sudo's options read for `-S`, a heredoc, quotes in a command
    ("`sudo -u a ` repeated", ("tool_calls", "command"), "sudo -u a ", "", (45, 90, 180)),
    (
        "`echo x | sudo -u a -S ` repeated",
        ("tool_calls", "command"),
        "echo x | sudo -u a -S ",
        "",
        (45, 90, 180),
    ),
    (
        "`sudo -S x <<EOF ` repeated",
        ("tool_calls", "command"),
        "sudo -S x <<EOF ",
        "",
        (45, 90, 180),
    ),
    ("`zip '` repeated", ("tool_calls", "command"), "zip '", "", (45, 90, 180)),
    (
        "`smbclient -U 'a\\b%c&d ` repeated",
        ("tool_calls", "command"),
        "smbclient -U 'a\\b%c&d ",
        "",
        (45, 90, 180),
    ),
    ('`chars: "a\\"` repeated', ("tool_calls", "input"), 'chars: "a\\"', "", (45, 90, 180)),
    # REDACTION_VERSION 19: base64 of user:password, Azure's keys, a name's number
    (
        "`echo -n a:b ` repeated",
        ("tool_calls", "command"),
        "echo -n a:b ",
        "| base64",
        (45, 90, 180),
    ),
    (
        '`"keyName": "k", "x": "y", ` repeated',
        ("tool_results", "content"),
        '"keyName": "k", "x": "y", ',
        "",
        (45, 90, 180),
    ),
    ("`FULL ` repeated", ("tool_results", "content"), "FULL ", "", (45, 90, 180)),
    ('`userPWD="` repeated', ("tool_results", "content"), 'userPWD="', "", (45, 90, 180)),
    ("`PASSWORD2=` repeated", ("tool_results", "content"), "PASSWORD2=", "", (45, 90, 180)),
    # REDACTION_VERSION 20: a wrapped JWT's head, lines of a JWT's parts
    (
        "`eyJhbGciOiJI\\n` repeated",
        ("tool_results", "content"),
        "eyJhbGciOiJI\n",
        "",
        (45, 90, 180),
    ),
    (
        "`eyJhbGciOiJI.eyJ\\n` repeated",
        ("tool_results", "content"),
        "eyJhbGciOiJI.eyJ\n",
        "",
        (45, 90, 180),
    ),
    # ... Discord's token (a head of its user id), Bot and SSWS, `vault kv get`'s table
    ("`MTE4` repeated", ("tool_results", "content"), "MTE4", "", (45, 90, 180)),
    (
        "`MTE4NzY1NDMyMTA5ODc2NTQzMg.` repeated",
        ("tool_results", "content"),
        "MTE4NzY1NDMyMTA5ODc2NTQzMg.",
        "",
        (45, 90, 180),
    ),
    (
        "`Authorization: Bot ` repeated",
        ("tool_results", "content"),
        "Authorization: Bot ",
        "",
        (45, 90, 180),
    ),
    ("`password    ` repeated", ("tool_results", "content"), "password    ", "", (45, 90, 180)),
    ("`\\npassword  ` repeated", ("tool_results", "content"), "\npassword  ", "", (45, 90, 180)),
    ("`glrt-` repeated", ("tool_results", "content"), "glrt-", "", (45, 90, 180)),
    # REDACTION_VERSION 21: SSWS without its header, a JWT split by quotes and `+`, a wrapped
    # Bearer token's rest, a table under its header without a rule, GitLab's other tokens
    ("`SSWS ` repeated", ("tool_results", "content"), "SSWS ", "", (45, 90, 180)),
    (
        '`"eyJhbGciOiJIUzI1NiJ9" +\\n ` repeated',
        ("tool_results", "content"),
        '"eyJhbGciOiJIUzI1NiJ9" +\n ',
        "",
        (45, 90, 180),
    ),
    (
        '`"eyJhbGciOiJI.eyJzdWIiOiIx." +\\n ` repeated',
        ("tool_results", "content"),
        '"eyJhbGciOiJI.eyJzdWIiOiIx." +\n ',
        "",
        (45, 90, 180),
    ),
    (
        "`Bearer ` + a wrapped token, repeated",
        ("tool_results", "content"),
        "Authorization: Bearer Zx9Yw8Vu7Ts6Rq5Po4Nm3\nLk2Jh1Gf0Ed9Cb8Aa7/+.~=\n",
        "",
        (45, 90, 180),
    ),
    (
        "`Key    Value\\npassword    ` + a value, repeated",
        ("tool_results", "content"),
        "Key    Value\npassword    A1a-ckirty9Xq2Lm\n",
        "",
        (45, 90, 180),
    ),
    ("`glcbt-` repeated", ("tool_results", "content"), "glcbt-", "", (45, 90, 180)),
    # REDACTION_VERSION 28
    ("`SecretID: ` repeated", ("tool_results", "content"), "SecretID: ", "", (45, 90, 180)),
    ("`Unseal Key 1: ` repeated", ("tool_results", "content"), "Unseal Key 1: ", "", (45, 90, 180)),
    ("`--token a` repeated", ("tool_calls", "command"), "--token abcdef.", "", (45, 90, 180)),
    # REDACTION_VERSION 29
    (
        "`vault kv put x - <<EOF` lines repeated",
        ("tool_calls", "command"),
        "vault kv put secret/x - <<EOF\n",
        "",
        (45, 90, 180),
    ),
    (
        "`consul kv put a - <<EOF ` repeated",
        ("tool_calls", "command"),
        "consul kv put a - <<EOF ",
        "",
        (45, 90, 180),
    ),
    (
        "`password: |` lines repeated",
        ("tool_results", "content"),
        "password: |\n  x",
        "",
        (45, 90, 180),
    ),
    ("`requirepass ` repeated", ("tool_results", "content"), "requirepass ", "", (45, 90, 180)),
    ("`redis AUTH ` repeated", ("tool_results", "content"), "redis AUTH ", "", (45, 90, 180)),
    ("`/.env` repeated", ("tool_results", "content"), "/.env", "", (45, 90, 180)),
    (
        '`"file_path": ".env", ` repeated',
        ("tool_results", "content"),
        '"file_path": ".env", ',
        "",
        (45, 90, 180),
    ),
    (
        "`*** Add File: .env` lines repeated",
        ("tool_results", "content"),
        "*** Add File: .env\n+",
        "",
        (45, 90, 180),
    ),
    (
        "`cat > .env <<EOF ` repeated",
        ("tool_calls", "command"),
        "cat > .env <<EOF ",
        "",
        (45, 90, 180),
    ),
    # REDACTION_VERSION 30
    (
        '`"data": {"data": {` repeated, `"metadata"` after',
        ("tool_results", "content"),
        '"data": {"data": {',
        '}, "metadata": {}',
        (45, 90, 180),
    ),
    (
        '`"data": {"data": {"a": "b"}}, "metadata": ` repeated',
        ("tool_results", "content"),
        '"data": {"data": {"a": "b"}}, "metadata": ',
        "",
        (45, 90, 180),
    ),
    (
        '`"sensitive": true, ` repeated',
        ("tool_results", "content"),
        '"sensitive": true, ',
        "",
        (45, 90, 180),
    ),
    (
        '`{"value": "x", "sensitive": true ` repeated',
        ("tool_results", "content"),
        '{"value": "x", "sensitive": true ',
        "",
        (45, 90, 180),
    ),
    (
        '`"sensitive": true}` repeated',
        ("tool_results", "content"),
        '"sensitive": true}',
        "",
        (45, 90, 180),
    ),
    (
        '`"random_password"` repeated',
        ("tool_results", "content"),
        '"random_password"',
        "",
        (45, 90, 180),
    ),
    ("`::add-mask::` repeated", ("tool_results", "content"), "::add-mask::", "", (45, 90, 180)),
    ("`export A=` repeated", ("tool_calls", "command"), "export A=", "", (45, 90, 180)),
    ("`'Cookie': '` repeated", ("tool_results", "content"), "'Cookie': '", "", (45, 90, 180)),
    ("`curl -U a:` repeated", ("tool_calls", "command"), "curl -U a:", "", (45, 90, 180)),
    # REDACTION_VERSION 31: a secret named in a sentence, a block scalar's line of words
    (
        "`Stripe key ` and a value, repeated",
        ("tool_calls", "input"),
        "Stripe key Qz7hT3kLm9Wp2Xv8 ",
        "",
        (45, 90, 180),
    ),
    ("`a token ` repeated", ("messages", "text"), "a token ", "", (45, 90, 180)),
    (
        "`password: |` and words, repeated",
        ("tool_results", "content"),
        "password: |\n  a b c d\n",
        "",
        (45, 90, 180),
    ),
    # REDACTION_VERSION 32: a short password in a sentence, a keyword in an aside, a value
    # after a line's continuation, a `.env`'s words, a sensitive output's object
    (
        "`the password is ` and a value, repeated",
        ("messages", "text"),
        "the password is hunter2x! ",
        "",
        (45, 90, 180),
    ),
    ("`a password ` repeated", ("messages", "text"), "a password ", "", (45, 90, 180)),
    ("`(secret ` repeated", ("messages", "text"), "a (secret ", "", (45, 90, 180)),
    (
        "`API_TOKEN=\\` lines repeated",
        ("tool_calls", "command"),
        "API_TOKEN=\\\n",
        "",
        (45, 90, 180),
    ),
    (
        "`*** Add File: .env` and a line of words, repeated",
        ("tool_results", "content"),
        "*** Add File: .env\n+DB_PASSWORD=purple-monkey-dishwasher\n",
        "",
        (45, 90, 180),
    ),
    (
        '`{"sensitive": true, "value": {` repeated',
        ("tool_results", "content"),
        '{"sensitive": true, "value": {',
        "",
        (45, 90, 180),
    ),
    (
        '`"value": {"a": "b"}, ` repeated, `"sensitive": true` after',
        ("tool_results", "content"),
        '"value": {"a": "Zq8vN2kL5mR7tX1"}, ',
        '"sensitive": true}',
        (45, 90, 180),
    ),
    # REDACTION_VERSION 34: a password of letters alone, or holding `$`, PHP's `define(`, a
    # Terraform Cloud token's `.atlasv1.`, Fly.io's `FlyV1 `
    (
        "`the password is ` and a word, repeated",
        ("messages", "text"),
        "the password is sunshine and ",
        "",
        (45, 90, 180),
    ),
    (
        "`password: ` and a word lines, repeated",
        ("messages", "text"),
        "password: hunterqx\n",
        "",
        (45, 90, 180),
    ),
    (
        "`password=ab$cd9ef ` repeated",
        ("tool_calls", "command"),
        "password=ab$cd9ef ",
        "",
        (45, 90, 180),
    ),
    (
        "`define( 'AUTH_KEY', '` repeated",
        ("tool_results", "content"),
        "define( 'AUTH_KEY', 'Zq(8L|mP2x!W k9Rt<V4nBc7Hs3}Jd6Fg1Ya5T ",
        "",
        (45, 90, 180),
    ),
    (
        "`x.atlasv1.` repeated",
        ("tool_results", "content"),
        "Xk9pLm2qRs8tUv.atlasv1.",
        "",
        (45, 90, 180),
    ),
    ("`FlyV1 fm2_` repeated", ("tool_results", "content"), "FlyV1 fm2_", "", (45, 90, 180)),
    # REDACTION_VERSION 35: a password for a user, `pass:` and a comment, libpq's string,
    # Oracle's logon, `openssl passwd -salt`, a `$` in single quotes, a JWT above a label
    (
        "`the password for admin is ` and a word, repeated",
        ("messages", "text"),
        "the password for admin is sunshine and ",
        "",
        (45, 90, 180),
    ),
    ("`password for ` repeated", ("messages", "text"), "password for ", "", (45, 90, 180)),
    (
        "`pass: ` a word and a comment lines, repeated",
        ("tool_results", "content"),
        "pass: hunterqx # prod\n",
        "",
        (45, 90, 180),
    ),
    (
        "`user=app password=sunshine ` repeated",
        ("tool_calls", "command"),
        "user=app password=sunshine ",
        "",
        (45, 90, 180),
    ),
    ("`sqlplus a/b` repeated", ("tool_calls", "command"), "sqlplus a/b", "", (45, 90, 180)),
    (
        "`SQL> conn a/pw@x` lines, repeated",
        ("tool_results", "content"),
        "SQL> conn a/pwpw@x\n",
        "",
        (45, 90, 180),
    ),
    (
        "`openssl passwd -salt a ` repeated",
        ("tool_calls", "command"),
        "openssl passwd -salt a ",
        "",
        (45, 90, 180),
    ),
    (
        "`PGPASSWORD='$ecretPa55' ` repeated",
        ("tool_calls", "command"),
        "PGPASSWORD='$ecretPa55' -p'$x",
        "",
        (45, 90, 180),
    ),
    (
        "a JWT and `S3 ` lines, repeated",
        ("tool_results", "content"),
        "k: eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiJ9.c2lnbmF0dXJlMTIz\nS3 ",
        "",
        (45, 90, 180),
    ),
    # REDACTION_VERSION 36: a passphrase (run together, joined by `-`, apart in quotes or
    # after `passphrase is`), a login's `user / password`, a URL's `@` with nothing after it
    (
        "`the password is ` and 26 letters, repeated",
        ("messages", "text"),
        "the password is abcdefghijklmnopqrstuvwxyz and ",
        "",
        (45, 90, 180),
    ),
    (
        "`password is ` and words joined by `-`, repeated",
        ("messages", "text"),
        "password is purple-monkey-lamp-dish-cart-harp-bell-ring-",
        "",
        (45, 90, 180),
    ),
    (
        '`passphrase is "` and words apart, repeated',
        ("messages", "text"),
        'passphrase is "purple monkey lamp dish cart harp bell ring ',
        "",
        (45, 90, 180),
    ),
    ("`login is a / ` repeated", ("messages", "text"), "login is a / ", "", (45, 90, 180)),
    (
        "`password ` and an aside of 20 letters, repeated",
        ("messages", "text"),
        "password (abcdefghijklmnopqrst ",
        "",
        (45, 90, 180),
    ),
    ("`://a:b@` repeated", ("tool_calls", "input"), "://a:b@", "", (45, 90, 180)),
)

# A call's command, read for what its result is (pastfix.redact.printed_secret_kind: a secret
# printed alone or in a sentence, a credentials file shown): name, the command repeated to
# fill each size (KB).
ADVERSARIAL_COMMANDS = (
    # REDACTION_VERSION 31's wrapped `echo` read each `echo` of a command's continued lines to
    # its 400-character bound (session 39: 2.0 s at 180 KB; now each word once)
    (
        "`echo $A ... $L \\` lines repeated",
        "echo $A $B $C $D $E $F $G $H $I $J $K $L \\\n",
        (45, 90, 180),
    ),
    ('`echo "$A \\` lines repeated', 'echo "$A \\\n', (45, 90, 180)),
    ("`echo $A;` repeated", "echo $A;", (45, 90, 180)),
)


def texts(db: Path) -> list[tuple[Callable[[str], object], str]]:
    """Each stored text with its column's redactor; a repeated column's values once, as
    pastfix.prepare redacts them (Table.repeated)."""
    with sqlite3.connect(db) as conn:
        return [
            (redactor(table, column), value)
            for table in TABLES
            for column in TABLE[table].text
            for (value,) in conn.execute(
                f"select {'distinct' if column in TABLE[table].repeated else ''}"
                f" [{column}] from [{table}]"
            )
            if value
        ]


def best_of_three(calls: list[tuple[Callable[[str], object], str]]) -> float:
    timings = []
    for _ in range(3):
        started = time.process_time()
        for function, value in calls:
            function(value)
        timings.append(time.process_time() - started)
    return min(timings)


def adversarial_timings() -> list[tuple[str, list[tuple[int, float]]]]:
    """Each adversarial row's (KB, CPU seconds) at its three sizes (see ADVERSARIAL)."""
    timings = []
    for name, (table, column), unit, tail, sizes in ADVERSARIAL:
        redact = redactor(table, column)
        row = []
        for kb in sizes:
            text = unit * (kb * 1000 // len(unit)) + tail
            if column == "input":
                text = '{"content": "' + text + '"}'
            row.append((kb, best_of_three([(redact, text)])))
        timings.append((name, row))
    for name, unit, sizes in ADVERSARIAL_COMMANDS:
        row = []
        for kb in sizes:
            text = unit * (kb * 1000 // len(unit))
            row.append((kb, best_of_three([(printed_secret_kind, text)])))
        timings.append((name, row))
    return timings


def adversarial() -> None:
    for name, row in adversarial_timings():
        print(f"{name}: " + ", ".join(f"{kb} KB {seconds:.3f} s" for kb, seconds in row))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path, nargs="?", help="a pastfix index")
    parser.add_argument("--adversarial-only", action="store_true")
    args = parser.parse_args()
    if args.db and not args.adversarial_only:
        calls = texts(args.db)
        characters = sum(len(value) for _, value in calls)
        print(f"{len(calls):,} texts, {characters / 1e6:.1f} M characters")
        print(f"redact():     {best_of_three(calls):.2f} s")
        scans = [(anchors_in, value) for _, value in calls]
        print(f"anchors_in(): {best_of_three(scans):.2f} s")
    adversarial()


if __name__ == "__main__":
    main()
