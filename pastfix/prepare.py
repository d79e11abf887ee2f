"""The pure step between reading a transcript and writing its rows.

Every reader's records pass through prepare() once, in the process that parsed
them, before they are saved: what is derived from the text is computed here,
the same way whichever agent wrote the transcript. Secrets are redacted first,
so that nothing derived (error signatures) holds one either, and long texts
are cut after that: a cut made first would keep half of a secret that spans it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from pastfix.records import TABLE, TABLES, Batch, Redaction, Table

if TYPE_CHECKING:
    from pastfix.redact import Told

# What each call that prints a secret prints, by its id (see _redact_printed): a kind, a
# credentials file's format, or a sentence a secret stands in (redact.Told).
Printing = dict[str, "Told"]

# The version of the rules of pastfix.redact, kept here so that a build that reads
# nothing need not load them to compare it with the index's (pastfix.db.reredact).
# Raise it when a change of the rules would redact what they kept before: the
# next build re-redacts every stored row in place (a change that keeps more, such as
# session 6's names in one case, needs none: stored rows stay as redacted). 1: the
# rules before JSON text was decoded; 2: JSON decoded, names glued to a keyword,
# linear rules; 3: other providers' tokens (npm, PyPI, Hugging Face, SendGrid, ...),
# OpenAI-shaped keys in lowercase, Basic credentials, Azure storage keys, signed URLs,
# Discord and Teams webhooks, passwords on a command line (`curl -u`, `mysql -p`,
# `sshpass -p`, `--password PW`, `MYSQL_PWD=`) and in a .netrc, a token after a URL's
# percent-escape (`%3Dghp_...`); 4: a default given in code to a secret's variable
# (`process.env.DB_PASSWORD || '...'`), SQL's `WITH PASSWORD '...'` and `IDENTIFIED BY
# '...'`, a keyword in the plural (`Passwords: ...`) and a value in backticks; 5: a
# token right after a terminal's colour code, a password among a command's arguments
# as a list (`["curl", "-u", "admin:pw"]`), a URL's password with no user or an `@`,
# `curl -uuser:pw`, `mysql -p'pw'`, `--password=pw`, a PEM key as quoted lines of source;
# 6: a .env line's unquoted value to its end (`DB_PASSWORD=Qx7,Lm9&...`), a value that
# starts with `$` but is no variable (`$ecret!Pa55`), a token right after a dash.
# 8: a secret behind an escape (JSON's `\u0061` and `\/`, `\x41`, a URL's `%5F`, a colour
# code before a value), a private key shown with line numbers or file names (Read's
# `     2→`, grep's `key.pem:`), a URL's password with `#`, `/` or `?`, an auth scheme in any
# case (`BEARER`, `basic`), an unquoted value with delimiters (`password: Zx;KY34...`,
# `(1HVo%...)`), an AWS key id longer than 20 characters.
# 9: a token right after a digit (`0AKIA...`), a name ending in `pass`, `pwd`, `credentials`
# or `creds` (`db_pass=`, `SMTP_CREDENTIALS=`), a full-width `＝` or `：`, an invisible
# character inside a token or a name (U+200B ...), the rest of a token a terminal wrapped
# onto the next line, a URL's password after one slash or backslashes, Stripe's `whsec_`,
# Google's refresh tokens (`1//0...`), `redis-cli -a PW`, `htpasswd -b`, session cookies.
# 10: a wrapped token's rest behind a diff's line mark (`+`, `-`, ` `: `git diff` of a key
# on two `+` lines), and no rest that starts with a dash (`--no-verify` after a token).
# 11: a wrapped token's rest behind a line number (Read's `    12→`, `cat -n`, `grep -n`,
# bat), a box's or a table's border or an indent; a keyword's value wrapped (`password=`
# and its value on two lines); no rest that is a number, or behind a lead a camel-case name.
# 14: a name ending in `PW` (`ADMIN_PW`, `dbPw`) or, with a generated value, `SALT`; a name
# in brackets (`os.environ['X'] = '...'`); `setx`, `SetEnvironmentVariable`, `gh secret
# set --body`, `curl -u :PW`, `echo PW | ... --password-stdin`, `--from-literal=key=`,
# `.pgpass` lines, Digest's `response=`, `Ocp-Apim-Subscription-Key`, `?code=`.
# 15: the columns stored as the transcript wrote them, now redacted too: a message's model,
# version and subagent id, a tool call's name (an MCP tool's names its server).
# 16: a password fed to a command that reads it from its input (`echo PW | sudo -S`, `printf
# '%s\n' PW |`, `sudo -S <<< 'PW'`, `chpasswd`, `passwd --stdin`), `SSHPASS=`, a program's
# option that takes a password (`mongosh -p`, `sqlcmd -P`, `az login -p`, `keytool
# -storepass`, `ldapsearch -w`, `smbclient -U user%PW`, `net use /user:x PW`, `gpg
# --passphrase`, `mysqladmin password`, `rabbitmqctl add_user`, `ssh-keygen -N`, `x11vnc
# -passwd`, `zip -P`, `7z -p`, `openssl -k`), a Codex `write_stdin`'s `chars` typed into a
# prompt.
# 17: version 16's forms with their common variations: sudo's other options before `-S`
# (`sudo -u postgres -S`, `-p '' -S`, `-nS`), a fed password quoted with any character but
# a quote (`echo 'Tr0ub4dor&3x' |`), the feeder in a group or redirected (`(echo PW) |`,
# `echo PW 2>/dev/null |`), `$'PW'`, a heredoc after `sudo -S`; a quoted option value
# holding `&` or `;`; smbclient's `-U 'CORP\bob%PW'`; a typed password holding a quote.
# 18: an escaped NUL read as nothing (`g\u0000h\u0000p\u0000_...`: UTF-16 text read as
# UTF-8, in a tool call's input), as an invisible character is.
# 19: a `user:password` given to base64 (`Basic $(echo -n user:PW | base64)`), the keys
# the Azure CLI prints (`"keyName": ..., "value": ...`, a table's `key1  FULL  ...`,
# `userPWD=`, a padded `"primaryKey"`), a number after a name's keyword (`DB_PASSWORD2=`,
# `API_KEY_V2=`, `"password2"`).
# 20: a JWT a terminal or a log wrapped across lines (each line of it, a dot in a rest).
# Discord's bot tokens, `Authorization: Bot` and `SSWS` (Okta), GitLab's `glptt-`, `glrt-`,
# `gldt-`, Heroku's `HRKU-`, Atlassian's `ATATT3`, Postman's `PMAK-`, NuGet's `oy2`; a table
# of names and values (`vault kv get`'s `password    <value>`).
# A message's kind, which a Claude Code `system` line's `subtype` gives as written.
# 21: Okta's `SSWS` without its header, a wrapped `Bearer` token's rest, a JWT split by code
# (`"eyJ...." +`), GitLab's other prefixes, a table under its header without a rule.
# 22: a JWT's parts apart (a list's items, a dict's values, a template's pieces), a scheme
# and its token in two strings (`"SSWS " + "00..."`), a table's value one space after a
# name that fills its column, a table in a diff (`+password    ...`), a box's cells
# (`doppler secrets`), a Key Vault secret's value beside its id.
# 23: a secret store's value whatever its name (AWS's SecretString and SecureString, a
# store's CLI given it, a Kubernetes Secret's data).
# 24: a credential a tool is told to keep on its command line, whatever it looks like: a
# package manager's registry credential (`npm config set //reg/:_authToken V`, poetry's and
# composer's `http-basic.<repo> USER PW`, bundler's `<host> USER:PW`), `--creds USER:PW`, a
# login's token argument (`cargo login T`), `podman login -p`, NuGet's `-p` and `-k`.
# A problem's reason, which may quote its line (a YAML `*alias`, an event's type as written).
# 25: JSON held in JSON (a SecretString's nested object, a Kubernetes Secret as JSON), vault
# write, consul kv put and etcdctl put, a URL's credentials without its scheme, twine -p.
# 26: a secret a command prints alone (`vault kv get -field=password`, `op read`, `echo
# $DB_PASSWORD`): its result's lines that are a value alone, told by its call's command.
# 27: a credentials file shown whole (`cat ~/.pgpass`, a Read of `.netrc`, `cat .env`), told
# by its call's command or path: its format's secrets.
# 28: a CLI's labelled secret (SecretID, Unseal Key, Root Token), kubeadm's --token, a
# variable given a printer's output and printed later in the call, more printers
# (terraform/pulumi/bw/lpass/infisical/chamber, in docker/kubectl exec), a secrets file
# shown whole (/run/secrets/x, ~/.vault-token), credentials files' backups, .env.a.b.
# 29: a heredoc given to a store that reads its input (`vault write x - <<EOF`), a secret
# printed inside a sentence (`echo "token is $X"`), a YAML block scalar, sops's decrypted
# output, Redis's password, a .env written whose names say nothing.
# 30: Vault KV v2's API result, Terraform's sensitive outputs and random_password,
# GitHub Actions' ::add-mask::, a generated literal exported under a name that says
# nothing, a Cookie header as a map's key, curl's proxy credentials, an rclone.conf.
# 31: a generated value named in a sentence by its kind (`the Stripe key V`), a command
# wrapped by a backslash at a line's end read as the shell reads it, a block scalar's
# passphrase of several words.
# 32: a password under 16 characters named in a sentence (`the password is hunter2x!`), a
# keyword opening an aside (`(secret V)`), a value after a shell's line continuation
# (`API_TOKEN=\` then V), a `.env`'s secret of words (`DB_PASSWORD=purple-monkey-dishwasher`),
# a sensitive Terraform output whose value is an object.
# 33: a number after the high-entropy rule's keyword, as the assignment rules read one
# (`API_KEY2=`, `api_key_v2:`).
# 34: a password of letters alone told in a sentence or under a password's name first on its
# line (`the db password is sunshine`, `db_password: hunterqx`, `--password=sunshine`), a `$`
# or a symbol inside a short password (`pa$$w0rd!x`, `password=AA$222`), a password's word and
# digits (`password123`: no stand-in), a .env's words under a name that says nothing, PHP's
# define() (wp-config.php's password, keys and salts), .pypirc and my.cnf shown whole, `aws ecr
# get-login-password`, `op signin --raw`, `net user NAME PW`, `openssl passwd PW`, Fly.io's
# and Terraform Cloud's tokens.
# 35: a password named with its user (`the password for admin is X`), `pass:` first on its
# line, a comment after a key's password (`db_password: sunshine # prod`), libpq's
# connection string (`host=db user=app password=sunshine`), Oracle's logon (`sqlplus
# user/PW@db`, `SQL> conn user/PW@tns`), `openssl passwd -salt S PW`, a `$` that starts a
# password in single quotes (`'$ecretPa55'`); a JWT's split rest no longer takes the first
# word of a labelled line (`S3 Access Key:` of `supabase status`).
# 36: a passphrase (`the db password is correcthorsebattery`, 16 to 64 letters; words joined by
# `-`; words apart in quotes or after `passphrase is`; in an aside after a password's word), a
# login's `user / password` (`login is jdoe / Winter2026!`), a URL's password with nothing
# after its `@` (an Edit's fragment, `postgres://app:PW@`).
# 37: a password told in another language (`mein Passwort ist X`, `パスワードは X`: letters and
# digits both), passphrases of up to 128 letters or twelve words and one that `and` or `but`
# ends, `log in with admin / X`, a token whose parts a dot joins (`sk.eyJ1...`).
# 38: credentials given to a call (`auth=('u', 'p')`, `NetworkCredential`, JDBC's
# `getConnection`), `ConvertTo-SecureString -AsPlainText`, Gradle's `storePassword "p"`,
# Mongo's `pwd:`, `psk=`, a password printed on its own line (Jenkins, Elastic), expect's
# `send`, Makefile's `:=`, `| cryptsetup`, a `value` column, app passwords, seed phrases.
REDACTION_VERSION = 38


def prepare(
    batch: Batch, *, redact_secrets: bool = True, printing: Printing | None = None
) -> Batch:
    """Redact secrets in every text (unless told not to) and cut long ones, then
    sign every failed tool result.

    `printing` holds the calls of the batch's file read before it (by earlier batches of the
    same read, or looked up in the index) whose command prints a secret alone, by id, and
    is given this batch's (see _redact_printed).
    """
    _drop_nuls(batch.tool_calls)
    if redact_secrets:
        _redact_printed(batch, {} if printing is None else printing)
        _redact_rows(batch)
    else:
        for table in TABLES:
            if table.batch_field is not None and table.cuts:
                _cut_rows(getattr(batch, table.batch_field), table)
    results = batch.tool_results
    for i, result in enumerate(results):
        if result.is_error:
            # Imported on first use, as the rules of redaction are (see redactor): most
            # batches a refresh reads hold no failure, and compiling these is ~90M
            # instructions.
            from pastfix import signatures

            results[i] = result._replace(
                signature=signatures.signature(result.content),
                kind=signatures.classify(result.content),
            )
    return batch


# A tool call's texts taken from its input as they were written (a Bash call's command and
# description): a NUL in them shows nothing, and hides a secret from the rules' anchors
# (UTF-16 text read as UTF-8: `g\0h\0p\0_...`). Dropped, as records.clean_text drops them
# from the other texts. The input itself, JSON, holds them escaped (`\u0000`), which the
# rules read as nothing (redact._stand_in), and is stored as written.
NUL_COLUMNS = tuple(c for c in TABLE["tool_calls"].text if c not in TABLE["tool_calls"].json)


def _drop_nuls(calls: list[Any]) -> None:
    """Drop the NULs of `calls`' texts but their input, in place. Only a call whose input
    holds one is looked at (every reader takes those texts from the input): one check a
    call, ~7 ms for 100,000 calls, against ~38 ms for a check of each text."""
    for i, call in enumerate(calls):
        given = call.input
        if given and ("\\u0000" in given or "\x00" in given):
            values = {c: getattr(call, c) for c in NUL_COLUMNS}
            calls[i] = call._replace(
                **{c: v.replace("\x00", "") for c, v in values.items() if v and "\x00" in v}
            )


def printing_calls(
    calls: Iterable[tuple[str, str, str | None, str | None]], printing: Printing
) -> None:
    """Add to `printing` what each call of `calls` (its id, tool, command and path) prints,
    by id, for those that print a secret alone or show a credentials file: a command's, or a
    read tool's file (see redact.printed_secret_kind)."""
    from pastfix.agents import READ, tools
    from pastfix.redact import printed_secret_kind

    reads = tools(READ)
    for tool_use_id, name, command, path in calls:
        if command:
            told = printed_secret_kind(command)
        elif path and name in reads:
            told = printed_secret_kind(None, path)
        else:
            continue
        if told is not None:
            printing[tool_use_id] = told


