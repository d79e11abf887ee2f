"""Error messages of other languages, in English: the translations of the messages most
often pasted, as the programs print them in a user's own locale.

A signature is an error's English message with its names replaced (pastfix.signatures).
The same error printed under LANG=de_DE.UTF-8 (`bash: Zeile 1: python: Kommando nicht
gefunden.`) or fr_FR (`fatal : La branche courante main n'a pas de branche amont.`) shared
no word with it, and was not seen before while the index held the English one and its fix
(a new user's tries, nu46 finding 2). in_english() gives such a line back in English words
before its signature is made, so that it is the English one's.

The table is small and holds facts: the templates each program's own translation prints
(its gettext catalogue: glibc 2.36, bash 5.2, coreutils 9.1, git 2.39 of Debian 12, each
checked by running the program with LANGUAGE set), in German, French, Spanish, Portuguese
(Portugal and Brazil), Italian, Russian, Japanese, Chinese (simplified and traditional) and
Korean, where the catalogue translates it:

- the end of a line, after its last `: `: the C library's words for an OS error (`No such
  file or directory`, `Permission denied`, `Not a directory`, `Is a directory`), which every
  program prints after the file it could not use (`cat: x: Datei oder Verzeichnis nicht
  gefunden`), and bash's `command not found`;
- before them, where they were said: bash's `line N` (`bash: строка 1: pip: команда не
  найдена`, `bash: 第 1 行：cd: x: 没有那个文件或目录`) and coreutils' `cannot access` and
  `cannot stat` (`ls: Zugriff auf 'x' nicht möglich: ...`);
- git's fatal and error lines pasted most often: `The current branch X has no upstream
  branch.`, `not a git repository (or any of the parent directories): X` and `pathspec 'X'
  did not match any file(s) known to git` (`git add`'s: `... any files`), after git's
  `fatal: ` or `error: ` in its words (`Schwerwiegend: `, `fatal : `, `致命错误：`);
- Windows cmd.exe's `'x' is not recognized as an internal or external command,` (the first
  line of its message, `Der Befehl "x" ist entweder falsch geschrieben oder`), in German,
  French, Spanish, Italian, Portuguese (Brazil), Russian, Japanese, Chinese (simplified and
  traditional) and Korean: Windows' own words, confirmed in real outputs and its catalogue
  (_CMD_NOT_RECOGNIZED).
- PowerShell's `The term 'x' is not recognized as a name of a cmdlet, ...` in PowerShell 7's
  thirteen languages, its own resource strings, and Windows PowerShell 5.1's German and
  French (_POWERSHELL_NOT_RECOGNIZED): PowerShell 7 prints no error record under it; and so
  its `Cannot find path 'X' because it does not exist.` (PathNotFound, of Get-Content,
  Set-Location, Remove-Item) in its thirteen languages (_POWERSHELL_PATH_NOT_FOUND). Windows
  PowerShell's other messages need no table: its error record's id and category stay
  English, and make its English message (pastfix.signatures._record_in_english).

What the corpora hold: of the 1,050 failed results of the real corpus and held-out sets
30-40, none is one of these in another language, nor any other program's message in a
catalogue's words (two are a Chinese Windows tool's, its GBK bytes read as another code page);
Russian bash's `bash: строка 1: pip: команда не найдена` is in one successful result. Their
users of other languages (Korean, Chinese, Japanese, French, Russian, Portuguese) mostly ran
tools that print English (macOS's zsh and BSD tools have no translations), though some had a
locale set (`ls` dating files `9月`, `févr.`, `오전`). So this is for a paste, and the hook, of a
user whose shell speaks their language.

Cost: a line costs a check that it is ASCII, one of its start against git's prefixes, one
search of its end for `: ` (and `：`) and, when what follows is short enough, one dictionary
look-up: under a microsecond; a line with a letter that is no ASCII (or German 5.1's `Die
Benennung`, PathNotFound's `Der Pfad` and `No se encuentra la ruta de acceso`) one search
more, for PowerShell's messages. signature() asks it of about 5 lines a
failure (_score of its window's lines, normalise of its key line): 4 ms over those 1,050
failures (signature() of them all, best of three, before PowerShell's table and after, in
turn: 0.055 and 0.049 s, 0.106 and 0.100, 0.116 and 0.089 on a shared machine; the same
signatures; with PathNotFound's table, the 1,010 failures of the real corpus and held-out
sets 30-39: 0.034 and 0.041 s, 0.056 and 0.054, the same signatures). Only a line found
there is read further; a git error line is
matched once against every translation of _GIT.
"""

