"""What reads as English on a page or a printed file that should be in another language
(issue 25): the check the language tests share."""

from __future__ import annotations

import re

from stsa import catalog, demo

# Words that only English uses among the three languages: two different ones in one text make
# it an English sentence ("is" is Swedish for ice and "on" French, so they are not here).
ENGLISH_ONLY = {"the", "and", "you", "your", "this", "that", "with", "from", "not", "have",
                "has", "will", "when", "which", "what", "there", "here", "been", "was", "were",
                "are", "of", "to", "can", "who", "it", "they", "their", "than", "then", "into",
                "only", "would", "should", "each", "every", "its", "these", "those", "yet",
                "no", "does", "did", "must", "may", "now", "nothing", "nobody"}
WORD = re.compile(r"[A-Za-zÀ-ÿ']+")


def as_printed() -> list[str]:
    """Names that stay as printed in every language: leaders, products, setups, the demo's
    players, longest first (so "Rise of Ix" goes before "Ix")."""
    names = {*catalog.leaders()["name"], *catalog.products()["name"],
             *catalog.products()["full_name"], *catalog.setups()["name"],
             *demo.DEMO_PLAYERS, *demo.DEMO_CLUBS, "DUNE: Imperium", "Battle of Wills"}
    return sorted((n for n in names if isinstance(n, str) and n), key=len, reverse=True)


def english_sentences(texts: list[str]) -> list[str]:
    """The texts that read as English: two different English-only words, names aside."""
    names = as_printed()
    found = []
    for text in texts:
        for line in str(text).splitlines():
            plain = line
            for name in names:
                plain = plain.replace(name, " ")
            words = {w.lower() for w in WORD.findall(plain)}
            if len(words & ENGLISH_ONLY) >= 2:
                found.append(line[:140])
    return found