def _redact_printed(batch: Batch, printing: Printing) -> None:
    """Redact the value a command printed alone in its result (`vault kv get -field=password
    secret/db`, `echo "$DB_PASSWORD"`: see redact.redact_printed), in place, before the
    other rules read it; add what was replaced to the batch's redactions.

    Only the call says what its result is, so the result learns it from `printing`, the
    calls of its file that print a secret: a reader gives a call before its result (the
    assistant's line before the user's that answers it, Codex's `function_call` before its
    output), in the same batch or an earlier one of the same file, whose calls `printing`
    keeps. A read tool's result is a credentials file's text when its path names one
    (`~/.pgpass`, REDACTION_VERSION 27). Every agent's shell call has its command in
    `command`, and its result as text alone (Codex's, Gemini's and Copilot's headers and
    trailers gone or on lines of words).
    A search of each command for the first words of the table, and a lookup a result: ~2.4 µs
    a call over the real corpus's (benchmarks: README, REDACTION_VERSION 26).
    """
    printing_calls(
        ((c.tool_use_id, c.name, c.command, c.file_path) for c in batch.tool_calls), printing
    )
    if not printing:
        return
    from pastfix.redact import redact_printed

    results = batch.tool_results
    for i, result in enumerate(results):
        told = printing.get(result.tool_use_id)
        if told is None or not result.content:
            continue
        text, kinds = redact_printed(result.content, told)
        if kinds:
            results[i] = result._replace(content=text)
            batch.redactions += (
                Redaction("tool_results", result.tool_use_id, result.line_no, "content", kind, n)
                for kind, n in kinds.items()
            )


