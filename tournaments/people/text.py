"""A person's text as it is kept and shown (pure: no Django)."""

import unicodedata


def clean_text(value: str, *, one_line: bool = True) -> str:
    """A person's text as it is kept and shown: no invisible formatting character (a
    right-to-left override, a zero-width space, a byte-order mark: Unicode's "format" class,
    which would make a lobby screen or a receipt read other than what is stored), no control
    character (a line break in a name becomes a space; the notes keep theirs), spaces collapsed,
    the ends trimmed. The one place a person's text is cleaned, on creation and on correction."""
    if one_line and value.isascii() and value.isprintable():  # no format nor control character to look for
        return " ".join(value.split())
    kept = []
    for ch in value:
        kind = unicodedata.category(ch)
        if kind == "Cf":
            continue
        if kind == "Cc" and (one_line or ch not in "\n\t"):
            ch = " "
        kept.append(ch)
    text = "".join(kept)
    if one_line:
        return " ".join(text.split())
    return "\n".join(" ".join(line.split()) for line in text.replace("\r", "").split("\n")).strip()
