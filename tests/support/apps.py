"""Real web applications for end-to-end tests and benchmarks: WordPress and MediaWiki from Debian's
packages, each served by PHP's built-in server on 127.0.0.1 and a free port, with its data in a
throwaway folder made for this session and removed after.

    with wordpress() as wp:            # wp.url, wp.admin, wp.password, wp.login(page), wp.sql(q)
        ...
    with mediawiki() as wiki:          # wiki.url, wiki.login(page), wiki.edit(title, text),
        ...                            # wiki.page_text(title), wiki.sql(q)
    with running_apps() as apps:       # both: apps.wordpress, apps.mediawiki, apps.login(page),
        ...                            # apps.url("url:wordpress:/wp-admin/") -> its address

WordPress keeps its data in MariaDB: Debian's WordPress has no SQLite driver (the SQLite plugin is
not packaged), so a private `mariadbd` runs on a Unix socket in the session folder, with networking
off and no grant tables (nothing but this session can reach it). MediaWiki uses its own SQLite files.
Nothing is written outside the session folder, and nothing of the machine's own configuration of
the applications is read: WordPress runs from a hard-linked copy of /usr/share/wordpress (its
wp-config.php is ours); MediaWiki from a tree of links to /usr/share/mediawiki in the session
folder, less Debian's LocalSettings.php (a link to the machine's /etc/mediawiki, set up when the
machine serves a wiki of its own), with that tree as its install path and ours as its settings file.
`scripts/setup` installs the packages.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .servers import Process as _Process
from .servers import free_port as _free_port
from .servers import run as _run
from .servers import wait_http as _wait_http

WORDPRESS_SRC = Path("/usr/share/wordpress")
MEDIAWIKI_SRC = Path("/usr/share/mediawiki")
ADMIN, PASSWORD = "admin", "heybro-admin-pass-1"
PACKAGES = "wordpress mediawiki mariadb-server php-cli php-sqlite3 php-mysql php-gd php-intl " \
           "php-xml php-mbstring"


class AppsMissing(RuntimeError):
    """The Debian packages are not installed."""


def _need(path: Path | str, what: str) -> None:
    if not (Path(path).exists() if "/" in str(path) else shutil.which(str(path))):
        raise AppsMissing(f"{what} is missing ({path}): run scripts/setup, which installs {PACKAGES}")


def php_server(docroot: Path, port: int, log: Path, env: dict[str, str]) -> _Process:
    """PHP's built-in server with a few workers (the block editor loads many files at once)."""
    _need("php", "PHP's command line (php-cli)")
    return _Process.start(["php", "-d", "sendmail_path=/bin/true", "-d", "upload_max_filesize=16M",
                           "-d", "post_max_size=16M", "-S", f"127.0.0.1:{port}", "-t", str(docroot)],
                          log, env={"PHP_CLI_SERVER_WORKERS": "4", **env})


def php_script(path: Path, code: str, env: dict[str, str]) -> str:
    path.write_text(code)
    return _run(["php", "-d", "sendmail_path=/bin/true", str(path)], env)


def fill_login(page: Any, url: str, user: str, password: str, fields: tuple[str, str, str],
                landed: str) -> None:
    """Logs in through the application's own form (the test's set-up, not heybro acting). Tried
    twice: once, on a loaded machine, WordPress answered a right login with its login page again
    (cause not seen: the page was not kept); a second refusal is an error quoting what it said."""
    said = ""
    for _ in range(2):
        page.goto(url)
        page.fill(fields[0], user)
        page.fill(fields[1], password)
        with page.expect_navigation():
            page.click(fields[2])
        if landed in page.url:
            return
        said = " ".join(page.inner_text("body").split())[:300]
    raise RuntimeError(f"logging in as {user} at {url} ended on {page.url}: {said}")


# --- WordPress -----------------------------------------------------------------------------------