from __future__ import annotations

import functools
import re

from pastfix.patterns import lazy

# English message -> its translations (a whole end of a line, compared case-folded, without
# a full stop after it: German bash's `Kommando nicht gefunden.`).
_ENDS = {
    "No such file or directory": (
        "Datei oder Verzeichnis nicht gefunden",
        "Aucun fichier ou dossier de ce type",
        "No existe el fichero o el directorio",
        "Ficheiro ou pasta inexistente",
        "Arquivo ou diretório inexistente",
        "File o directory non esistente",
        "Нет такого файла или каталога",
        "そのようなファイルやディレクトリはありません",
        "没有那个文件或目录",
        "沒有此一檔案或目錄",
        "그런 파일이나 디렉터리가 없습니다",
    ),
    "Permission denied": (
        "Keine Berechtigung",
        "Permission non accordée",
        "Permiso denegado",
        "Permissão recusada",
        "Permissão negada",
        "Permesso negato",
        "Отказано в доступе",
        "許可がありません",
        "权限不够",
        "拒絕不符權限的操作",
        "허가 거부",
    ),
    "Not a directory": (
        "Ist kein Verzeichnis",
        "N'est pas un dossier",
        "No es un directorio",
        "Não é pasta",
        "Não é um diretório",
        "Non è una directory",
        "Это не каталог",
        "ディレクトリではありません",
        "不是目录",
        "並不是一個目錄",
        "디렉터리가 아닙니다",
    ),
    "Is a directory": (
        "Ist ein Verzeichnis",
        "est un dossier",
        "Es un directorio",
        "É pasta",
        "É um diretório",
        "È una directory",
        "Это каталог",
        "ディレクトリです",
        "是一个目录",
        "是個目錄",
        "디렉터리입니다",
    ),
    # bash's `%s: command not found`
    "command not found": (
        "Kommando nicht gefunden",
        "commande introuvable",
        "orden no encontrada",
        "comando não encontrado",
        "comando non trovato",
        "команда не найдена",
        "コマンドが見つかりません",
        "未找到命令",
        "指令找不到",
        "명령어를 찾을 수 없음",
    ),
}
_ENGLISH_END = {said.casefold(): english for english, each in _ENDS.items() for said in each}
_COMMAND_NOT_FOUND = "command not found"
# (an end longer than every translation is none: `: `, a space, a full stop and the words)
_LONGEST_END = max(map(len, _ENGLISH_END)) + 4

# Where bash said it: its `line N` (`%s: line %d: `, and its builtins' own order: French
# `ligne 1 : cd:`, Japanese `1 行: `, Chinese `第 1 行：`, traditional `第 1 列：`, Korean
# `행 1번: `; Brazilian scripts' `x.sh, linha 3: `).
_BASH_LINE = lazy(
    r"^(?P<who>[^\s:,]+)[:,] (?:(?:Zeile|ligne|línea|linha|riga|строка|行|列|줄|행|第) ?(?P<n>\d+)"
    r"(?: ?[行列]|번)?|(?P<m>\d+) ?行)[ \xa0]?[:：] ?"
)
# coreutils' words before an OS error: what it could not do with the file (`ls: cannot access
# 'x': ...`, `cp: cannot stat 'x': ...`), by the program's name.
_COREUTILS = {
    "cannot access": (
        "Zugriff auf {} nicht möglich",
        "impossible d'accéder à {}",
        "no se puede acceder a {}",
        "impossível aceder a {}",
        "não foi possível acessar {}",
        "impossibile accedere a {}",
        "невозможно получить доступ к {}",
        "{} にアクセスできません",
        "无法访问 {}",
        "無法存取 {}",
        "{}에 접근할 수 없음",
    ),
    "cannot stat": (
        "der Aufruf von stat für {} ist nicht möglich",
        "impossible d'évaluer {}",
        "no se puede efectuar `stat' sobre {}",
        "impossível obter informação para {}",
        "não foi possível obter estado de {}",
        "impossibile eseguire stat di {}",
        "не удалось выполнить stat для {}",
        "{} を stat できません",
        "对 {} 调用 stat 失败",
        "無法取得 {} 的資訊",
        "{} 상태 정보 확인 불가",
    ),
}

