"""What the pages' forms need to ask as the store checks it: the longest texts it keeps, the
words for a result's numbers, a whole number read as the store reads it, and a list in words.
One home for each, so a form and the check behind it never disagree."""

from __future__ import annotations

from stsa.store import checks, corrections, schedule

NUMBER_WORDS = checks.NUMBER_WORDS  # a result's numbers in words, for messages (R11, R12)
RULE_CHANGE_LIMITS = checks.RULE_CHANGE_LIMITS  # the characters a rule change keeps (R24)
TITLE_MAX = schedule.TITLE_MAX  # the characters a schedule item's title keeps (R26)
MAX_REASON = corrections.MAX_REASON  # the characters the log keeps of a correction's reason
whole_number = checks.whole_number  # a whole number as the store reads one, else None
and_list = checks.and_list  # "a, b and c", in the language shown