_WP_CONFIG = """<?php
// Written by heybro's test apps: every setting comes from the server's environment.
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:' . getenv('HEYBRO_WP_DB_SOCKET'));
define('DB_CHARSET', 'utf8mb4');
define('WP_HOME', getenv('HEYBRO_WP_URL'));
define('WP_SITEURL', getenv('HEYBRO_WP_URL'));
define('DISALLOW_FILE_MODS', true);        // never writes into its (hard-linked) files
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);     // no calls home from 127.0.0.1
define('DISABLE_WP_CRON', true);
$table_prefix = 'wp_';
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
"""

# Idempotent: an installed blog is left as it is. The block editor's first-run guide is marked as
# seen, as for a user who has used the editor before (it is a modal over the whole editor).
_WP_INSTALL = """<?php
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = '127.0.0.1';
require getenv('HEYBRO_WP_ROOT') . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
if (!is_blog_installed()) {
    $r = wp_install('Heybro Test Blog', getenv('HEYBRO_WP_ADMIN'), 'admin@example.com', false, '',
                    getenv('HEYBRO_WP_PASSWORD'));
    global $wpdb;
    update_user_meta($r['user_id'], $wpdb->get_blog_prefix() . 'persisted_preferences',
                     ['core/edit-post' => ['welcomeGuide' => false], '_modified' => gmdate('c')]);
}
echo "ok\\n";
"""


def _link_tree(src: Path, dst: Path) -> None:
    """A copy of a read-only tree in no time and no space: hard links (a copy across devices)."""
    try:
        shutil.copytree(src, dst, symlinks=True, copy_function=os.link)
    except (OSError, shutil.Error):
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst, symlinks=True)


@dataclass
class WordPress:
    url: str
    root: Path
    socket: Path
    admin: str = ADMIN
    password: str = PASSWORD
    _env: dict[str, str] = field(default_factory=dict, repr=False)

    def sql(self, query: str) -> list[list[str]]:
        """Rows of a query on the blog's MariaDB database, each a list of strings (NULL is "")."""
        out = _run(["mariadb", "--no-defaults", "-S", str(self.socket), "-u", "root", "-D",
                    "wordpress", "--batch", "--skip-column-names", "-e", query])
        return [[_unescape(v) for v in line.split("\t")] for line in out.splitlines()]

    def php(self, code: str) -> str:
        """Runs PHP with WordPress loaded (wp-load.php) and returns what it printed."""
        return php_script(self.root.parent / "run.php",
                           f"<?php require getenv('HEYBRO_WP_ROOT') . '/wp-load.php';\n{code}\n",
                           self._env)

    def login(self, page: Any) -> None:
        """Logs a Playwright page's browser in as the administrator."""
        fill_login(page, f"{self.url}/wp-login.php", self.admin, self.password,
                    ("#user_login", "#user_pass", "#wp-submit"), "/wp-admin/")