# git's `fatal: ` and `error: ` in its words.
_GIT_FATAL = ("fatal: ", "fatal : ", "fatal\xa0: ", "Schwerwiegend: ", "致命错误：", "致命錯誤: ")
_GIT_ERROR = ("error: ", "Fehler: ", "erreur : ", "erreur\xa0: ", "错误：", "錯誤: ")
_GIT_PREFIXES = _GIT_FATAL + _GIT_ERROR
_GIT_PREFIXES_ASCII = tuple(prefix for prefix in _GIT_PREFIXES if prefix.isascii())
_QUOTES = "'\"«»“”„‘’"
# git's messages, `{}` for the name each names; the English first.
_GIT = {
    "The current branch {} has no upstream branch.": (
        "Der aktuelle Branch {} hat keinen Upstream-Branch.",
        "La branche courante {} n'a pas de branche amont.",
        "La rama actual {} no tiene una rama upstream.",
        "当前分支 {} 没有对应的上游分支。",
        "目前分支 {} 沒有上游分支。",
    ),
    "not a git repository (or any of the parent directories): {}": (
        "Kein Git-Repository (oder irgendeines der Elternverzeichnisse): {}",
        "ni ceci ni aucun de ses répertoires parents n'est un dépôt git : {}",
        "no es un repositorio git (ni ninguno de los directorios superiores): {}",
        "é repositório git nenhum (ou qualquer pasta parente): {}",
        "{} non è un repository Git (né lo è alcuna delle directory genitrici)",
        "не найден git репозиторий (или один из родительских каталогов): {}",
        "不是 git 仓库（或者任何父目录）：{}",
        "不是一個 git 版本庫（或者任何父目錄）：{}",
        "(현재 폴더 또는 상위 폴더 중 일부가) 깃 저장소가 아닙니다: {}",
    ),
    "pathspec {} did not match any file(s) known to git": (
        "Pfadspezifikation {} stimmt mit keinen Git bekannten Dateien überein",
        "le spécificateur de chemin {} ne correspond à aucun fichier connu de git",
        "ruta especificada {} no concordó con ningún archivo conocido por git",
        "espetro-caminho {} correspondeu a ficheiro(s) nenhum(s) conhecido pelo git",
        "lo specificatore percorso {} non corrisponde ad alcun file noto a git",
        "路径规格 {} 未匹配任何 git 已知文件",
        "路徑規格 {} 未符合任何 git 已知檔案",
    ),
    # `git add`'s
    "pathspec {} did not match any files": (
        "Pfadspezifikation {} stimmt mit keinen Dateien überein",
        "le chemin {} ne correspond à aucun fichier",
        "ruta especificada {} no concordó con ningún archivo",
        "especificador de path {} correspondeu a ficheiro nenhum",
        "lo specificatore percorso {} non corrisponde ad alcun file",
        "спецификатор пути {} не соответствует ни одному файлу",
        "路径规格 {} 未匹配任何文件",
        "路徑規格 {} 未符合任何檔案",
        "{} 경로명세가 어떤 파일과도 일치하지 않습니다",
    ),
}


# cmd.exe's `'%1' is not recognized as an internal or external command,` (its message 9009's
# first line; the rest, `operable program or batch file.`, is on the next in most languages,
# which cmd prints as its catalogue has it: `Der Befehl "python" ist entweder falsch
# geschrieben oder` / `konnte nicht gefunden werden.`) in each language's words up to where
# its line may break, `{}` the quoted name (each language quotes it its own way: `"python"`,
# `'python'`). As Windows prints them, checked against real outputs pasted in public
# repositories (German, Spanish, Italian, Portuguese of Brazil, Japanese, Chinese) and cmd.exe's
# French catalogue (cmd.exe.mui); Russian's first words are a public page's. Korean's and
# traditional Chinese's, last, as real sessions pasted in public repositories print them
# (`C:\project\maisy-python>virtualenv venv` then `'virtualenv'은(는) 내부 또는 외부 명령,
# 실행할 수 있는 프로그램, 또는` / `배치 파일이 아닙니다.`, in several; `C:\Users\User\Desktop\
# wp1141>install.bat` then `'install.bat' 不是內部或外部命令、可執行的程式或批次檔。`, as
# Microsoft's zh-TW C++ docs quote cl's).
_CMD_NOT_RECOGNIZED = (
    "Der Befehl {} ist entweder falsch geschrieben oder",
    "{} n'est pas reconnu en tant que commande interne",
    "{} n’est pas reconnu en tant que commande interne",
    "{} no se reconoce como un comando interno o externo",
    "{} non è riconosciuto come comando interno o esterno",
    "{} não é reconhecido como um comando interno",
    "{} не является внутренней или внешней",
    "{} は、内部コマンドまたは外部コマンド",
    "{} 不是内部或外部命令",
    "{}은(는) 내부 또는 외부 명령",
    "{} 不是內部或外部命令",
)
_CMD_NOT_RECOGNIZED_EN = "'{}' is not recognized as an internal or external command,"
# (what each starts with: a quote, or German's words, in either case as reports_no_error
# reads a text lower-cased)
_CMD_GERMAN = "der befehl "


# PowerShell's `The term '%s' is not recognized as a name of a cmdlet, function, script file,
# or executable program.` (CommandNotFoundException) in each language's words up to where its
# line may break, `{}` the name, with the quotes each language puts round it. PowerShell 7's
# are its own resource strings, in PowerShell's public repository
# (src/System.Management.Automation/resources/<lang>/DiscoveryExceptions.<lang>.resx, commit
# 92990369 of 2026-08-20, the translations checked in by its localization build): PowerShell 7
# prints no error record under its message (`python: Der Begriff „python“ wird nicht als Name
# eines Cmdlets, ... erkannt.`), whose English id would say which error it is
# (signatures._record_in_english). Windows PowerShell 5.1's German and French, last, are as
# real outputs pasted in public repositories print them (with their records).
_POWERSHELL_NOT_RECOGNIZED = (
    "Der Begriff „{}“ wird nicht als Name eines Cmdlets",
    'El término "{}" no se reconoce como nombre de un cmdlet',
    "Le terme « {} » n’est pas reconnu comme nom d’applet de commande",
    "Il termine '{}' non è riconosciuto come nome di un cmdlet",
    "用語 '{}' は、コマンドレット、関数、スクリプト ファイル",
    "'{}' 용어는 cmdlet, 함수, 스크립트 파일",
    "Termin „{}” nie jest rozpoznawany jako nazwa polecenia cmdlet",
    'O termo "{}" não é reconhecido como um nome de um cmdlet',
    'Термин "{}" не распознается как имя',
    "'{}' terimi bir cmdlet, işlev, betik dosyası",
    "术语 '{}' 不会被识别为 cmdlet",
    "無法將 '{}' 字詞辨識為 Cmdlet",
    "Výraz {} nebyl rozpoznán jako název rutiny",
    'Die Benennung "{}" wurde nicht als Name eines Cmdlet',
    "Le terme «{}» n'est pas reconnu comme nom d'applet de commande",
)
_POWERSHELL_NOT_RECOGNIZED_EN = (
    "The term '{}' is not recognized as a name of a cmdlet, function, script file, or executable"
    " program."
)
# PowerShell 7's `Cannot find path '%s' because it does not exist.` (ItemNotFoundException,
# FullyQualifiedErrorId PathNotFound: Get-Content, Set-Location, Remove-Item of a path not
# there) in each language's words to its end, `{}` the path, from the same commit's
# resources/<lang>/SessionStateStrings.<lang>.resx (UtilityCommonStrings' PathDoesNotExist,
# the same English, has the same words but in Turkish). As its message above, printed with
# no record under it (`Get-Content: Der Pfad "C:\x\a.json" wurde nicht gefunden, da er
# nicht vorhanden ist.`); Windows PowerShell 5.1's, another German (`... kann nicht gefunden
# werden, ...`), comes with its record (signatures._record_in_english). A path may hold a
# space (`C:\Program Files\x`): it is all up to the closing quote, or, unquoted (Czech),
# up to the words after it.
_POWERSHELL_PATH_NOT_FOUND = (
    "Cesta {} se nenašla, protože neexistuje.",
    'Der Pfad "{}" wurde nicht gefunden, da er nicht vorhanden ist.',
    "No se encuentra la ruta de acceso '{}' porque no existe.",
    "Impossible de trouver le chemin d'accès «\xa0{}\xa0», car il n'existe pas.",
    "Non è possibile trovare il percorso '{}' perché non esiste.",
    "パス '{}' は存在しないため、見つかりません。",
    "경로 '{}'이(가) 없으므로 찾을 수 없습니다.",
    "Nie można odnaleźć ścieżki „{}”, ponieważ nie istnieje.",
    "Não é possível localizar o caminho '{}' porque ele não existe.",
    'не удается найти путь "{}", поскольку он не существует.',
    "‘{}' yolu mevcut olmadığından bulunamıyor.",
    "找不到路径“{}”，因为该路径不存在。",
    "找不到路徑 '{}'，因為它不存在。",
)
_POWERSHELL_PATH_NOT_FOUND_EN = "Cannot find path '{}' because it does not exist."
# Each of PowerShell's messages above: its translations, its English, and what its `{}` may
# be (a command's name has no space; a path may, and its quotes or next words end it).
_POWERSHELL = (
    (_POWERSHELL_NOT_RECOGNIZED, _POWERSHELL_NOT_RECOGNIZED_EN, f"[^{_QUOTES}\\s]+"),
    (_POWERSHELL_PATH_NOT_FOUND, _POWERSHELL_PATH_NOT_FOUND_EN, f"[^{_QUOTES}\\n]+?"),
)
# (the words before the name of those whose first line may be all ASCII, German 5.1's and the
# path's German and Spanish: the others hold a letter that is no ASCII, so an ASCII line
# needs no search for them)
_POWERSHELL_ASCII_HEADS = tuple(
    each.split("{}")[0].strip(_QUOTES + " ")
    for all_said, _, _ in _POWERSHELL
    for each in all_said
    if each.isascii()
)


