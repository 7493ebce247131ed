"""Moderation tunables, read in one place from ``settings.KOZEL_MODERATION`` (the
kozel_site/appconf.py accessor style): every key has its default and its meaning here;
settings override only what they change, read at call time (``override_settings`` works).
"""

from __future__ import annotations

from typing import Any

from kozel_site.appconf import DictSettings

DEFAULTS: dict[str, Any] = {
    # Reports: at most this many per reporter per hour, and one open report per
    # reporter, reported player and category (a second one is refused, not duplicated).
    "REPORTS_PER_HOUR": 10,
    # Chat lines kept as a report's context on each side of the reported line (or the
    # latest lines of the table when no line is named).
    "CONTEXT_CHAT_LINES": 10,
    # A warning is shown on every page for this many days.
    "WARN_DAYS": 7,
    # The longest mute, ranked ban and suspension a moderator may give (a suspension
    # may also be for good).
    "MAX_MUTE_HOURS": 24 * 30,
    "MAX_BAN_DAYS": 365,
    "MAX_SUSPEND_DAYS": 365,
    # Automatic escalation for repeated abandonment (lichess's playban): a player who
    # left or timed out of ranked series (a bot took the seat: Conduct "abandon") in
    # more than ABANDON_FREE series within ABANDON_WINDOW_DAYS gets a ranked ban; the
    # first such ban lasts ABANDON_BAN_MINUTES[0], the next [1], ... (the last repeats).
    # With the defaults: the 3rd abandonment in a week bans for 10 minutes, the 4th for
    # an hour, the 5th and every later one for a day.
    "ABANDON_WINDOW_DAYS": 7,
    "ABANDON_FREE": 2,
    "ABANDON_BAN_MINUTES": [10, 60, 24 * 60],
    # The chat filter, per language the site speaks (settings.LANGUAGES; a system check
    # wants every one). "block": a line containing one is refused with a reason;
    # "flag": it is posted and filed as a report for review. An entry is a word (matched
    # as a whole word after folding case, accents, look-alike letters, separators and
    # repeated letters) or, prefixed "re:", a regular expression on the folded text.
    # Every language's lists apply to every line, whatever the table's language.
    "CHAT_FILTER": {
        "en": {
            "block": ["fuck", "re:fuck\\w*", "cunt", "nigger", "re:nigg\\w*", "faggot",
                      "retard", "kys", "kill yourself"],
            "flag": ["idiot", "moron", "stupid", "loser", "noob", "cheater", "re:cheat\\w*"],
        },
        "ru": {
            "block": ["re:ху[йяеёи]\\w*", "re:пизд\\w*", "re:еба\\w*", "re:ёба\\w*", "бля",
                      "блять", "сука", "re:пид[оа]р\\w*", "re:у?еб[оа]к\\w*"],
            "flag": ["дурак", "идиот", "тупой", "нуб", "лох", "re:читер\\w*"],
        },
        "eu": {
            "block": ["puta", "re:putakum\\w*", "kabroi", "re:zakil\\w*"],
            "flag": ["ergel", "txoro", "tontoa", "astoa"],
        },
        "mk": {
            "block": ["re:пичк\\w*", "курац", "курот", "re:еб[аеи]\\w*", "курва"],
            "flag": ["глупак", "будала", "идиот", "кретен"],
        },
        "id": {
            "block": ["bangsat", "kontol", "memek", "re:ngentot\\w*", "bajingan", "pelacur"],
            "flag": ["bodoh", "goblok", "tolol", "anjing", "babi"],
        },
        "et": {
            "block": ["munn", "türa", "re:pers+e\\w*", "lits", "raisk"],
            "flag": ["loll", "idioot", "tola", "kurat", "debiilik"],
        },
        "sq": {
            "block": ["pidh", "qifsha", "qij", "re:kurv\\w*", "karin"],
            "flag": ["budalla", "idiot", "lopë", "gomar"],
        },
    },
    # Links in table chat: "block" (refused), "flag" (posted and reported) or "allow".
    "CHAT_LINKS": "block",
    "CHAT_LINK_PATTERNS": [
        "re:https?://",
        "re:www\\.",
        "re:\\b[a-z0-9-]+\\.(com|net|org|ru|su|io|gg|me|xyz|info|biz|ly|to|cc|tk)\\b",
        "re:t\\.me/",
    ],
}


class ModerationSettings(DictSettings):
    """Typed accessors over ``settings.KOZEL_MODERATION``."""

    setting = "KOZEL_MODERATION"
    defaults = DEFAULTS


moderation_settings = ModerationSettings()