def _unescape(value: str) -> str:
    """A value as the mariadb client's batch mode prints it (\\n, \\t, \\\\ escaped)."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "0": "\0"}.get(m[1], m[1]), value)


def start_mariadb(data: Path, database: str = "wordpress") -> tuple[_Process, Path]:
    """A private MariaDB on a Unix socket in `data` (no networking, no grant tables), with `database`."""
    _need("/usr/sbin/mariadbd", "MariaDB's server (mariadb-server)")
    sock = data / "mysql.sock"
    (data / "mysql").mkdir(parents=True, exist_ok=True)
    cmd = ["/usr/sbin/mariadbd", "--no-defaults", f"--datadir={data / 'mysql'}",
           f"--socket={sock}", f"--pid-file={data / 'mysql.pid'}", "--skip-networking",
           "--skip-grant-tables", "--innodb-buffer-pool-size=32M", "--innodb-log-file-size=8M",
           "--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0", "--skip-log-bin",
           f"--log-error={data / 'mysql.log'}"]
    if os.geteuid() == 0:
        cmd.append("--user=root")
    server = _Process.start(cmd, data / "mysql.out")
    server.log = data / "mysql.log"
    deadline = time.monotonic() + 30
    while not sock.exists():
        if server.proc.poll() is not None or time.monotonic() > deadline:
            server.stop()
            raise server.failed("MariaDB did not start")
        time.sleep(0.05)
    _run(["mariadb", "--no-defaults", "-S", str(sock), "-u", "root", "-e",
          f"CREATE DATABASE IF NOT EXISTS {database} CHARACTER SET utf8mb4"])
    return server, sock


@contextmanager
def wordpress(data: Path | None = None) -> Iterator[WordPress]:
    """WordPress with its administrator, on a free port; `data` keeps its files (default: a
    temporary folder removed afterwards). Installing again into the same folder changes nothing."""
    _need(WORDPRESS_SRC / "wp-settings.php", "WordPress (the wordpress package)")
    with ExitStack() as stack:
        if data is None:
            data = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="heybro-wp-")))
        root = data / "wordpress"
        if not root.exists():
            _link_tree(WORDPRESS_SRC, root)
            (root / "wp-config.php").unlink()  # a link to Debian's: replaced, never written through
            (root / "wp-config.php").write_text(_WP_CONFIG)
            (root / "wp-content" / "uploads").mkdir()
        db, sock = start_mariadb(data)
        stack.callback(db.stop)
        port = _free_port()
        site = WordPress(url=f"http://127.0.0.1:{port}", root=root, socket=sock)
        site._env = {"HEYBRO_WP_DB_SOCKET": str(sock), "HEYBRO_WP_URL": site.url,
                     "HEYBRO_WP_ROOT": str(root), "HEYBRO_WP_ADMIN": site.admin,
                     "HEYBRO_WP_PASSWORD": site.password}
        php_script(data / "install.php", _WP_INSTALL, site._env)
        server = php_server(root, port, data / "php.log", site._env)
        stack.callback(server.stop)
        _wait_http(f"{site.url}/wp-login.php", server)
        yield site


# --- MediaWiki -----------------------------------------------------------------------------------

_MW_EXTRA = """
# heybro's test apps: caches in the session folder, no outside calls, jobs run at once.
$wgCacheDirectory = "{data}/cache";
$wgUploadDirectory = "{data}/images";
$wgEnableUploads = false;
$wgJobRunRate = 1;
$wgPingback = false;
$wgHTTPTimeout = 1;
"""


@dataclass
class MediaWiki:
    url: str
    data: Path
    admin: str = "Admin"
    password: str = PASSWORD
    _env: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def db(self) -> Path:
        return self.data / "db" / "wiki.sqlite"

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of a query on the wiki's SQLite database."""
        con = sqlite3.connect(self.db, timeout=10)
        try:
            return con.execute(query, params).fetchall()
        finally:
            con.close()

    def page_text(self, title: str) -> str | None:
        """The wikitext of a page's latest revision, read from the database (None: no page)."""
        rows = self.sql(
            "SELECT old_text FROM page JOIN slots ON slot_revision_id = page_latest "
            "JOIN content ON content_id = slot_content_id "
            "JOIN text ON content_address = 'tt:' || old_id "
            "WHERE page_namespace = 0 AND page_title = ?", title.replace(" ", "_"))
        if not rows:
            return None
        text = rows[0][0]
        return text.decode() if isinstance(text, bytes) else str(text)

    @property
    def tree(self) -> Path:
        """The wiki's own install path: links to the package's files, less its settings."""
        return self.data / "mediawiki"

    def maintenance(self, script: str, *args: str, stdin: str | None = None) -> str:
        """Runs one of MediaWiki's maintenance scripts on this wiki (never the machine's)."""
        return _run(["php", str(self.tree / "maintenance" / script), *args], self._env, stdin=stdin)

    def edit(self, title: str, text: str) -> None:
        """Creates or replaces a page as the administrator (MediaWiki's maintenance/edit.php)."""
        self.maintenance("edit.php", "-u", self.admin, "-s", "test setup", title, stdin=text)
        # Its search index and link tables are filled by queued jobs: run them now.
        self.maintenance("runJobs.php")

    def login(self, page: Any) -> None:
        """Logs a Playwright page's browser in as the administrator."""
        fill_login(page, f"{self.url}/index.php?title=Special:UserLogin", self.admin,
                    self.password, ("#wpName1", "#wpPassword1", "#wpLoginAttempt"), "/index.php")


