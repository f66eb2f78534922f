"""WordPress (Debian) as a corpus application: the blog the end-to-end tests use (support/apps.py),
seeded here with posts in categories and tags, pages, comments awaiting moderation and a few users,
and read on its admin pages (lists, the block editor, settings, media, users)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..apps import WordPress, wordpress
from .base import App, Page, apt_install, apt_missing

POSTS = [("Choosing a kettle", "Kitchen"), ("Ten teapots compared", "Kitchen"), ("How we pack your order", "News"),
         ("Summer opening hours", "News"), ("Caring for cast iron", "Kitchen"), ("Linen or cotton?", "Dining"),
         ("Our new oak trays", "Dining"), ("A guide to loose-leaf tea", "Kitchen"), ("Meet the makers", "News"),
         ("Setting a table for six", "Dining"), ("Descaling without vinegar", "Kitchen"), ("Gift cards are here", "News")]
PEOPLE = [("ann", "Ann Lee", "editor"), ("bob", "Bob Stone", "author"), ("cleo", "Cleo Park", "subscriber")]

_SEED = """
if (!get_page_by_title('About us', OBJECT, 'page')) {
  foreach (json_decode(getenv('HEYBRO_SEED_POSTS'), true) as $i => $p) {
    $cat = term_exists($p[1], 'category') ?: wp_insert_term($p[1], 'category');
    $id = wp_insert_post(['post_title' => $p[0], 'post_status' => $i % 5 == 4 ? 'draft' : 'publish',
      'post_content' => "<!-- wp:paragraph --><p>{$p[0]}: notes from the shop.</p><!-- /wp:paragraph -->",
      'post_category' => [is_array($cat) ? $cat['term_id'] : $cat], 'tags_input' => ['shop', strtolower($p[1])],
      'post_date' => gmdate('Y-m-d H:i:s', time() - 86400 * (20 - $i))]);
    if ($i < 6) wp_insert_comment(['comment_post_ID' => $id, 'comment_author' => ['Jane Doe', 'Sam Roe', 'Lee Fox'][$i % 3],
      'comment_author_email' => 'reader@example.com', 'comment_content' => "Lovely post about {$p[0]}.",
      'comment_approved' => $i % 2 ? 1 : 0]);
  }
  foreach (['About us', 'Delivery', 'Returns', 'Contact'] as $t)
    wp_insert_post(['post_title' => $t, 'post_type' => 'page', 'post_status' => 'publish',
      'post_content' => "<!-- wp:paragraph --><p>$t.</p><!-- /wp:paragraph -->"]);
  foreach (json_decode(getenv('HEYBRO_SEED_PEOPLE'), true) as $u)
    wp_insert_user(['user_login' => $u[0], 'display_name' => $u[1], 'user_email' => "$u[0]@example.com",
      'user_pass' => 'heybro-user-pass-1', 'role' => $u[2]]);
}
echo "ok";
"""


class _Running:
    def __init__(self, wp: WordPress) -> None:
        self.wp = wp
        self.url = wp.url
        self.user = wp.admin
        self.password = wp.password

    def login(self, page: Any) -> None:
        self.wp.login(page)

    def pages(self) -> list[Page]:
        first_post = self.wp.sql("SELECT ID FROM wp_posts WHERE post_type='post' AND post_status='publish' ORDER BY ID LIMIT 1")[0][0]
        user = self.wp.sql("SELECT ID FROM wp_users WHERE user_login='bob'")[0][0]

        def hover_row(page: Any) -> None:
            page.hover("#the-list tr:first-child .row-title")

        def bulk_menu(page: Any) -> None:
            page.select_option("#bulk-action-selector-top", "trash")

        return [
            Page("dashboard", "/wp-admin/", "view"),
            Page("posts", "/wp-admin/edit.php", "list"),
            Page("posts-hover-row", "/wp-admin/edit.php", "list", open=hover_row),
            Page("posts-drafts", "/wp-admin/edit.php?post_status=draft&post_type=post", "list"),
            Page("posts-search", "/wp-admin/edit.php?s=kettle", "search"),
            Page("posts-bulk-chosen", "/wp-admin/edit.php", "list", open=bulk_menu),
            Page("post-edit", f"/wp-admin/post.php?post={first_post}&action=edit", "editor", ready=".editor-post-title, .wp-block-post-title"),
            Page("post-new", "/wp-admin/post-new.php", "editor", ready=".editor-post-title, .wp-block-post-title"),
            Page("pages", "/wp-admin/edit.php?post_type=page", "list"),
            Page("categories", "/wp-admin/edit-tags.php?taxonomy=category", "form"),
            Page("tags", "/wp-admin/edit-tags.php?taxonomy=post_tag", "form"),
            Page("comments", "/wp-admin/edit-comments.php", "list"),
            Page("comments-pending", "/wp-admin/edit-comments.php?comment_status=moderated", "list"),
            Page("media", "/wp-admin/upload.php?mode=list", "list"),
            Page("media-new", "/wp-admin/media-new.php", "form"),
            Page("users", "/wp-admin/users.php", "list"),
            Page("user-edit", f"/wp-admin/user-edit.php?user_id={user}", "form"),
            Page("user-new", "/wp-admin/user-new.php", "form"),
            Page("profile", "/wp-admin/profile.php", "settings"),
            Page("settings-general", "/wp-admin/options-general.php", "settings"),
            Page("settings-reading", "/wp-admin/options-reading.php", "settings"),
            Page("settings-discussion", "/wp-admin/options-discussion.php", "settings"),
            Page("tools", "/wp-admin/tools.php", "view"),
        ]


PACKAGES = ["wordpress", "wordpress-theme-twentytwentythree", "mariadb-server", "mariadb-client", "php-cli",
            "php-mysql", "php-gd", "php-intl", "php-xml", "php-mbstring"]


def _missing() -> str | None:
    gone = apt_missing(PACKAGES)
    return f"Debian packages {' '.join(gone)}" if gone else None


def _install() -> None:
    apt_install(PACKAGES)


@contextmanager
def _start(data: Path) -> Iterator[_Running]:
    with wordpress(data) as wp:
        wp._env.update({"HEYBRO_SEED_POSTS": json.dumps(POSTS), "HEYBRO_SEED_PEOPLE": json.dumps(PEOPLE)})
        wp.php(_SEED)
        yield _Running(wp)


APP = App(name="wordpress", kind="blog / CMS", half="tune", built_from="Debian wordpress 6.1 (PHP, MariaDB)",
          missing=_missing, install=_install, start=_start)
