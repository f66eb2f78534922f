"""The `heybro` command line: its parser and its own subcommands (install, uninstall, doctor, pack,
config, paths); `run` and the task commands are handed in as extensions (heybro.app puts the whole
program together; `python -m heybro.cli` runs it)."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from shared_schema.sites import CATEGORIES, CATEGORY_NAMES, SiteRules, pattern_of

from . import paths
from .agent.sinks import host_of
from .install import browsers as browser_dirs
from .install import bundle, doctor, registration, unpacked
from .native.identity import EXTENSION_ID
from .version import HOST_VERSION

Command = Callable[[argparse.Namespace], int]
# A module's subcommands added to the parser (its `extend`).
Extend = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]", dict[str, Command]], None]


def _targets(args: argparse.Namespace) -> list[browser_dirs.Browser]:
    if args.user_data_dir:
        return [browser_dirs.custom_profile(Path(args.user_data_dir))]
    return browser_dirs.select(args.browser)


def cmd_install(args: argparse.Namespace) -> int:
    try:
        targets = _targets(args)
        ids = registration.check_extension_ids(args.extension_id or [])
    except ValueError as err:
        print(f"heybro install: {err}", file=sys.stderr)
        return 2
    launcher = registration.write_launcher(extension_ids=ids)
    print(f"Launcher: {launcher}")
    if paths.is_windows():
        # Windows browsers find hosts through the registry, also for a --user-data-dir profile.
        targets = [b for b in targets if b.windows_reg_key] or browser_dirs.select(None)
        manifest = registration.register(targets[0], launcher, ids).manifest_path
        print(f"Host manifest: {manifest}\nRun these in a Command Prompt to register it:")
        for line in registration.windows_commands(manifest, targets):
            print(f"  {line}")
    else:
        for b in targets:
            reg = registration.register(b, launcher, ids)
            print(f"Registered with {b.name}: {reg.manifest_path}")
    print(f"Allowed extension id(s): {', '.join(ids)}")
    if (snap := browser_dirs.snap_chromium()) and not args.user_data_dir:
        print(f"Note: Chromium here is a snap ({snap}); a snap cannot start native-messaging "
              "hosts, so use heybro in Google Chrome, Edge, Brave or a Chromium that is not a snap.")
    try:
        folder = unpacked.write()
    except OSError as err:
        print(f"heybro install: could not write the extension's folder: {err}", file=sys.stderr)
        return 1
    print(f"Extension: {folder}\n"
          "Next: load this folder at chrome://extensions (Developer mode → Load unpacked), then "
          "open the heybro side panel. After an upgrade, run `heybro install` again and press the "
          "extension's reload button: the folder and the extension id stay the same. "
          "`heybro doctor` checks it all.")
    return 0


def cmd_pack(args: argparse.Namespace) -> int:
    out = Path(args.output or f"heybro-extension-{HOST_VERSION}.zip").expanduser().resolve()
    if out.is_dir():
        print(f"heybro pack: {out} is a folder; give the zip file's name.", file=sys.stderr)
        return 2
    try:
        bundle.pack(out)
    except OSError as err:
        print(f"heybro pack: {err}", file=sys.stderr)
        return 1
    print(f"Chrome Web Store package: {out}\n"
          "Its manifest has no `key` (the store refuses one and gives the extension its own id): "
          "once the store shows that id, let the host accept it with "
          "`heybro install --extension-id <store id>`.")
    return 0


def cmd_uninstall(args: argparse.Namespace) -> int:
    targets = ([browser_dirs.custom_profile(Path(args.user_data_dir))] if args.user_data_dir
               else browser_dirs.known_browsers())
    removed = [p for b in targets if (p := registration.unregister(b))]
    launcher = registration.launcher_path()
    if launcher.exists() and not args.user_data_dir:
        launcher.unlink()
        removed.append(launcher)
    for p in removed:
        print(f"Removed {p}")
    if not removed:
        print("Nothing to remove: heybro's host was not installed.")
    if paths.is_windows() and not args.user_data_dir:
        print("Run these in a Command Prompt to take it out of the registry (a key that is not "
              "there is reported and harmless):")
        for line in registration.windows_remove_commands(targets):
            print(f"  {line}")
    return 0


def cmd_doctor(args: argparse.Namespace, checks: Sequence[doctor.ExtraCheck] = ()) -> int:
    targets = [browser_dirs.custom_profile(Path(args.user_data_dir))] if args.user_data_dir else (
        browser_dirs.select(args.browser) if args.browser else None)
    text, healthy = doctor.report(doctor.run_checks(targets, checks))
    print(text)
    return 0 if healthy else 1


# `--api-key` with no value: asked for (typed unseen), or read from a pipe.
ASK = "\0ask"


def _api_key(args: argparse.Namespace) -> str | None:
    """The key to save: typed at a prompt, read from stdin (`--api-key -`, or a pipe) or from a
    file (`--api-key-file`). One given on the command line is taken too, with a warning: any user
    of the machine sees it in `ps`, and the shell keeps it in its history."""
    if args.api_key_file:
        try:
            return Path(args.api_key_file).expanduser().read_text().strip() or None
        except OSError as err:
            raise SystemExit(f"heybro config: cannot read {args.api_key_file}: {err.strerror or err}") from err
    if args.api_key in (ASK, "-"):
        if args.api_key == ASK and sys.stdin.isatty():
            import getpass
            return getpass.getpass("API key (not shown): ").strip() or None
        return sys.stdin.readline().strip() or None
    if args.api_key:
        print("heybro config: a key on the command line is visible to every user of this machine "
              "(`ps`) and kept in your shell's history; next time run `heybro config --api-key` "
              "and type it at the prompt.", file=sys.stderr)
    return args.api_key


def _site_changes(args: argparse.Namespace) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
    """The per-site permission changes asked for, as a change to the file's `sites` (a site put on
    one list leaves the other two: the first list that names it would decide)."""
    moves = [(site, to) for to, given in (("never", args.never_site), ("ask", args.ask_site),
                                          ("allow", args.allow_site), (None, args.forget_site))
             for site in given or []]
    kinds = [(k, True) for k in args.allow_kind or []] + [(k, False) for k in args.keep_off_kind or []]
    quiet = [(site, True) for site in args.confirm_off_site or []] + \
        [(site, False) for site in args.confirm_on_site or []]
    if not moves and not kinds and not quiet:
        return None

    def change(data: dict[str, Any]) -> dict[str, Any]:
        sites = dict(data.get("sites") or {})
        for site, to in moves:
            p = pattern_of(site)
            for name in ("never", "ask", "allow"):
                kept = [x for x in sites.get(name) or [] if pattern_of(x) != p]
                sites[name] = kept + ([p] if name == to else [])
        off = list(sites.get("categories_off") or [])
        for kind, allowed in kinds:
            off = [k for k in off if k != kind] + ([kind] if allowed else [])
        sites["categories_off"] = off
        asked_off = list(data.get("confirm_off_sites") or [])
        for site, off_ in quiet:
            host = host_of(site if "://" in site else f"http://{site}")
            asked_off = [x for x in asked_off if x.lower() != host] + ([host] if off_ else [])
        return {**data, "sites": sites, "confirm_off_sites": asked_off}
    return change


def _show_sites(rules: SiteRules) -> None:
    print("Sites (where heybro may work, whatever a page or the model asks):")
    for label, items in (("never touch", rules.never), ("ask me first", rules.ask),
                         ("always allowed", rules.allow)):
        print(f"  {label:21} {', '.join(items) or '-'}")
    kept = [c.name for c in CATEGORIES if c.name not in rules.categories_off]
    print(f"  {'kinds kept off':21} {', '.join(kept) or '-'}"
          + (f" (let on: {', '.join(rules.categories_off)})" if rules.categories_off else ""))


def cmd_config(args: argparse.Namespace) -> int:
    """Writes the settings the host reads (Chrome starts the host without your shell's
    environment, so the config file is the dependable place)."""
    from . import config, settings_file

    path = config.config_file()
    changes = {"base_url": args.base_url, "api_key": _api_key(args), "model": args.model,
               "tool_mode": args.tool_mode}
    if args.vision is not None:
        changes["vision"] = args.vision == "on"
    changed = {k: v for k, v in changes.items() if v is not None}
    sites = _site_changes(args)
    if changed or sites:
        try:
            settings_file.update(lambda d: (sites or (lambda x: x))({**d, **changed}))
        except config.ConfigError as err:
            print(f"heybro config: {err}", file=sys.stderr)
            return 1
        saved = sorted(changed) + (["sites"] if sites else [])
        print(f"Saved {', '.join(saved)} to {path} (readable only by you).")
    try:
        settings = config.load()
    except config.ConfigError as err:
        print(f"heybro config: {err}", file=sys.stderr)
        return 1
    shown = settings.redacted()
    print(f"Settings (file {path}, overridden by HEYBRO_* variables):")
    for key in ("base_url", "model", "models", "api_key", "tool_mode", "vision",
                "confidence_threshold"):
        print(f"  {key:21} {shown.get(key)}")
    _show_sites(settings.sites)
    print(f"  {'never asks first on':21} {', '.join(settings.confirm_off_sites) or '-'}"
          + ("" if settings.confirm else " (asking first is off everywhere)"))
    if not settings.configured:
        print("No LLM configured yet: `heybro config --model gpt-4o-mini --api-key` or, for "
              "Ollama, `heybro config --base-url http://localhost:11434/v1 --model qwen2.5:7b`.")
    return 0


def cmd_paths(args: argparse.Namespace) -> int:
    for name, fn in (("data", paths.data_dir), ("state", paths.state_dir), ("logs", paths.log_dir),
                     ("config", paths.config_dir)):
        print(f"{name:9} {fn()}")
    print(f"launcher  {registration.launcher_path()}")
    print(f"extension {unpacked.folder()}")
    from .store import default_path
    print(f"tasks     {default_path()}")
    return 0


def build_parser(extensions: Sequence[Extend] = (), checks: Sequence[doctor.ExtraCheck] = ()
                 ) -> tuple[argparse.ArgumentParser, dict[str, Command]]:
    """The core subcommands, those `extensions` add and `heybro doctor` with `checks` (heybro.app
    gives both)."""
    parser = argparse.ArgumentParser(prog="heybro", description="heybro: a browser agent in your "
                                     "own Chrome. Run `heybro install` once, then use the side panel "
                                     "or `heybro run`.")
    parser.add_argument("--version", action="version", version=f"heybro {HOST_VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands: dict[str, Command] = {}

    def browser_opts(p: argparse.ArgumentParser) -> None:
        p.add_argument("--browser", action="append", metavar="NAME",
                       help="chrome, chromium, edge, brave or all (repeatable; default: those found)")
        p.add_argument("--user-data-dir", metavar="DIR",
                       help="a browser profile started with --user-data-dir=DIR")

    p = sub.add_parser("install", help="register the native host with your browsers")
    browser_opts(p)
    p.add_argument("--extension-id", action="append", metavar="ID",
                   help=f"also allow this extension id, e.g. a fork's (repeatable). The built-in "
                        f"id {EXTENSION_ID} is always allowed; each install sets the full list, "
                        "so repeat every extra id you still want")
    commands["install"] = cmd_install
    p = sub.add_parser("uninstall", help="remove the native host registration")
    p.add_argument("--user-data-dir", metavar="DIR")
    commands["uninstall"] = cmd_uninstall
    p = sub.add_parser("doctor", help="check the installation and say how to fix it")
    browser_opts(p)
    commands["doctor"] = functools.partial(cmd_doctor, checks=checks)
    p = sub.add_parser("config", help="show or set the LLM the agent uses")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint (default: OpenAI)")
    p.add_argument("--api-key", nargs="?", const=ASK, metavar="KEY",
                   help="API key, stored in a file only you can read: given alone, you are asked "
                        "for it (or it is read from a pipe); `-` reads it from stdin")
    p.add_argument("--api-key-file", metavar="FILE", help="read the API key from this file")
    p.add_argument("--model", help="model name for every role")
    p.add_argument("--tool-mode", choices=["auto", "native", "json"],
                   help="json = for models without native tool calling")
    p.add_argument("--vision", choices=["on", "off"], help="send screenshots to the model")
    sites = p.add_argument_group("sites", "where heybro may work (a site covers its subdomains; "
                                 "* stands for any letters; SITE:PORT for one port only)")
    sites.add_argument("--never-site", action="append", metavar="SITE",
                       help="heybro never opens, reads or acts on it (repeatable)")
    sites.add_argument("--ask-site", action="append", metavar="SITE",
                       help="heybro asks you first, once per task (repeatable)")
    sites.add_argument("--allow-site", action="append", metavar="SITE",
                       help="heybro may work there, even in a kind of site kept off (repeatable)")
    sites.add_argument("--forget-site", action="append", metavar="SITE",
                       help="take the site off all three lists (repeatable)")
    kinds = ", ".join(CATEGORY_NAMES)
    sites.add_argument("--allow-kind", action="append", choices=CATEGORY_NAMES, metavar="KIND",
                       help=f"let heybro on a kind of site it stays off by default ({kinds})")
    sites.add_argument("--keep-off-kind", action="append", choices=CATEGORY_NAMES, metavar="KIND",
                       help="keep heybro off that kind of site again")
    asks = p.add_argument_group("asking first", "heybro asks before a click that may spend "
                                "money, send, publish or delete")
    asks.add_argument("--confirm-off-site", action="append", metavar="SITE",
                      help="do not ask on this site (a routine scheduled there runs alone; "
                      "repeatable)")
    asks.add_argument("--confirm-on-site", action="append", metavar="SITE",
                      help="ask on this site again (repeatable)")
    commands["config"] = cmd_config
    p = sub.add_parser("pack", help="build the zip to upload to the Chrome Web Store")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="where to write it (default: heybro-extension-VERSION.zip here)")
    commands["pack"] = cmd_pack
    sub.add_parser("paths", help="show where heybro keeps its files")
    commands["paths"] = cmd_paths
    for extend in extensions:
        extend(sub, commands)
    return parser, commands


def main(argv: list[str] | None = None, extensions: Sequence[Extend] = (),
         checks: Sequence[doctor.ExtraCheck] = ()) -> int:
    """The `heybro` command with the subcommands `extensions` add (heybro.app's whole program)."""
    parser, commands = build_parser(extensions, checks)
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 0
    return commands[args.command](args)