Redactor = Callable[[str], tuple[str, dict[str, int]]]


def redactor(table: str, column: str) -> Redactor:
    """How a column's text is redacted: as JSON or as text (see pastfix.redact).

    For a column whose values repeat (Table.repeated), each distinct value is redacted
    once by the redactor returned: ask for one per batch or pass.
    """
    # Imported on first use: a build that finds nothing changed (the hook's refresh at
    # the end of every session) does not compile the patterns (~20 ms).
    from pastfix.redact import redact, redact_json

    spec = TABLE[table]
    function = redact_json if column in spec.json else redact
    return functools.cache(function) if column in spec.repeated else function


def _redact_rows(batch: Batch) -> None:
    """Redact, then cut, the texts of the batch's rows in place; add what was replaced to
    its redactions.

    Every text column of the batch goes to redact.redact_columns at once, which scans
    them as one: a text without an anchor (most of them) costs its share of the scan
    and nothing else here, and a row is replaced only when one of its texts changed
    (a row replaced per cwd was 0.17 s of CPU at 200 MB).
    """
    from pastfix.redact import redact_columns

    tables = [
        (table, getattr(batch, table.batch_field))
        for table in TABLES
        if table.batch_field is not None and table.text
    ]
    values: list[list[Any]] = []
    columns: list[tuple[list[Any], bool]] = []
    for table, rows in tables:
        for column in table.text:
            values.append(list(map(attrgetter(column), rows)))
            # (each distinct value of a repeated column redacted once)
            texts = list(dict.fromkeys(values[-1])) if column in table.repeated else values[-1]
            columns.append((texts, column in table.json))
    hits = iter(zip(values, columns, redact_columns(columns), strict=True))
    for table, rows in tables:
        _replace_texts(rows, table, batch.redactions, hits)