def _template(said: str, name: str = "name") -> str:
    """A translated template as a pattern: `{}` the name, any space where it has one (French
    puts a no-break space before a colon), its first letter of either case (`la branche
    courante`, as a newer catalogue or a paste may have it)."""
    parts = [
        "".join(r"[ \xa0]" if char in " \xa0" else re.escape(char) for char in part)
        for part in said.split("{}")
    ]
    if said[:1].isalpha():
        parts[0] = f"[{said[0].lower()}{said[0].upper()}]{parts[0][1:]}"
    return f"(?P<{name}>.+?)".join(parts)


@functools.cache
def _git() -> tuple[re.Pattern[str], tuple[str, ...]]:
    """One pattern of every translation of _GIT (one match of a line, not one a template:
    an English `fatal: ` line is tried against them all), each its name in `n<i>`, and the
    English of each."""
    said = [(english, each) for english, all_said in _GIT.items() for each in all_said]
    pattern = "|".join(f"(?:{_template(each, f'n{i}')})" for i, (_, each) in enumerate(said))
    return lazy(f"(?:{pattern})\\s*$"), tuple(english for english, _ in said)


@functools.cache
def _coreutils() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple(
        (lazy(r"(?P<who>[\w.-]+): " + _template(said) + "$"), english)
        for english, each in _COREUTILS.items()
        for said in each
    )


@functools.cache
def _cmd() -> re.Pattern[str]:
    """One pattern of every translation of cmd.exe's message (_CMD_NOT_RECOGNIZED: one match
    of a line, not one a translation), at a line's start, each its quoted name in `n<i>`, in
    any case (German's words lower-cased, as reports_no_error reads them)."""
    quote = f"[{_QUOTES}]"
    return lazy(
        "|".join(
            f"{quote}(?P<n{i}>[^{_QUOTES}\\s]+){quote}".join(map(re.escape, each.split("{}")))
            for i, each in enumerate(_CMD_NOT_RECOGNIZED)
        ),
        re.IGNORECASE,
    )


@functools.cache
def _powershell() -> tuple[re.Pattern[str], tuple[str, ...]]:
    """One pattern of every translation of PowerShell's messages (_POWERSHELL), searched for
    in a line (after its command's `python: `, `Get-Content: `), each its name or path in
    `n<i>`, and the English of each: any quote of one language for another's (`"`, `„`,
    `“`), any space for French's no-break ones (`« python »`), either apostrophe (`n’est`,
    `n'est`)."""

    def words(part: str) -> str:
        said = ""
        for char in part:
            if char in _QUOTES:
                said += f"[{_QUOTES}]"
            elif char in " \xa0\u202f":
                said += "[ \xa0\u202f]"
            else:
                said += re.escape(char)
        return said

    said = [(each, english, name) for all_said, english, name in _POWERSHELL for each in all_said]
    pattern = "|".join(
        f"(?P<n{i}>{name})".join(map(words, each.split("{}")))
        for i, (each, _, name) in enumerate(said)
    )
    return lazy(pattern), tuple(english for _, english, _ in said)


# The patterns above, made from the tables at their first use, are lazy ones as well: their
# compiled form is kept for the next process (pastfix.patterns), where re compiled them in
# each process that read a line in another language or in git's words: ~40 ms, the
# PowerShell one 30 ms of it, in both processes of a bulk build. save_every() makes them.
BUILT_PATTERNS = (_git, _coreutils, _cmd, _powershell)


def _powershell_in_english(line: str) -> str:
    pattern, english = _powershell()
    said = pattern.search(line)
    if not said or not said.lastgroup:
        return line
    which = said.lastgroup
    return line[: said.start()] + english[int(which[1:])].format(said.group(which))


def _cmd_in_english(line: str) -> str:
    said = _cmd().match(line)
    if not said:
        return line
    return _CMD_NOT_RECOGNIZED_EN.format(next(name for name in said.groups() if name))


def in_english(line: str) -> str:
    """`line` in English words where it is one of the messages above in another language
    (`bash: Zeile 1: python: Kommando nicht gefunden.`: `bash: line 1: python: command not
    found`), else `line` itself."""
    # (an ASCII line is compared with ASCII words only: a search for `：` or a prefix of other
    # letters in it costs more than all the rest)
    ascii = line.isascii()
    if line.startswith(_GIT_PREFIXES_ASCII if ascii else _GIT_PREFIXES):
        return _git_in_english(line)
    if line[:1] in _QUOTES or line[:11].lower() == _CMD_GERMAN:
        return _cmd_in_english(line)
    if (not ascii or any(head in line for head in _POWERSHELL_ASCII_HEADS)) and (
        powershell := _powershell_in_english(line)
    ) != line:
        return powershell
    cut = line.rfind(": ") if ascii else max(line.rfind(": "), line.rfind("："))
    if cut < 0 or len(line) - cut > _LONGEST_END:
        return line
    english = _ENGLISH_END.get(line[cut + 1 :].strip(" \xa0.").casefold())
    if english is None:
        return line
    head = line[:cut].rstrip(" \xa0")
    if said := _BASH_LINE.match(head):
        number = said.group("n") or said.group("m")
        head = f"{said.group('who')}: line {number}: {head[said.end() :]}"
    elif english != _COMMAND_NOT_FOUND and " " in head:
        # (coreutils' words are some, `ls: Zugriff auf 'x' nicht möglich`: a file's name
        # alone, `cat: x`, is one)
        for pattern, words in _coreutils():
            if done := pattern.match(head):
                head = f"{done.group('who')}: {words} {done.group('name')}"
                break
    return f"{head}: {english}"


def _git_in_english(line: str) -> str:
    fatal = line.startswith(_GIT_FATAL)
    prefix = next(p for p in (_GIT_FATAL if fatal else _GIT_ERROR) if line.startswith(p))
    pattern, english = _git()
    said = pattern.match(line, len(prefix))
    if not said:
        return line
    i, name = next((i, name) for i, name in enumerate(said.groups()) if name is not None)
    if name[:1] in _QUOTES and name[-1:] in _QUOTES:
        name = f"'{name[1:-1]}'"  # git's quotes in English (`«x»`, `“x”`)
    return ("fatal: " if fatal else "error: ") + english[i].format(name)