def mediawiki_tree(into: Path, source: Path = MEDIAWIKI_SRC) -> Path:
    """A MediaWiki install path of this session's own: a link to each of the package's files and
    folders, except its settings (Debian links LocalSettings.php to the machine's /etc/mediawiki;
    where the machine serves a wiki, MediaWiki's installer would find that file and refuse)."""
    into.mkdir(parents=True, exist_ok=True)
    for entry in source.iterdir():
        if entry.name != "LocalSettings.php" and not (into / entry.name).is_symlink():
            (into / entry.name).symlink_to(entry)
    return into


@contextmanager
def mediawiki(data: Path | None = None, source: Path = MEDIAWIKI_SRC) -> Iterator[MediaWiki]:
    """MediaWiki with its administrator, on a free port; `data` as for `wordpress`. `source` is
    the package's folder (a test gives another to stand for a machine with a wiki of its own)."""
    _need(source / "maintenance" / "install.php", "MediaWiki (the mediawiki package)")
    with ExitStack() as stack:
        if data is None:
            data = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="heybro-mw-")))
        port = _free_port()
        wiki = MediaWiki(url=f"http://127.0.0.1:{port}", data=data)
        tree = mediawiki_tree(wiki.tree, source)
        settings = data / "LocalSettings.php"
        # PHP resolves the links of the file it runs, so MediaWiki is told where it is installed
        # and which settings are its own: the machine's are never read, by the installer or after.
        wiki._env = {"MW_INSTALL_PATH": str(tree), "MW_CONFIG_FILE": str(settings)}
        # The server's address is part of the settings: set again on every start.
        server_line = f'$wgServer = "{wiki.url}";'
        if not settings.exists():
            (data / "db").mkdir(parents=True, exist_ok=True)
            for sub in ("cache", "images"):
                (data / sub).mkdir(exist_ok=True)
            wiki.maintenance("install.php", "--dbtype", "sqlite", "--dbpath", str(data / "db"),
                             "--dbname", "wiki", "--server", wiki.url, "--scriptpath", "",
                             "--confpath", str(data), "--lang", "en", "--pass", wiki.password,
                             "Heybro Wiki", wiki.admin)
            with settings.open("a") as f:
                f.write(_MW_EXTRA.format(data=data))
            wiki.maintenance("runJobs.php")
        lines = [ln for ln in settings.read_text().splitlines() if not ln.startswith("$wgServer =")]
        settings.write_text("\n".join([*lines, server_line, ""]))
        server = php_server(tree, port, data / "php.log", wiki._env)
        stack.callback(server.stop)
        _wait_http(f"{wiki.url}/index.php?title=Main_Page", server)
        yield wiki


# --- both ----------------------------------------------------------------------------------------

@dataclass
class Apps:
    wordpress: WordPress
    mediawiki: MediaWiki

    def url(self, source: str) -> str:
        """`url:wordpress:/wp-admin/` (a benchmark page's source) -> its address here."""
        _, app, path = source.split(":", 2)
        return getattr(self, app).url + path

    def login(self, page: Any) -> None:
        """Logs a Playwright page's browser in to both, as their administrator."""
        self.wordpress.login(page)
        self.mediawiki.login(page)


@contextmanager
def running_apps() -> Iterator[Apps]:
    with wordpress() as wp, mediawiki() as wiki:
        yield Apps(wp, wiki)


if __name__ == "__main__":  # python tests/support/apps.py: start both and wait (look around)
    with running_apps() as running:
        print(json.dumps({"wordpress": running.wordpress.url, "mediawiki": running.mediawiki.url,
                          "user": ADMIN, "password": PASSWORD}), flush=True)
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass
