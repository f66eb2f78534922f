"""MediaWiki (Debian) as a corpus application: the wiki the end-to-end tests use (support/apps.py),
seeded here with articles in categories, a talk page and a second revision, and read on the pages
its editors work on (editing, history, special pages, preferences, administration)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..apps import MediaWiki, mediawiki
from .base import App, Page, apt_install, apt_missing

ARTICLES = {
    "Kettles": "A '''kettle''' boils water.\n\n== Kinds ==\n* Stovetop\n* Electric\n\n== Care ==\nDescale monthly."
               "\n\n{| class=\"wikitable sortable\"\n! Model !! Price !! Stock\n|-\n| Blue Kettle || 24.00 || 12\n|-\n"
               "| Steel Kettle || 31.50 || 4\n|-\n| Copper Kettle || 55.00 || 2\n|}\n\n[[Category:Kitchen]]",
    "Teapots": "A '''teapot''' brews tea. See [[Kettles]].\n\n== History ==\nOld.\n\n[[Category:Kitchen]]",
    "Oak trays": "Trays made of oak.\n\n[[Category:Dining]]",
    "Delivery": "We deliver on weekdays.\n\n== Costs ==\nFree over 40.",
    "Returns": "Returns within 30 days.",
    "Talk:Kettles": "Should we list induction kettles? ~~~~",
}
PACKAGES = ["mediawiki", "php-cli", "php-sqlite3", "php-intl", "php-xml", "php-mbstring"]


class _Running:
    def __init__(self, wiki: MediaWiki) -> None:
        self.wiki = wiki
        self.url = wiki.url
        self.user = wiki.admin
        self.password = wiki.password

    def login(self, page: Any) -> None:
        self.wiki.login(page)

    def pages(self) -> list[Page]:
        def t(title: str, query: str = "") -> str:
            return f"/index.php?title={title}{query}"

        def open_tools(page: Any) -> None:
            page.click("#vector-page-tools-dropdown-checkbox, #p-cactions-checkbox, #p-cactions label", timeout=5000)

        return [
            Page("main-page", t("Main_Page"), "view"),
            Page("article", t("Kettles"), "view"),
            Page("article-tools-menu", t("Kettles"), "view", open=open_tools),
            Page("edit", t("Kettles", "&action=edit"), "editor"),
            Page("edit-section", t("Kettles", "&action=edit&section=2"), "editor"),
            Page("new-page", t("Saucepans", "&action=edit"), "editor"),
            Page("history", t("Kettles", "&action=history"), "list"),
            Page("diff", t("Kettles", "&diff=cur&oldid=prev"), "view"),
            Page("talk", t("Talk:Kettles"), "view"),
            Page("info", t("Kettles", "&action=info"), "view"),
            Page("protect", t("Kettles", "&action=protect"), "form"),
            Page("delete", t("Returns", "&action=delete"), "form"),
            Page("move", t("Special:MovePage/Oak_trays"), "form"),
            Page("recent-changes", t("Special:RecentChanges"), "list"),
            Page("all-pages", t("Special:AllPages"), "list"),
            Page("search", t("Special:Search", "&search=kettle&fulltext=1"), "search"),
            Page("category", t("Category:Kitchen"), "list"),
            Page("special-pages", t("Special:SpecialPages"), "list"),
            Page("preferences", t("Special:Preferences"), "settings"),
            Page("preferences-editing", t("Special:Preferences", "#mw-prefsection-editing"), "settings"),
            Page("users", t("Special:ListUsers"), "list"),
            Page("user-rights", t("Special:UserRights/Admin"), "form"),
            Page("watchlist-edit", t("Special:EditWatchlist"), "form"),
        ]


def _missing() -> str | None:
    gone = apt_missing(PACKAGES)
    return f"Debian packages {' '.join(gone)}" if gone else None


def _install() -> None:
    apt_install(PACKAGES)


@contextmanager
def _start(data: Path) -> Iterator[_Running]:
    with mediawiki(data) as wiki:
        if wiki.page_text("Kettles") is None:
            for title, text in ARTICLES.items():
                if not title.startswith("Talk:"):
                    wiki.edit(title, text)
            wiki.edit("Talk:Kettles", ARTICLES["Talk:Kettles"])
            wiki.edit("Kettles", ARTICLES["Kettles"] + "\n\n== Brands ==\nSeveral.")  # a second revision
        yield _Running(wiki)


APP = App(name="mediawiki", kind="wiki", half="tune", built_from="Debian mediawiki 1.39 (PHP, SQLite)",
          missing=_missing, install=_install, start=_start)
