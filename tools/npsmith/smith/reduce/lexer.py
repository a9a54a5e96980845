"""Tokens of NPL (compiler/frontend/NPL.g4) for the reducer's parser.

The reducer rebuilds programs from a tree, so it needs every token the
compiler's lexer knows, with the same longest-match rule: `18.26.4.0/24`
is one prefix literal, `10ms` one duration, `00:00:c0:ae:67:ef` one MAC
address, while `c ? 1:2` stays a conditional. Comments are recognised and
dropped: a reduced program carries none.
"""

import re

# Candidates for a token at one position; the longest match wins, the
# first listed on a tie (as ANTLR orders lexer rules).
_RULES = [
    ("PREFIX", re.compile(r"\d+\.\d+\.\d+\.\d+/\d+")),
    ("IPV4", re.compile(r"\d+\.\d+\.\d+\.\d+")),
    ("MAC", re.compile(r"[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}")),
    ("DURATION", re.compile(r"[0-9][0-9_]*(?:ms|us|ns|s)")),
    ("INT", re.compile(r"0x[0-9a-fA-F_]+|0b[01_]+|[0-9][0-9_]*")),
    ("STRING", re.compile(r'"(?:[^"\\\r\n]|\\.)*"')),
    ("ID", re.compile(r"[a-zA-Z_][a-zA-Z_0-9]*")),
]
_SPACE = re.compile(r"[ \t\r\n]+")
_LINE_COMMENT = re.compile(r"//[^\r\n]*")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_PUNCT = sorted("""<<= >>= ... -> => .. == != <= >= && || << >> += -= *= &=
|= ^= { } ( ) [ ] ; : , . = < > + - * / % & | ^ ! ~ ? @""".split(),
                key=len, reverse=True)

KEYWORDS = frozenset("""annotation as bound break case const continue element
else every fail false fn for graph handler header if import in init let match
out read recv return select shared signal state struct timer true unroll var
while write""".split())

LITERALS = frozenset(["PREFIX", "IPV4", "MAC", "DURATION", "INT", "STRING"])


class Token:
    """One token: its kind (a rule name, or the text for punctuation and
    keywords), its text and its 1-based line for error messages."""

    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line

    def __repr__(self):
        return f"Token({self.kind!r}, {self.text!r}, {self.line})"


class LexError(Exception):
    """A character no NPL token starts with."""


def tokenize(text):
    """The tokens of `text`, comments and white space dropped, ending with
    an EOF token."""
    tokens, pos, line = [], 0, 1
    while pos < len(text):
        skip = (_SPACE.match(text, pos) or _LINE_COMMENT.match(text, pos)
                or _BLOCK_COMMENT.match(text, pos))
        if skip:
            line += skip.group().count("\n")
            pos = skip.end()
            continue
        best = None
        for kind, rule in _RULES:
            m = rule.match(text, pos)
            if m and (best is None or len(m.group()) > len(best[1])):
                best = (kind, m.group())
        if best:
            kind, word = best
            if kind == "ID" and word in KEYWORDS:
                kind = word
            tokens.append(Token(kind, word, line))
            pos += len(word)
            continue
        for p in _PUNCT:
            if text.startswith(p, pos):
                tokens.append(Token(p, p, line))
                pos += len(p)
                break
        else:
            raise LexError(f"line {line}: unexpected character "
                           f"{text[pos]!r}")
    tokens.append(Token("EOF", "", line))
    return tokens
