"""Spirit (PyPI django-spirit): a Django forum — categories, topics with replies, likes, flags,
private topics, notifications, search and its own admin — made with `spirit startproject` in the
data folder (SQLite database, media and search index there too), served by Django's runserver.

Seeded as the forum of a cycling club: eight members (Ann Lee, the administrator, logs in),
categories with a subcategory, 22 topics with replies by several people over the past weeks (one
long enough to page, one pinned, one closed, one with a poll), likes, a flagged reply and a private
topic; topics and replies are written through Spirit's own forms and hooks.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, Page, first_missing, venv_dir, venv_install, venv_missing

NAME = "spirit"
REQUIREMENTS = ["django-spirit==0.14.3", "Django==4.2.30", "django-haystack==3.3.0", "Whoosh==2.7.4",
                "mistune==0.8.4", "Pillow==12.2.0", "olefile==0.47", "django-infinite-scroll-pagination==1.3.0",
                "django-djconfig==0.11.0", "tzdata==2025.2"]
USER, PASSWORD = "ann", "heybro-spirit-pass-1"
PROJECT = "riverside"  # the Django project's name (its folder in the data folder)

# username, first, last, location
PEOPLE = [("ann", "Ann", "Lee", "Leeds"), ("bob", "Bob", "Stone", "York"), ("cleo", "Cleo", "Park", "Bath"),
          ("dev", "Dev", "Shah", "Hull"), ("eve", "Eve", "Moss", "Ely"), ("farid", "Farid", "Haddad", "Leeds"),
          ("gina", "Gina", "Rossi", "Derby"), ("hugo", "Hugo", "Brandt", "York")]
# title, parent title or "", description, colour
CATEGORIES = [("Announcements", "", "News from the club committee", "#e05d44"),
              ("Rides & Events", "", "Weekend rides, races and meet-ups", "#4c9be8"),
              ("Bike Repair", "", "Ask for help fixing your bike", "#44aa55"),
              ("Brakes & Gears", "Bike Repair", "Adjusting brakes, derailleurs and shifters", "#66bb77"),
              ("Gear Reviews", "", "Helmets, lights, tyres and clothing", "#aa66cc"),
              ("Marketplace", "", "Buy, sell and swap bikes and parts", "#f0a030"),
              ("Off Topic", "", "Anything else", "#888888")]
# category, author, title, first post, replies [(author, text)], flags
TOPICS: list[tuple[Any, ...]] = [
    ("Announcements", "ann", "Welcome to the Riverside Cyclists forum",
     "Hello everyone! This is the new home of the club. Please read the **ride rules** before joining a "
     "group ride, and say hello in *Off Topic*.",
     [("bob", "Great to have a forum at last!"), ("cleo", "Thanks Ann, looks good."),
      ("hugo", "Hi all, new member from York here.")], {"pinned": True}),
    ("Announcements", "ann", "Annual general meeting on 14 December",
     "The AGM is on **14 December at 7 pm** in the Bridge Inn. Agenda:\n\n1. Treasurer's report\n"
     "2. New kit design\n3. Election of the committee",
     [("dev", "The accounts will be ready a week before."), ("eve", "Can we add winter rides to the agenda?"),
      ("ann", "@eve added, thanks.")], {}),
    ("Announcements", "bob", "New club kit: vote for the design",
     "Three designs are up for a vote. Pick your favourite below.\n\n[poll name=kit]\n1. Blue and white stripes\n"
     "2. Green with a river logo\n3. Black and orange\n[/poll]",
     [("gina", "Green one is lovely."), ("farid", "Black and orange for visibility in winter!")], {}),
    ("Rides & Events", "cleo", "Sunday ride to Knaresborough (60 km)",
     "Meeting at the bridge at **8:30**, coffee stop in Knaresborough, back by 1 pm. Average 24 km/h.",
     [("bob", "I'm in."), ("farid", "Count me in, bringing a friend."), ("ann", "I'll sweep at the back."),
      ("cleo", "Forecast is dry, see you there!")], {}),
    ("Rides & Events", "hugo", "Night ride with lights, anyone?",
     "Thinking of a 30 km loop on Thursday evening. Front and rear lights required.",
     [("eve", "Yes please, I just bought a new front light."), ("dev", "Which route?"),
      ("hugo", "Along the canal and back through the park.")], {}),
    ("Rides & Events", "eve", "Beginners' ride every Saturday",
     "A slow, friendly ride for new riders: 25 km at 18 km/h, no one dropped.",
     [("gina", "Perfect for me, thanks!"), ("ann", "Great idea, Eve.")], {}),
    ("Rides & Events", "dev", "Sportive in the Dales: who is going?",
     "The Dales sportive opens entries next week. 110 km with 1,800 m of climbing.",
     [("bob", "Done it twice, the last climb is brutal."), ("cleo", "Maybe the short route for me."),
      ("hugo", "Entered!")], {}),
    ("Bike Repair", "gina", "Rear wheel wobbles after a pothole",
     "My rear wheel now rubs the brake pad once per turn. Is it bent for good?",
     [("bob", "Probably just a loose spoke. Squeeze the spokes in pairs to find it."),
      ("gina", "Found two loose ones!"), ("bob", "Tighten them a quarter turn at a time and check again."),
      ("farid", "Or bring it to the repair night on Wednesday."), ("gina", "It's true now, thank you both.")],
     {}),
    ("Bike Repair", "farid", "Tubeless tyre keeps losing air",
     "I set up tubeless tyres last month and the rear goes flat in two days.",
     [("dev", "Add more sealant, 40 ml for road tyres."), ("cleo", "Check the valve core is tight."),
      ("farid", "The valve core was loose. Fixed!")], {}),
    ("Bike Repair", "hugo", "Chain skips under load",
     "When I push hard on the pedals the chain jumps. Chain is 4,000 km old.",
     [("bob", "Measure the chain with a checker; at 0.75 % replace it."), ("hugo", "It was at 1 %."),
      ("bob", "Then the cassette is probably worn too.")], {}),
    ("Brakes & Gears", "cleo", "Squeaky disc brakes after rain",
     "My disc brakes squeal loudly after every wet ride. Any tips?",
     [("dev", "Clean the rotors with isopropyl alcohol."), ("eve", "Could be glazed pads, sand them lightly."),
      ("cleo", "Cleaning the rotors helped a lot.")], {}),
    ("Brakes & Gears", "gina", "How to index a rear derailleur",
     "My gears click between cogs. How do I index the rear derailleur?",
     [("bob", "Shift to the smallest cog, then turn the barrel adjuster half a turn at a time."),
      ("ann", "There's a good guide at the repair night, we'll show you."),
      ("gina", "Worked after three half turns!")], {}),
    ("Brakes & Gears", "eve", "Hydraulic brake lever feels spongy",
     "Front lever goes almost to the bar. Bleed or new pads?",
     [("farid", "Sounds like air in the line, needs a bleed."), ("eve", "Bled it, feels firm now.")],
     {"closed": True}),
    ("Gear Reviews", "dev", "Review: Lumen 800 front light",
     "Used it all winter. Bright enough for unlit lanes, battery lasts 3 hours on medium. 4/5.",
     [("hugo", "How is the mount?"), ("dev", "Solid, no rattling on cobbles.")], {}),
    ("Gear Reviews", "bob", "Best winter gloves?",
     "My fingers freeze below 5 °C. What do you wear?",
     [("cleo", "Lobster gloves, warm but clumsy for gears."), ("gina", "Thin liner under normal gloves."),
      ("eve", "Heated gloves changed my winter."), ("farid", "Pogies on the bars!"),
      ("bob", "Will try liners first, thanks all.")], {}),
    ("Gear Reviews", "farid", "Tyre comparison: 28 mm vs 32 mm",
     "Switched to 32 mm tyres at lower pressure. More comfortable and not slower on my loops.",
     [("ann", "Same experience here."), ("hugo", "Do they fit with mudguards?"),
      ("farid", "Just, with 4 mm to spare.")], {}),
    ("Marketplace", "hugo", "For sale: steel touring frame, 56 cm",
     "Reynolds 531 frame and fork, 56 cm, with headset. £180 or swap for a 54 cm.",
     [("dev", "Any rust inside the tubes?"), ("hugo", "None, it's been kept indoors.")], {}),
    ("Marketplace", "cleo", "Wanted: child seat for the rear rack",
     "Looking for a child seat that fits a standard rack. Collect in Bath.",
     [("eve", "I have one, barely used. Sending you a message.")], {}),
    ("Marketplace", "gina", "Free to a good home: old turbo trainer",
     "Works but noisy. Collect from Derby.",
     [("farid", "I'll take it if still available!"), ("gina", "It's yours, message me.")], {}),
    ("Off Topic", "eve", "Favourite café stops",
     "Where do you stop for coffee and cake on rides?",
     [("ann", "The Lock Keeper's café by the canal."), ("bob", "Bettys in Harrogate, obviously."),
      ("cleo", "The bakery in Boroughbridge has the best flapjack."), ("dev", "Anywhere with a bike rack."),
      ("farid", "The Lock Keeper's, agree with Ann."), ("gina", "Boroughbridge flapjack, yes!"),
      ("hugo", "Farm shop at Ripley."), ("eve", "Great list, saving these."),
      ("ann", "Let's do a café ride next month."), ("bob", "I'll plan the route."),
      ("cleo", "Count me in."), ("dev", "Me too."), ("hugo", "This thread is making me hungry.")], {}),
    ("Off Topic", "farid", "Photos from the summer tour",
     "Our summer tour through the Lake District: 5 days, 420 km, one puncture.",
     [("ann", "Amazing views!"), ("eve", "Which pass was the hardest?"), ("farid", "Hardknott, no question."),
      ("hugo", "Selling my bike, buying Farid's legs.")], {}),
    ("Off Topic", "dev", "Buy cheap bike parts here!!!",
     "Visit my shop for cheap parts, best prices, click now.",
     [("bob", "This looks like spam.")], {"flag": ("eve", 0, "Advertising, not a club member.")}),
]
PRIVATE = ("ann", ["bob", "cleo"], "Committee: budget for the new kit",
           "Before the vote closes: the supplier quotes £38 per jersey for 40 jerseys. Can we cover half "
           "from the club funds?", [("bob", "We have £900 left this year, so yes."),
                                    ("cleo", "Agreed, let's announce it at the AGM.")])
LIKES = [("Welcome to the Riverside Cyclists forum", 1, ["ann", "dev", "eve"]),
         ("Rear wheel wobbles after a pothole", 2, ["gina", "farid", "hugo"]),
         ("Favourite café stops", 1, ["eve", "bob"]),
         ("Squeaky disc brakes after rain", 1, ["cleo"])]

_SETTINGS = '''
# Written for this data folder: the forum's own settings on top of the generated dev settings.
import os
from .dev import *  # noqa: F401,F403

DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
SECRET_KEY = "riverside-local-secret-key-for-this-folder"
ST_SITE_URL = os.environ.get("SPIRIT_SITE_URL", "http://127.0.0.1:8000/")
ST_RATELIMIT_ENABLE = False
EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = os.path.join(BASE_DIR, "mail")
LOGGING["handlers"]["file"]["filename"] = os.path.join(BASE_DIR, "django.log")
'''

_SEED = r'''
import json, sys
from datetime import timedelta
import django
django.setup()
from django.contrib.auth import get_user_model
from django.utils import timezone
from spirit.admin.forms import BasicConfigForm
from spirit.category.models import Category
from spirit.comment.flag.forms import FlagForm
from spirit.comment.forms import CommentForm
from spirit.comment.like.forms import LikeForm
from spirit.comment.models import Comment
from spirit.comment.utils import comment_posted
from spirit.topic.forms import TopicForm
from spirit.topic.models import Topic
from spirit.topic.notification.models import TopicNotification
from spirit.topic.private.forms import TopicForPrivateForm, TopicPrivateManyForm
from spirit.topic.unread.models import TopicUnread

spec = json.load(open(sys.argv[1]))
User = get_user_model()
now = timezone.now()
users = {}
for username, first, last, location, password, admin in spec["people"]:
    if admin:
        u = User.objects.get(username=username)
    else:
        u = User.objects.create_user(username=username, email=username + "@riverside.example",
                                     password=password)
    u.first_name, u.last_name = first, last
    u.save()
    st = u.st
    st.nickname, st.location, st.is_verified = first + " " + last, location, True
    st.is_administrator = admin
    st.save()
    users[username] = u

cats = {}
for i, (title, parent, descr, color) in enumerate(spec["categories"]):
    cats[title] = Category.objects.create(title=title, description=descr, color=color, sort=i + 1,
                                          parent=cats.get(parent))

form = BasicConfigForm(data={"site_name": "Riverside Cyclists",
                             "site_description": "The forum of the Riverside cycling club",
                             "template_footer": "", "comments_per_page": 10, "topics_per_page": 10})
assert form.is_valid(), form.errors
form.save()

def check(form):
    if not form.is_valid():
        raise SystemExit(repr(form.errors))
    return form

def reply(topic, author, text, when):
    cform = check(CommentForm(user=users[author], topic=topic, data={"comment": text}))
    comment = cform.save()
    comment_posted(comment=comment, mentions=cform.mentions)
    Comment.objects.filter(pk=comment.pk).update(date=when)
    return comment

def dated(topic, first_when, last_when):
    Topic.objects.filter(pk=topic.pk).update(date=first_when, last_active=last_when)

topics = {}
n = len(spec["topics"])
for i, (cat, author, title, text, replies, extra) in enumerate(spec["topics"]):
    start = now - timedelta(days=(n - i) * 2 + 3, hours=(i * 5) % 11)
    tform = check(TopicForm(user=users[author], data={"title": title, "category": cats[cat].pk}))
    cform = check(CommentForm(user=users[author], data={"comment": text}))
    topic = tform.save()
    cform.topic = topic
    first = cform.save()
    comment_posted(comment=first, mentions=cform.mentions)
    Comment.objects.filter(pk=first.pk).update(date=start)
    when = start
    for k, (who, body) in enumerate(replies):
        if k == 1 and i % 3 == 0:
            # Ann read the topic early on: the later replies are unread for her
            TopicUnread.create_or_mark_as_read(user=users[spec["admin"]], topic=topic)
        when = min(start + timedelta(hours=3 * (k + 1) + k * k), now - timedelta(minutes=20))
        reply(topic, who, body, when)
    if extra.get("flag"):
        who, reason, body = extra["flag"]
        check(FlagForm(user=users[who], comment=first, data={"reason": reason, "body": body})).save()
    dated(topic, start, when)
    Topic.objects.filter(pk=topic.pk).update(is_pinned=bool(extra.get("pinned")),
                                             is_closed=bool(extra.get("closed")),
                                             view_count=7 + (i * 13) % 60)
    topics[title] = topic

for title, index, likers in spec["likes"]:
    comment = Comment.objects.filter(topic=topics[title]).order_by("date", "pk")[index]
    for who in likers:
        like = check(LikeForm(user=users[who], comment=comment, data={})).save()
        like.comment.increase_likes_count()

author, invited, title, text, replies = spec["private"]
tform = check(TopicForPrivateForm(user=users[author], data={"title": title}))
cform = check(CommentForm(user=users[author], data={"comment": text}))
tpform = check(TopicPrivateManyForm(user=users[author], data={"users": ",".join(
    users[u].username for u in invited)}))
topic = tform.save()
cform.topic = topic
first = cform.save()
comment_posted(comment=first, mentions=None)
tpform.topic = topic
tpform.save_m2m()
TopicNotification.bulk_create(users=tpform.get_users(), comment=first)
start = now - timedelta(days=2, hours=4)
Comment.objects.filter(pk=first.pk).update(date=start)
when = start
for k, (who, body) in enumerate(replies):
    when = start + timedelta(hours=2 * (k + 1))
    reply(topic, who, body, when)
dated(topic, start, when)
TopicNotification.objects.all().update(date=now - timedelta(hours=1))
'''


def _manage(data: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 300) -> str:
    return run([str(venv_dir(NAME) / "bin" / "python"), "manage.py", *args],
               env={"DJANGO_SETTINGS_MODULE": f"{PROJECT}.settings.local", **(env or {})},
               cwd=data / PROJECT, timeout=timeout)


def _seed(data: Path) -> None:
    bin_ = venv_dir(NAME) / "bin"
    # startproject calls django-admin from PATH
    run([str(bin_ / "spirit"), "startproject", PROJECT], cwd=data,
        env={"PATH": f"{bin_}:{os.environ.get('PATH', '')}"})
    (data / PROJECT / PROJECT / "settings" / "local.py").write_text(_SETTINGS)
    _manage(data, "migrate", "-v0")
    _manage(data, "createsuperuser", "--noinput", "--username", USER, "--email", f"{USER}@riverside.example",
            env={"DJANGO_SUPERUSER_PASSWORD": PASSWORD})
    spec = {"people": [(u, f, la, loc, f"heybro-{u}-pass", u == USER) for u, f, la, loc in PEOPLE],
            "admin": USER, "categories": CATEGORIES, "topics": TOPICS, "private": PRIVATE, "likes": LIKES}
    (data / "seed.json").write_text(json.dumps(spec))
    # beside manage.py, so that the project's package is found first
    (data / PROJECT / "seed.py").write_text(_SEED)
    run([str(bin_ / "python"), "seed.py", str(data / "seed.json")],
        env={"DJANGO_SETTINGS_MODULE": f"{PROJECT}.settings.local"}, cwd=data / PROJECT, timeout=300)
    _manage(data, "rebuild_index", "--noinput", "-v0")


@dataclass
class Spirit:
    url: str
    data: Path
    user: str = USER
    password: str = PASSWORD

    @property
    def db(self) -> Path:
        return self.data / PROJECT / "db.sqlite3"

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of a query on the forum's SQLite database (spirit_topic_topic, spirit_comment_comment,
        spirit_category_category, auth_user, spirit_user_userprofile, spirit_comment_flag_flag …)."""
        con = sqlite3.connect(self.db, timeout=10)
        try:
            return con.execute(query, params).fetchall()
        finally:
            con.close()

    def topics(self) -> list[dict[str, Any]]:
        """Every topic: id, title, category (title), author (username), is_pinned, is_closed,
        is_removed, comment_count, private (bool)."""
        rows = self.sql("SELECT t.id, t.title, c.title, u.username, t.is_pinned, t.is_closed, t.is_removed, "
                        "t.comment_count, c.is_private FROM spirit_topic_topic t "
                        "JOIN spirit_category_category c ON c.id = t.category_id "
                        "JOIN auth_user u ON u.id = t.user_id ORDER BY t.id")
        keys = ["id", "title", "category", "author", "is_pinned", "is_closed", "is_removed", "comment_count",
                "private"]
        return [{k: (bool(v) if k.startswith("is_") or k == "private" else v) for k, v in zip(keys, r)}
                for r in rows]

    def comments(self, topic: int) -> list[tuple[str, str]]:
        """(author username, markdown text) of a topic's comments in order (moderation actions too)."""
        rows = self.sql("SELECT u.username, c.comment FROM spirit_comment_comment c JOIN auth_user u "
                        "ON u.id = c.user_id WHERE c.topic_id = ? ORDER BY c.date, c.id", topic)
        return [(str(a), str(b)) for a, b in rows]

    def shell(self, code: str) -> str:
        """Runs Python in the forum's Django shell (manage.py shell -c) and returns what it printed."""
        return _manage(self.data, "shell", "-c", code)

    def login(self, page: Any) -> None:
        page.goto(f"{self.url}/user/login/")
        page.fill("#id_username", self.user)
        page.fill("#id_password", self.password)
        with page.expect_navigation():
            page.click("input[type=submit][value=Login]")
        if "/login" in page.url:
            raise RuntimeError(f"Spirit did not log {self.user} in (at {page.url})")

    def _topic_path(self, title: str) -> str:
        rows = self.sql("SELECT id, slug FROM spirit_topic_topic WHERE title = ?", title)
        return f"/topic/{rows[0][0]}/{rows[0][1]}/"

    def _category_path(self, title: str) -> str:
        rows = self.sql("SELECT id, slug FROM spirit_category_category WHERE title = ?", title)
        return f"/category/{rows[0][0]}/{rows[0][1]}/"

    def pages(self) -> list[Page]:
        def click(selector: str, wait: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.locator(selector).first.click()
                page.wait_for_selector(wait, state="visible", timeout=5000)
            return go

        def preview(page: Any) -> None:
            """Types a reply with markdown and shows the editor's preview of it."""
            page.fill("textarea#id_comment", "Thanks! **Tightened** the spokes:\n\n* left side\n* right side")
            page.click("a.js-box-preview")
            page.wait_for_selector(".js-box-preview-content", state="visible", timeout=5000)

        uid = self.sql("SELECT id FROM auth_user WHERE username = ?", "bob")[0][0]
        me = self.sql("SELECT id FROM auth_user WHERE username = ?", USER)[0][0]
        slug = "bob"
        wheel = self._topic_path("Rear wheel wobbles after a pothole")
        cafe = self._topic_path("Favourite café stops")
        private = self.sql("SELECT t.id, t.slug FROM spirit_topic_topic t JOIN spirit_category_category c "
                           "ON c.id = t.category_id WHERE c.is_private = 1")[0]
        repair = self.sql("SELECT id FROM spirit_category_category WHERE title = 'Bike Repair'")[0][0]
        wheel_id = int(wheel.split("/")[2])
        first_comment = self.sql("SELECT MIN(id) FROM spirit_comment_comment WHERE topic_id = ?", wheel_id)[0][0]
        last_comment = self.sql("SELECT MAX(id) FROM spirit_comment_comment WHERE topic_id = ?", wheel_id)[0][0]
        return [
            Page("index", "/", "list"),
            Page("categories", "/category/", "list"),
            Page("category", self._category_path("Bike Repair"), "list"),
            Page("topic", wheel, "view"),
            Page("topic-page2", cafe + "?page=2", "view"),
            Page("reply-form", f"/comment/{wheel_id}/publish/", "editor"),
            Page("reply-quote", f"/comment/{wheel_id}/publish/{first_comment}/quote/", "editor"),
            Page("new-topic", f"/topic/publish/{repair}/", "editor"),
            Page("private-topics", "/topic/private/", "list"),
            Page("private-topic", f"/topic/private/{private[0]}/{private[1]}/", "view"),
            Page("new-private-topic", "/topic/private/publish/", "editor"),
            Page("user-profile", f"/user/{uid}/{slug}/", "view"),
            Page("user-topics", f"/user/topics/{uid}/{slug}/", "list"),
            Page("profile-edit", "/user/", "settings"),
            Page("password-change", "/user/password-change/", "settings"),
            Page("notifications", "/topic/notification/", "list"),
            Page("unread", "/topic/unread/", "list"),
            Page("search", "/search/?q=brake", "search"),
            Page("admin-dashboard", "/st/admin/", "view"),
            Page("admin-config", "/st/admin/config/", "settings"),
            Page("admin-categories", "/st/admin/category/", "grid"),
            Page("admin-category-edit", f"/st/admin/category/update/{repair}/", "form"),
            Page("admin-users", "/st/admin/user/", "grid"),
            Page("admin-user-edit", f"/st/admin/user/edit/{uid}/", "form"),
            Page("admin-flags", "/st/admin/comment/flag/", "grid"),
            Page("admin-topics", "/st/admin/topic/", "grid"),
            Page("topic-moderation-menu", wheel, "dialog",
                 open=click("a.dropdown_button[data-related='.js-mod-content']", ".js-mod-content")),
            Page("header-notifications", "/", "dialog",
                 open=click("a.js-tab-notification", ".js-notifications-content")),
            Page("header-user-menu", "/", "dialog",
                 open=click("a.js-tab[data-related='.js-user-content']", ".js-user-content")),
            Page("comment-share", wheel, "dialog",
                 open=click("a.js-tab[data-related^='.js-share-']", "[class*='js-share-']")),
            Page("reply-preview", f"/comment/{wheel_id}/publish/", "editor", open=preview),
            Page("topic-with-poll", self._topic_path("New club kit: vote for the design"), "form"),
            Page("report-comment", f"/comment/flag/{last_comment}/create/", "form"),
            Page("topic-delete-confirm", f"/topic/moderate/delete/{wheel_id}/", "form"),
            Page("comment-delete-confirm", f"/comment/{last_comment}/delete/", "form"),
            Page("my-profile", f"/user/{me}/{USER}/", "view"),
        ]


def _missing() -> str | None:
    return first_missing(venv_missing(NAME, REQUIREMENTS))


def _install() -> None:
    venv_install(NAME, REQUIREMENTS)


@contextmanager
def _start(data: Path) -> Iterator[Spirit]:
    if not (data / PROJECT / "db.sqlite3").exists():
        _seed(data)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # --insecure: runserver serves the static files itself with DEBUG off
    server = Process.start([str(venv_dir(NAME) / "bin" / "python"), "manage.py", "runserver", "--noreload",
                            "--insecure", f"127.0.0.1:{port}"], data / "runserver.log",
                           env={"DJANGO_SETTINGS_MODULE": f"{PROJECT}.settings.local",
                                "SPIRIT_SITE_URL": f"{url}/"}, cwd=data / PROJECT)
    try:
        running = Spirit(url=url, data=data)
        wait_http(f"{url}/user/login/", server, timeout=60)
        yield running
    finally:
        server.stop()


APP = App(name=NAME, kind="forum", half="heldout",
          built_from="PyPI django-spirit 0.14.3 + Django 4.2.30 (runserver, SQLite, Whoosh search)",
          missing=_missing, install=_install, start=_start)