def _replace_texts(
    rows: list[Any],
    table: Table,
    found: list[Redaction],
    hits: Iterator[tuple[list[Any], tuple[list[Any], bool], list[tuple[int, str, dict[str, int]]]]],
) -> None:
    """Put the redacted texts of `table`'s columns into `rows` and cut the long ones;
    add what was replaced to `found`. `hits` gives each column's values, the texts
    redacted (a repeated column's distinct values) and what redact_columns found."""
    key = table.key
    cuts = {column: (limit, cut) for column, limit, cut in table.cuts}
    changes: dict[int, dict[str, str]] = {}
    for column in table.text:
        values, (texts, _), redacted = next(hits)
        if column in table.repeated and redacted:
            # (most batches redact no cwd: their rows are not gone through again)
            by_value = {texts[i]: (text, kinds) for i, text, kinds in redacted}
            redacted = [(i, *by_value[v]) for i, v in enumerate(values) if v in by_value]
        for i, text, kinds in redacted:
            row = rows[i]
            row_key = getattr(row, key) if key else None
            found += [
                Redaction(table.name, row_key, row.line_no, column, kind, n)
                for kind, n in sorted(kinds.items())
            ]
            changes.setdefault(i, {})[column] = text
        if column in cuts:
            limit, cut = cuts[column]
            # A redacted text may have grown past the limit: a marker can be longer than
            # its secret. The longest text found in C first: most batches have none over
            # the limit.
            if max(map(len, filter(None, values)), default=0) > limit:
                long = {i for i, value in enumerate(values) if value and len(value) > limit}
            else:
                long = set()
            for i in long.union(i for i, changed in changes.items() if column in changed):
                text = changes.get(i, {}).get(column, values[i])
                if len(text) > limit:
                    changes.setdefault(i, {})[column] = cut(text)
    for i, changed in changes.items():
        rows[i] = rows[i]._replace(**changed)


def _cut_rows(rows: list[Any], table: Table) -> None:
    """Cut the long texts of `rows` in place, as _redact_rows does after redacting."""
    for column, limit, cut in table.cuts:
        for i, row in enumerate(rows):
            value = getattr(row, column)
            if value and len(value) > limit:
                rows[i] = row._replace(**{column: cut(value)})
