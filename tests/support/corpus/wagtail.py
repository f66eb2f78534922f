"""Wagtail (PyPI, Django): a content management system's admin — page explorer, the page editor with
its Draftail rich-text fields and side panels, images, documents, snippets, form submissions,
users and groups with permission tables, sites, locales, redirects, workflows and reports.

A project made with `wagtail start` (kept under .corpus/wagtail/project) gets a few page models of a
small home-goods shop (standard pages, a journal of articles, product pages, a contact form), two
snippets (people, categories) and a site setting. It is seeded through its own management command
with about 35 pages (live, drafts, live with newer drafts, one locked, one awaiting moderation, with
revision history), 12 images in collections, 8 documents, 12 people, 13 users in 5 groups, form
submissions and redirects. That seeded database and media folder are built once as a template and
copied into each start's data folder (migrating takes long); SQLite DB and media live there.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import CORPUS_DIR, App, Page, first_missing, venv_dir, venv_install, venv_missing

NAME = "wagtail"
REQUIREMENTS = ["wagtail==7.0.10", "Django==5.2.19", "pillow==13.0.0"]
USER, PASSWORD = "admin", "heybro-wagtail-pass-1"
PROJECT = "homegoods"

# --- the project's own files, written over what `wagtail start` made --------------------------------

_SETTINGS = '''"""Settings for the corpus: data (SQLite, media) from the environment; nothing calls out."""
import os

from .dev import *  # noqa: F401,F403

_DATA = os.environ["HOMEGOODS_DATA"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(_DATA, "db.sqlite3")}}
MEDIA_ROOT = os.path.join(_DATA, "media")
INSTALLED_APPS = INSTALLED_APPS + ["wagtail.contrib.settings", "wagtail.locales"]  # noqa: F405
TEMPLATES[0]["OPTIONS"]["context_processors"].append("wagtail.contrib.settings.context_processors.settings")  # noqa: F405
LANGUAGE_CODE = "en"
WAGTAIL_I18N_ENABLED = True
LANGUAGES = WAGTAIL_CONTENT_LANGUAGES = [("en", "English"), ("fr", "French")]
WAGTAIL_SITE_NAME = "Harbor Home Goods"
WAGTAILADMIN_BASE_URL = os.environ.get("HOMEGOODS_URL", "http://127.0.0.1")
WAGTAIL_ENABLE_UPDATE_CHECK = False
WAGTAIL_GRAVATAR_PROVIDER_URL = None
WAGTAIL_ENABLE_WHATS_NEW_BANNER = False
'''

_MODELS = '''from django.db import models
from modelcluster.fields import ParentalKey
from wagtail.admin.panels import FieldPanel, FieldRowPanel, InlinePanel, MultiFieldPanel
from wagtail.contrib.forms.models import AbstractEmailForm, AbstractFormField
from wagtail.contrib.forms.panels import FormSubmissionsPanel
from wagtail.contrib.settings.models import BaseSiteSetting, register_setting
from wagtail.fields import RichTextField
from wagtail.models import Page
from wagtail.search import index


class HomePage(Page):
    intro = models.CharField(max_length=250, blank=True)
    body = RichTextField(blank=True)

    content_panels = Page.content_panels + [FieldPanel("intro"), FieldPanel("body")]
    search_fields = Page.search_fields + [index.SearchField("intro"), index.SearchField("body")]


class StandardPage(Page):
    intro = models.CharField(max_length=250, blank=True)
    hero_image = models.ForeignKey("wagtailimages.Image", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    body = RichTextField(blank=True)

    content_panels = Page.content_panels + [FieldPanel("intro"), FieldPanel("hero_image"), FieldPanel("body")]
    search_fields = Page.search_fields + [index.SearchField("intro"), index.SearchField("body")]


class JournalIndexPage(Page):
    intro = RichTextField(blank=True)

    content_panels = Page.content_panels + [FieldPanel("intro")]
    subpage_types = ["home.ArticlePage"]


class Category(models.Model):
    name = models.CharField(max_length=80)
    slug = models.SlugField(unique=True)

    panels = [FieldPanel("name"), FieldPanel("slug")]

    class Meta:
        verbose_name_plural = "categories"
        ordering = ["name"]

    def __str__(self):
        return self.name


class Person(index.Indexed, models.Model):
    DEPARTMENTS = [("shop", "Shop floor"), ("kitchen", "Test kitchen"), ("office", "Office"),
                   ("warehouse", "Warehouse")]
    first_name = models.CharField(max_length=80)
    last_name = models.CharField(max_length=80)
    job_title = models.CharField(max_length=120)
    department = models.CharField(max_length=20, choices=DEPARTMENTS, default="shop")
    email = models.EmailField(blank=True)
    photo = models.ForeignKey("wagtailimages.Image", null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")

    panels = [FieldRowPanel([FieldPanel("first_name"), FieldPanel("last_name")]), FieldPanel("job_title"),
              FieldPanel("department"), FieldPanel("email"), FieldPanel("photo")]
    search_fields = [index.SearchField("first_name"), index.SearchField("last_name"),
                     index.SearchField("job_title")]

    class Meta:
        verbose_name_plural = "people"
        ordering = ["last_name", "first_name"]

    def __str__(self):
        return f"{self.first_name} {self.last_name}"


class ArticlePage(Page):
    date = models.DateField("Post date")
    author = models.ForeignKey(Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    category = models.ForeignKey(Category, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    intro = models.CharField(max_length=250, blank=True)
    hero_image = models.ForeignKey("wagtailimages.Image", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    body = RichTextField(blank=True)

    content_panels = Page.content_panels + [
        MultiFieldPanel([FieldRowPanel([FieldPanel("date"), FieldPanel("author")]), FieldPanel("category")],
                        heading="Article information"),
        FieldPanel("intro"), FieldPanel("hero_image"), FieldPanel("body"),
    ]
    search_fields = Page.search_fields + [index.SearchField("intro"), index.SearchField("body")]
    parent_page_types = ["home.JournalIndexPage"]


class ProductPage(Page):
    sku = models.CharField("SKU", max_length=20)
    price = models.DecimalField(max_digits=8, decimal_places=2)
    in_stock = models.BooleanField(default=True)
    hero_image = models.ForeignKey("wagtailimages.Image", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    body = RichTextField(blank=True)

    content_panels = Page.content_panels + [
        FieldRowPanel([FieldPanel("sku"), FieldPanel("price"), FieldPanel("in_stock")]),
        FieldPanel("hero_image"), FieldPanel("body"),
    ]
    search_fields = Page.search_fields + [index.SearchField("sku"), index.SearchField("body")]


class FormField(AbstractFormField):
    page = ParentalKey("FormPage", on_delete=models.CASCADE, related_name="form_fields")


class FormPage(AbstractEmailForm):
    intro = RichTextField(blank=True)
    thank_you_text = RichTextField(blank=True)

    content_panels = AbstractEmailForm.content_panels + [
        FormSubmissionsPanel(), FieldPanel("intro"), InlinePanel("form_fields", label="Form fields"),
        FieldPanel("thank_you_text"),
        MultiFieldPanel([FieldRowPanel([FieldPanel("from_address"), FieldPanel("to_address")]),
                         FieldPanel("subject")], heading="Email"),
    ]


@register_setting(icon="site")
class ShopSettings(BaseSiteSetting):
    phone = models.CharField(max_length=40, blank=True)
    email = models.EmailField(blank=True)
    opening_hours = models.CharField(max_length=120, blank=True)
    instagram = models.URLField(blank=True)

    panels = [FieldPanel("phone"), FieldPanel("email"), FieldPanel("opening_hours"), FieldPanel("instagram")]
'''

_HOOKS = '''from wagtail.admin.ui.tables import UpdatedAtColumn
from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.snippets import SnippetViewSet

from .models import Category, Person


class PersonViewSet(SnippetViewSet):
    model = Person
    icon = "user"
    menu_label = "People"
    list_display = ["first_name", "last_name", "job_title", "department", UpdatedAtColumn()]
    list_filter = ["department"]
    search_fields = ["first_name", "last_name", "job_title"]
    list_per_page = 10


class CategoryViewSet(SnippetViewSet):
    model = Category
    icon = "tag"
    list_display = ["name", "slug"]


register_snippet(PersonViewSet)
register_snippet(CategoryViewSet)
'''

_PAGE_TEMPLATE = '''{% extends "base.html" %}
{% load wagtailcore_tags wagtailimages_tags %}
{% block content %}
<main>
<h1>{{ page.title }}</h1>
{% if page.intro %}<p>{{ page.intro|richtext }}</p>{% endif %}
{% if page.hero_image %}{% image page.hero_image width-600 %}{% endif %}
{% if page.price %}<p>{{ page.sku }} — £{{ page.price }}{% if not page.in_stock %} (out of stock){% endif %}</p>{% endif %}
{% if page.body %}{{ page.body|richtext }}{% endif %}
<ul>{% for child in page.get_children.live %}<li><a href="{% pageurl child %}">{{ child.title }}</a></li>{% endfor %}</ul>
</main>
{% endblock %}
'''

_FORM_TEMPLATE = '''{% extends "base.html" %}
{% load wagtailcore_tags %}
{% block content %}
<h1>{{ page.title }}</h1>
{{ page.intro|richtext }}
<form action="{% pageurl page %}" method="POST">{% csrf_token %}{{ form.as_p }}<input type="submit" value="Send"></form>
{% endblock %}
'''

_LANDING_TEMPLATE = '''{% extends "base.html" %}
{% load wagtailcore_tags %}
{% block content %}<h1>{{ page.title }}</h1>{{ page.thank_you_text|richtext }}{% endblock %}
'''

# The seed: the project's own management command, run once for the template database.
_SEED = r'''"""Seeds the shop's site: pages with history, images, documents, snippets, users, groups, forms."""
import datetime
import io
import random

from django.contrib.auth.models import Group, Permission
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.files.images import ImageFile
from django.core.management.base import BaseCommand
from django.utils import timezone
from PIL import Image as PILImage, ImageDraw, ImageFont
from wagtail.contrib.forms.models import FormSubmission
from wagtail.contrib.redirects.models import Redirect
from wagtail.documents.models import Document
from wagtail.images.models import Image
from wagtail.log_actions import log
from wagtail.models import (Collection, GroupCollectionPermission, GroupPagePermission, Locale, Page,
                            PageLogEntry, Revision, Site, TaskState, WorkflowState)

from home.models import (ArticlePage, Category, FormField, FormPage, HomePage, JournalIndexPage, Person,
                         ProductPage, ShopSettings, StandardPage)

NOW = timezone.now().replace(microsecond=0)
P = "heybro-wagtail-pass-1"


def ago(days, hours=0):
    return NOW - datetime.timedelta(days=days, hours=hours)


def png(title, color, size=(480, 320)):
    im = PILImage.new("RGB", size, color)
    d = ImageDraw.Draw(im)
    d.rectangle([20, 20, size[0] - 20, size[1] - 20], outline="white", width=6)
    d.ellipse([size[0] // 2 - 60, size[1] // 2 - 60, size[0] // 2 + 60, size[1] // 2 + 60], fill="white")
    d.text((36, size[1] - 70), title, fill="white", font=ImageFont.load_default(size=28))
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


class Command(BaseCommand):
    help = "Seeds the site with the shop's content"

    def handle(self, *args, **options):
        if Person.objects.exists():
            return
        User = get_user_model()
        rnd = random.Random(7)

        # Users and groups
        admin = User.objects.create_superuser("admin", "ann.lee@harbor.example", P, first_name="Ann",
                                              last_name="Lee")
        editors, moderators = Group.objects.get(name="Editors"), Group.objects.get(name="Moderators")
        shop_staff = Group.objects.create(name="Shop Staff")
        photographers = Group.objects.create(name="Photographers")
        Group.objects.create(name="Translators")
        people = [("bob.stone", "Bob", "Stone", [editors]), ("cleo.park", "Cleo", "Park", [moderators]),
                  ("dev.shah", "Dev", "Shah", [editors, shop_staff]), ("eve.moss", "Eve", "Moss", [shop_staff]),
                  ("finn.ward", "Finn", "Ward", [photographers]), ("gina.ross", "Gina", "Ross", [editors]),
                  ("hugo.reyes", "Hugo", "Reyes", [moderators, editors]), ("iris.chen", "Iris", "Chen", [shop_staff]),
                  ("jack.doyle", "Jack", "Doyle", []), ("kate.hill", "Kate", "Hill", [photographers]),
                  ("liam.ford", "Liam", "Ford", [editors])]
        users = {}
        for i, (username, first, last, groups) in enumerate(people):
            u = User.objects.create_user(username, f"{username}@harbor.example", P, first_name=first,
                                         last_name=last)
            if username == "jack.doyle":
                u.is_active = False
            u.last_login = ago(i * 3 + 1) if username not in ("kate.hill", "liam.ford") else None
            u.save()
            u.groups.set(groups)
            users[username] = u
        bob, cleo, dev, gina = users["bob.stone"], users["cleo.park"], users["dev.shah"], users["gina.ross"]

        admin_access = Permission.objects.get(content_type__app_label="wagtailadmin", codename="access_admin")
        shop_staff.permissions.add(admin_access)
        photographers.permissions.add(admin_access)

        # Collections, images, documents
        root_coll = Collection.get_first_root_node()
        colls = {n: root_coll.add_child(name=n) for n in ("Products", "Journal", "Staff photos")}
        images = {}
        for title, color, coll, tags in [
            ("Red Mug", "#b22222", "Products", "mug, kitchen"), ("Blue Kettle", "#1f4e9c", "Products", "kettle"),
            ("Green Teapot", "#2e7d32", "Products", "tea"), ("Oak Tray", "#8d6e63", "Products", "dining"),
            ("Linen Napkins", "#cfc6b8", "Products", "dining, linen"), ("Cast Iron Pan", "#37474f", "Products", "kitchen"),
            ("Harbor shop front", "#00695c", "Journal", "shop"), ("Autumn table", "#e65100", "Journal", "seasonal"),
            ("Sourdough loaf", "#a1887f", "Journal", "baking"), ("Market stall", "#6a1b9a", "Journal", "events"),
            ("Ann Lee portrait", "#455a64", "Staff photos", "staff"), ("Bob Stone portrait", "#546e7a", "Staff photos", "staff"),
        ]:
            slug = title.lower().replace(" ", "-")
            img = Image(title=title, collection=colls[coll], uploaded_by_user=rnd.choice([admin, bob, users["finn.ward"]]),
                        file=ImageFile(ContentFile(png(title, color), name=f"{slug}.png"), name=f"{slug}.png"))
            img.save()
            img.tags.add(*[t.strip() for t in tags.split(",")])
            images[title] = img
        docs = {}
        for title, name, body in [
            ("Price list 2026", "price-list-2026.csv", "item,price\nRed Mug,8.50\nBlue Kettle,24.00\n"),
            ("Care guide: cast iron", "cast-iron-care.txt", "Dry at once. Oil lightly.\n"),
            ("Wholesale terms", "wholesale-terms.txt", "Net 30. Minimum order 24 units.\n"),
            ("Returns policy", "returns-policy.txt", "Returns within 30 days.\n"),
            ("Staff rota October", "rota-october.csv", "name,day\nEve Moss,Mon\nIris Chen,Tue\n"),
            ("Supplier list", "suppliers.csv", "supplier,city\nAcme Ltd,Leeds\nOakworks,York\n"),
            ("Store floor plan", "floor-plan.txt", "Entrance, tills, kitchen corner.\n"),
            ("Press kit", "press-kit.txt", "Harbor Home Goods, founded 2012.\n"),
        ]:
            d = Document(title=title, collection=colls["Products" if "list" in title.lower() else "Journal"],
                         uploaded_by_user=admin, file=ContentFile(body.encode(), name=name))
            d.save()
            docs[title] = d

        cats = {n: Category.objects.create(name=n, slug=n.lower().replace(" ", "-"))
                for n in ("News", "Recipes", "Care guides", "Events", "Behind the scenes")}
        staff = {}
        for first, last, job, dept in [
            ("Ann", "Lee", "Owner", "office"), ("Bob", "Stone", "Shop manager", "shop"),
            ("Cleo", "Park", "Editor", "office"), ("Dev", "Shah", "Buyer", "office"),
            ("Eve", "Moss", "Sales assistant", "shop"), ("Finn", "Ward", "Photographer", "office"),
            ("Gina", "Ross", "Chef", "kitchen"), ("Hugo", "Reyes", "Warehouse lead", "warehouse"),
            ("Iris", "Chen", "Sales assistant", "shop"), ("Jack", "Doyle", "Driver", "warehouse"),
            ("Kate", "Hill", "Baker", "kitchen"), ("Liam", "Ford", "Accountant", "office")]:
            staff[f"{first} {last}"] = Person.objects.create(
                first_name=first, last_name=last, job_title=job, department=dept,
                email=f"{first.lower()}.{last.lower()}@harbor.example",
                photo=images.get(f"{first} {last} portrait"))

        # Pages
        home = HomePage.objects.get(depth=2)
        home.title = "Harbor Home Goods"
        home.intro = "Kitchen and dining goods from Harbor Street, Leeds."
        home.body = ("<p>Welcome to <b>Harbor Home Goods</b>: mugs, kettles, linen and cast iron, "
                     "chosen by people who cook.</p><h2>Visit us</h2><p>Open Monday to Saturday, 9–6.</p>")
        home.save_revision(user=admin, log_action=True).publish(user=admin, log_action=True, skip_permission_checks=True)

        def add(parent, page, author, publish=True, edits=()):
            page.live, page.owner = publish, author
            parent.add_child(instance=page)  # logs "Created" by its owner
            rev = page.save_revision(user=author, log_action=True)
            if publish:
                rev.publish(user=author, log_action=True, skip_permission_checks=True)
            for who, change in edits:
                page = page.specific_class.objects.get(pk=page.pk)
                change(page)
                page.save_revision(user=who, log_action=True)
                if publish:
                    page.get_latest_revision().publish(user=who, log_action=True, skip_permission_checks=True)
            return page.specific_class.objects.get(pk=page.pk)

        def body(*paras):
            return "".join(f"<p>{p}</p>" for p in paras)

        about = add(home, StandardPage(title="About Us", slug="about", intro="A family shop since 2012.",
                                       hero_image=images["Harbor shop front"],
                                       body="<h2>Our story</h2>" + body(
                                           "Ann Lee opened the shop on Harbor Street in 2012.",
                                           "We sell things we use at home every day.")
                                       + "<ul><li>Local makers</li><li>Repairs and spares</li><li>Free gift wrap</li></ul>"),
                    admin, edits=[(cleo, lambda p: setattr(p, "intro", "A family shop on Harbor Street since 2012."))])
        add(about, StandardPage(title="Our Team", slug="team", intro="The people behind the counter.",
                                body=body("Bob runs the shop floor; Gina runs the test kitchen.",
                                          "Finn takes all our photographs.")), cleo)
        add(about, StandardPage(title="Careers", slug="careers", intro="Work with us.",
                                body=body("We are hiring a weekend sales assistant.")), admin)
        add(home, StandardPage(title="Visit the Shop", slug="visit", intro="12 Harbor Street, Leeds.",
                               body=body("Parking on Quay Road.", "Step-free entrance at the side door.")), bob)
        journal = add(home, JournalIndexPage(title="Journal", slug="journal",
                                             intro="<p>News, recipes and care guides from the shop.</p>"), cleo)
        articles = [
            ("Autumn opening hours", "News", "Bob Stone", 40, "Our hours change on 1 October."),
            ("How to season a cast iron pan", "Care guides", "Gina Ross", 36, "Oil, heat, repeat."),
            ("Sourdough in a cast iron pan", "Recipes", "Kate Hill", 33, "A crisp crust every time."),
            ("Meet our new supplier: Oakworks", "Behind the scenes", "Dev Shah", 30, "Trays and boards from York."),
            ("Christmas market stall", "Events", "Eve Moss", 27, "Find us at the Leeds market."),
            ("Caring for linen napkins", "Care guides", "Cleo Park", 24, "Wash cool, dry flat."),
            ("Green tea, properly brewed", "Recipes", "Gina Ross", 21, "80 degrees, two minutes."),
            ("Behind the till: a day in the shop", "Behind the scenes", "Bob Stone", 18, "Opening at nine."),
            ("The Red Mug is back", "News", "Ann Lee", 15, "Restocked in all sizes."),
            ("Tomato soup for cold evenings", "Recipes", "Kate Hill", 12, "With basil oil."),
            ("Spring cleaning your kettle", "Care guides", "Iris Chen", 9, "Descale with citric acid."),
            ("Photography at the shop", "Behind the scenes", "Finn Ward", 6, "Natural light only."),
            ("Summer sale preview", "News", "Ann Lee", 3, "Up to 30% off dining."),
            ("Workshop: knife skills", "Events", "Gina Ross", 1, "Saturday mornings in the kitchen."),
        ]
        authors = {"Bob Stone": bob, "Cleo Park": cleo, "Dev Shah": dev, "Gina Ross": gina}
        journal_pages = {}
        pics = ["Autumn table", "Sourdough loaf", "Market stall", "Harbor shop front"]
        for i, (title, cat, who, days, intro) in enumerate(articles):
            draft = title in ("Summer sale preview", "Workshop: knife skills")
            edits = []
            if title in ("How to season a cast iron pan", "The Red Mug is back"):
                edits = [(cleo, lambda p: setattr(p, "intro", p.intro + " Updated.")),
                         (admin, lambda p: setattr(p, "intro", p.intro.replace(" Updated.", " Revised.")))]
            page = add(journal, ArticlePage(
                title=title, slug=title.lower().replace(" ", "-").replace(":", "").replace(",", ""),
                date=(NOW - datetime.timedelta(days=days)).date(), author=staff[who], category=cats[cat],
                intro=intro, hero_image=images[pics[i % 4]],
                body=f"<h2>{title}</h2>" + body(intro, "Ask in the shop if you want to know more.")
                + f'<p>See also our <a linktype="page" id="{about.id}">About page</a>.</p>'),
                authors.get(who, admin), publish=not draft, edits=edits)
            journal_pages[title] = page
        products = add(home, StandardPage(title="Products", slug="products", intro="Everything we stock.",
                                          body=body("Prices include VAT.")), dev)
        for name, sku, price, stock in [("Red Mug", "MUG-RED", "8.50", True), ("Blue Kettle", "KET-BLU", "24.00", True),
                                        ("Green Teapot", "TEA-GRN", "31.25", False), ("Oak Tray", "TRY-OAK", "18.00", True),
                                        ("Linen Napkins", "NAP-LIN", "12.75", True), ("Cast Iron Pan", "PAN-CI", "42.00", False)]:
            add(products, ProductPage(title=name, slug=name.lower().replace(" ", "-"), sku=sku, price=price,
                                      in_stock=stock, hero_image=images[name],
                                      body=body(f"The {name}, made to last.",
                                                f'<embed embedtype="image" id="{images[name].id}" format="left" alt="{name}"/>')),
                dev)
        contact = add(home, FormPage(title="Contact Us", slug="contact", intro="<p>Questions, orders, repairs.</p>",
                                     thank_you_text="<p>Thanks, we will answer within two days.</p>",
                                     to_address="shop@harbor.example", from_address="web@harbor.example",
                                     subject="Website enquiry"), admin)
        for i, (label, ftype, req, choices) in enumerate([("Your name", "singleline", True, ""),
                                                          ("Email", "email", True, ""),
                                                          ("Topic", "dropdown", False, "Order,Repair,Wholesale,Other"),
                                                          ("Message", "multiline", True, "")]):
            FormField.objects.create(page=contact, sort_order=i, label=label, field_type=ftype, required=req,
                                     choices=choices)
        contact.save_revision(user=admin).publish(user=admin, skip_permission_checks=True)
        for i, (name, email, topic, msg) in enumerate([
            ("Maya Patel", "maya@example.com", "Order", "Is the Blue Kettle back in stock?"),
            ("Tom Becker", "tom@example.com", "Repair", "My teapot lid cracked."),
            ("Sara Nunes", "sara@example.com", "Wholesale", "Prices for 48 Red Mugs?"),
            ("Olu Adeyemi", "olu@example.com", "Other", "Do you host cooking classes?"),
            ("Lena Fischer", "lena@example.com", "Order", "Gift wrap for an online order?"),
            ("Raj Kumar", "raj@example.com", "Wholesale", "Do you supply cafes?"),
            ("Nora Quinn", "nora@example.com", "Repair", "Can you re-handle a pan?"),
            ("Pablo Ruiz", "pablo@example.com", "Order", "Delivery to York?"),
            ("Zoe Walsh", "zoe@example.com", "Other", "Are dogs allowed in the shop?"),
            ("Ken Ito", "ken@example.com", "Order", "Oak Tray sizes?"),
            ("Amy Cole", "amy@example.com", "Other", "Parking near the shop?"),
            ("Yusuf Ali", "yusuf@example.com", "Repair", "Kettle switch broken."),
        ]):
            s = FormSubmission.objects.create(page=contact, form_data={"your_name": name, "email": email,
                                                                       "topic": topic, "message": msg})
            FormSubmission.objects.filter(pk=s.pk).update(submit_time=ago(30 - 2 * i, i))
        add(home, StandardPage(title="Privacy Policy", slug="privacy", intro="How we use your data.",
                               body=body("We keep order details for six years.")), admin)
        add(home, StandardPage(title="Delivery & Returns", slug="delivery", intro="Delivery across the UK.",
                               body=body("Free delivery over £50.", "Returns within 30 days.")), bob)
        add(home, StandardPage(title="Gift Cards", slug="gift-cards", intro="From £10.",
                               body=body("Gift cards never expire.")), bob, publish=False)

        # States: live with newer draft, locked, in moderation
        kettle = ProductPage.objects.get(slug="blue-kettle")
        kettle.price = "22.00"
        kettle.save_revision(user=dev, log_action=True)
        team = StandardPage.objects.get(slug="team")
        team.locked, team.locked_by, team.locked_at = True, cleo, ago(2)
        team.save()
        log(instance=team, action="wagtail.lock", user=cleo)
        sale = journal_pages["Summer sale preview"]
        workflow = sale.get_workflow()
        if workflow:
            workflow.start(sale, gina)

        # Permissions for the groups
        for perm in ("add_page", "change_page", "publish_page"):
            GroupPagePermission.objects.create(group=shop_staff, page=products,
                                               permission=Permission.objects.get(content_type__app_label="wagtailcore",
                                                                                 codename=perm))
        for coll, perms in [("Products", ("add_image", "change_image", "choose_image")),
                            ("Staff photos", ("add_image", "choose_image"))]:
            for perm in perms:
                GroupCollectionPermission.objects.create(group=photographers, collection=colls[coll],
                                                         permission=Permission.objects.get(codename=perm))

        # Site, settings, locales, redirects
        site = Site.objects.get(is_default_site=True)
        site.hostname, site.site_name = "127.0.0.1", "Harbor Home Goods"
        site.save()
        ShopSettings.objects.create(site=site, phone="0113 496 0000", email="shop@harbor.example",
                                    opening_hours="Mon–Sat 9:00–18:00", instagram="https://instagram.com/harborhomegoods")
        Locale.objects.get_or_create(language_code="fr")
        for old, target in [("/shop", products), ("/about-us", about), ("/blog", journal), ("/contact-us", contact),
                            ("/kettle", kettle), ("/careers-2025", None)]:
            r = Redirect(old_path=Redirect.normalise_path(old), site=None, is_permanent=target is not None)
            if target is None:
                r.redirect_link = "https://jobs.example.com/harbor"
            else:
                r.redirect_page = target
            r.save()

        # Spread the history over the past two months, oldest first, the last a day ago
        def spread(model, field):
            ids = list(model.objects.order_by("id").values_list("id", flat=True))
            step = datetime.timedelta(days=60) / max(len(ids), 1)
            for i, pk in enumerate(ids):
                model.objects.filter(pk=pk).update(**{field: ago(61) + step * (i + 1)})

        spread(PageLogEntry, "timestamp")
        spread(Revision, "created_at")
        spread(Image, "created_at")
        spread(Document, "created_at")
        spread(User, "date_joined")
        WorkflowState.objects.update(created_at=ago(1, 5))
        TaskState.objects.update(started_at=ago(1, 5))
        for pg in Page.objects.filter(depth__gt=1):
            revs = list(Revision.page_revisions.filter(object_id=str(pg.pk)).order_by("created_at"))
            if not revs:
                continue
            live = Revision.objects.filter(pk=pg.live_revision_id).first()
            Page.objects.filter(pk=pg.pk).update(
                latest_revision_created_at=revs[-1].created_at,
                first_published_at=revs[0].created_at if pg.live else None,
                last_published_at=live.created_at if live else None)
        self.stdout.write("seeded")
'''

_FILES = {
    f"{PROJECT}/settings/heybro.py": _SETTINGS,
    "home/models.py": _MODELS,
    "home/wagtail_hooks.py": _HOOKS,
    "home/templates/home/home_page.html": _PAGE_TEMPLATE,
    "home/templates/home/standard_page.html": _PAGE_TEMPLATE,
    "home/templates/home/journal_index_page.html": _PAGE_TEMPLATE,
    "home/templates/home/article_page.html": _PAGE_TEMPLATE,
    "home/templates/home/product_page.html": _PAGE_TEMPLATE,
    "home/templates/home/form_page.html": _FORM_TEMPLATE,
    "home/templates/home/form_page_landing.html": _LANDING_TEMPLATE,
    "home/management/__init__.py": "",
    "home/management/commands/__init__.py": "",
    "home/management/commands/seed_shop.py": _SEED,
}
_STAMP = hashlib.sha256(json.dumps([REQUIREMENTS, _FILES], sort_keys=True).encode()).hexdigest()


def _project() -> Path:
    return CORPUS_DIR / NAME / "project"


def _template() -> Path:
    return CORPUS_DIR / NAME / "template"


def _env(data: Path, url: str = "") -> dict[str, str]:
    return {"DJANGO_SETTINGS_MODULE": f"{PROJECT}.settings.heybro", "HOMEGOODS_DATA": str(data),
            "HOMEGOODS_URL": url, "PYTHONDONTWRITEBYTECODE": "1"}


def _manage(data: Path, *args: str, timeout: float = 900) -> str:
    return run([str(venv_dir(NAME) / "bin" / "python"), "manage.py", *args], env=_env(data), cwd=_project(),
               timeout=timeout)


def _build_project() -> None:
    """`wagtail start`, then the shop's models and templates, then their migrations."""
    proj = _project()
    if (proj / ".heybro-stamp").exists() and (proj / ".heybro-stamp").read_text() == _STAMP:
        return
    shutil.rmtree(proj, ignore_errors=True)
    proj.mkdir(parents=True)
    run([str(venv_dir(NAME) / "bin" / "wagtail"), "start", PROJECT, str(proj)])
    for rel, text in _FILES.items():
        (proj / rel).parent.mkdir(parents=True, exist_ok=True)
        (proj / rel).write_text(text)
    scratch = proj / ".makemigrations"
    scratch.mkdir()
    _manage(scratch, "makemigrations", "home", "--name", "shop_models")
    shutil.rmtree(scratch)
    (proj / ".heybro-stamp").write_text(_STAMP)


def _build_template() -> None:
    """A migrated and seeded database with its media, copied into each start's folder."""
    tpl = _template()
    if (tpl / ".heybro-stamp").exists() and (tpl / ".heybro-stamp").read_text() == _STAMP:
        return
    work = tpl.with_name("template.building")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    _manage(work, "migrate", "--noinput")
    _manage(work, "seed_shop")
    (work / ".heybro-stamp").write_text(_STAMP)
    shutil.rmtree(tpl, ignore_errors=True)
    work.rename(tpl)


@dataclass
class Wagtail:
    url: str
    data: Path
    user: str = USER
    password: str = PASSWORD

    @property
    def db(self) -> Path:
        return self.data / "db.sqlite3"

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        con = sqlite3.connect(self.db, timeout=10)
        try:
            return con.execute(query, params).fetchall()
        finally:
            con.close()

    def shell(self, code: str) -> str:
        """Runs Python in `manage.py shell -c` (Django's ORM loaded); what it printed."""
        return _manage(self.data, "shell", "--no-imports", "-c", code, timeout=120)

    def page_id(self, title: str) -> int:
        rows = self.sql("SELECT id FROM wagtailcore_page WHERE title = ? ORDER BY id LIMIT 1", title)
        if not rows:
            raise KeyError(f"no page titled {title!r}")
        return int(rows[0][0])

    def pages_tree(self) -> list[dict[str, Any]]:
        """Every page: id, title, slug, depth, url_path, live, has unpublished changes, locked, type."""
        rows = self.sql("SELECT p.id, p.title, p.slug, p.depth, p.url_path, p.live, p.has_unpublished_changes, "
                        "p.locked, c.model FROM wagtailcore_page p JOIN django_content_type c "
                        "ON c.id = p.content_type_id ORDER BY p.path")
        keys = ["id", "title", "slug", "depth", "url_path", "live", "has_unpublished_changes", "locked", "type"]
        return [dict(zip(keys, r)) for r in rows]

    def users(self) -> list[dict[str, Any]]:
        rows = self.sql("SELECT id, username, first_name, last_name, email, is_active, is_superuser "
                        "FROM auth_user ORDER BY username")
        keys = ["id", "username", "first_name", "last_name", "email", "is_active", "is_superuser"]
        return [dict(zip(keys, r)) for r in rows]

    def image_id(self, title: str) -> int:
        return int(self.sql("SELECT id FROM wagtailimages_image WHERE title = ?", title)[0][0])

    def login(self, page: Any) -> None:
        page.goto(f"{self.url}/admin/login/")
        page.fill("input[name=username]", self.user)
        page.fill("input[name=password]", self.password)
        with page.expect_navigation():
            page.click("button[type=submit]")
        if "/admin/login" in page.url:
            raise RuntimeError("wagtail refused the login")

    def pages(self) -> list[Page]:
        home = self.page_id("Harbor Home Goods")
        about = self.page_id("About Us")
        journal = self.page_id("Journal")
        article = self.page_id("How to season a cast iron pan")
        products = self.page_id("Products")
        kettle = self.page_id("Blue Kettle")
        gift = self.page_id("Gift Cards")
        bob = self.sql("SELECT id FROM auth_user WHERE username = 'bob.stone'")[0][0]
        editors = self.sql("SELECT id FROM auth_group WHERE name = 'Editors'")[0][0]
        mug = self.image_id("Red Mug")
        person = self.sql("SELECT id FROM home_person WHERE first_name = 'Gina'")[0][0]
        contact = self.page_id("Contact Us")

        def tab(name: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click(f"a[role=tab][href='#tab-{name}']")
                page.wait_for_selector(f"#tab-{name}:not([hidden])", timeout=5000)
            return go

        def row_menu(title: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click(f"button[aria-label=\"More options for '{title}'\"]")
                page.wait_for_selector(".tippy-box a:visible", timeout=5000)
            return go

        def header_menu(page: Any) -> None:
            page.click("header [data-controller='w-dropdown'] button[aria-label*='ctions'], "
                       "header .w-dropdown button[aria-label*='ctions']")
            page.wait_for_selector(".tippy-box a:visible", timeout=5000)

        def publish_menu(page: Any) -> None:
            page.click("footer .w-dropdown__toggle--icon, footer [data-w-dropdown-target='toggle']")
            page.wait_for_selector("footer .w-dropdown__content a:visible, footer .w-dropdown__content button:visible",
                                   timeout=5000)

        def draftail_focus(page: Any) -> None:
            page.locator(".Draftail-Editor .public-DraftEditor-content").first.click()
            page.keyboard.press("End")

        def insert_block(page: Any) -> None:
            draftail_focus(page)
            page.locator(".Draftail-Editor button.Draftail-BlockToolbar__trigger").first.click()
            page.wait_for_selector(".w-combobox [role=option]", timeout=5000)

        def image_chooser(page: Any) -> None:
            # The block menu's "Image" opens the chooser modal, its listing loaded by XHR.
            insert_block(page)
            page.locator(".w-combobox [role=option]", has_text="Image").first.click()
            page.wait_for_selector(".modal.in .modal-body img", timeout=15_000)
            page.wait_for_timeout(500)

        def select_line(page: Any) -> None:
            # Text selected: Draftail's floating toolbar of icon-only buttons shows over it.
            page.locator(".Draftail-Editor .public-DraftEditor-content").first.locator(
                "span[data-text]", has_text="Ask in the shop").first.click()
            page.keyboard.press("Home")
            page.keyboard.press("Shift+End")
            page.wait_for_selector(".Draftail-FloatingToolbar button", state="visible", timeout=5000)

        return [
            Page("dashboard", "/admin/", "view"),
            Page("explorer-home", f"/admin/pages/{home}/", "list"),
            Page("explorer-journal", f"/admin/pages/{journal}/", "grid"),
            Page("explorer-journal-sorted", f"/admin/pages/{journal}/?ordering=-latest_revision_created_at", "grid"),
            Page("explorer-row-menu", f"/admin/pages/{home}/", "dialog", open=row_menu("About Us")),
            Page("page-edit", f"/admin/pages/{article}/edit/", "editor", open=draftail_focus),
            Page("page-edit-promote", f"/admin/pages/{article}/edit/", "form", open=tab("promote")),
            Page("page-edit-actions-menu", f"/admin/pages/{about}/edit/", "dialog", open=header_menu),
            Page("page-edit-publish-menu", f"/admin/pages/{kettle}/edit/", "dialog", open=publish_menu),
            Page("page-edit-insert-block", f"/admin/pages/{article}/edit/", "dialog", open=insert_block),
            Page("page-edit-inline-toolbar", f"/admin/pages/{article}/edit/", "editor", open=select_line),
            Page("page-edit-image-chooser", f"/admin/pages/{article}/edit/", "dialog", open=image_chooser),
            Page("product-edit", f"/admin/pages/{kettle}/edit/", "form"),
            Page("form-page-edit", f"/admin/pages/{contact}/edit/", "form"),
            Page("add-subpage-chooser", f"/admin/pages/{home}/add_subpage/", "list"),
            Page("add-page-form", f"/admin/pages/add/home/standardpage/{home}/", "form"),
            Page("page-history", f"/admin/pages/{article}/history/", "grid"),
            Page("page-delete-confirm", f"/admin/pages/{gift}/delete/", "form"),
            Page("page-search", "/admin/pages/search/?q=cast+iron", "search"),
            Page("images", "/admin/images/", "grid"),
            Page("image-edit", f"/admin/images/{mug}/", "form"),
            Page("documents", "/admin/documents/", "grid"),
            Page("snippets-people", "/admin/snippets/home/person/", "grid"),
            Page("snippet-person-edit", f"/admin/snippets/home/person/edit/{person}/", "form"),
            Page("form-submissions", f"/admin/forms/submissions/{contact}/", "grid"),
            Page("users", "/admin/users/", "grid"),
            Page("user-edit", f"/admin/users/edit/{bob}/", "form"),
            Page("groups", "/admin/groups/", "list"),
            Page("group-edit", f"/admin/groups/edit/{editors}/", "form"),
            Page("sites", "/admin/sites/", "list"),
            Page("locales", "/admin/locales/", "list"),
            Page("redirects", "/admin/redirects/", "grid"),
            Page("shop-settings", "/admin/settings/home/shopsettings/", "settings"),
            Page("workflows", "/admin/workflows/list/", "list"),
            Page("report-locked", "/admin/reports/locked/", "grid"),
            Page("report-workflows", "/admin/reports/workflow/", "grid"),
            Page("report-site-history", "/admin/reports/site-history/", "grid"),
            Page("account", "/admin/account/", "settings"),
        ]


def _missing() -> str | None:
    proj = _project() / ".heybro-stamp"
    return first_missing(venv_missing(NAME, REQUIREMENTS),
                         None if proj.exists() and proj.read_text() == _STAMP else f"a Wagtail project in {_project()}")


def _install() -> None:
    venv_install(NAME, REQUIREMENTS)
    _build_project()
    _build_template()


@contextmanager
def _start(data: Path) -> Iterator[Wagtail]:
    if not (data / "db.sqlite3").exists():
        _build_template()
        shutil.copy2(_template() / "db.sqlite3", data / "db.sqlite3")
        shutil.copytree(_template() / "media", data / "media", dirs_exist_ok=True)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # The site's address is this start's, so "View live" and previews stay on this server.
    con = sqlite3.connect(data / "db.sqlite3")
    with con:
        con.execute("UPDATE wagtailcore_site SET hostname = '127.0.0.1', port = ? WHERE is_default_site = 1", (port,))
    con.close()
    server = Process.start([str(venv_dir(NAME) / "bin" / "python"), "manage.py", "runserver", "--noreload",
                            f"127.0.0.1:{port}"], data / "wagtail.log", env=_env(data, url), cwd=_project())
    try:
        running = Wagtail(url=url, data=data)
        wait_http(f"{url}/admin/login/", server, timeout=60)
        yield running
    finally:
        server.stop()


APP = App(name=NAME, kind="CMS", half="heldout", built_from="PyPI wagtail 7.0.10, Django 5.2.19 (runserver, SQLite)",
          missing=_missing, install=_install, start=_start)

