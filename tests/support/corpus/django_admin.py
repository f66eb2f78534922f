"""The Django admin (PyPI Django 5.2): the administration site most Django applications ship — change
lists with filters, search, a date drill-down, actions and fields edited in the list; change forms
with fieldsets that fold, rows of related items edited inline, a two-list chooser
(filter_horizontal), Select2 autocompletes, calendar and clock pickers, and popups to add a related
item — made for a small shop in the data folder (its own models and admin, SQLite), served by
runserver.

Seeded through the ORM: a superuser (Ann Lee, who logs in) and a staff member, categories,
suppliers, 24 products, customers and 30 orders with lines over October 2026.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, Page, click_until, first_missing, then, venv_dir, venv_install, venv_missing

NAME = "django_admin"
REQUIREMENTS = ["Django==5.2.19", "tzdata==2025.2"]
USER, PASSWORD = "ann", "heybro-django-pass-1"

_SETTINGS = '''
from pathlib import Path
BASE_DIR = Path(__file__).resolve().parent
SECRET_KEY = "heybro-corpus-django-admin-not-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
                  "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles", "shop"]
MIDDLEWARE = ["django.middleware.security.SecurityMiddleware", "django.contrib.sessions.middleware.SessionMiddleware",
              "django.middleware.common.CommonMiddleware", "django.middleware.csrf.CsrfViewMiddleware",
              "django.contrib.auth.middleware.AuthenticationMiddleware",
              "django.contrib.messages.middleware.MessageMiddleware",
              "django.middleware.clickjacking.XFrameOptionsMiddleware"]
ROOT_URLCONF = "urls"
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [], "APP_DIRS": True,
              "OPTIONS": {"context_processors": ["django.template.context_processors.request",
                                                 "django.contrib.auth.context_processors.auth",
                                                 "django.contrib.messages.context_processors.messages"]}}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}
LANGUAGE_CODE = "en-gb"
TIME_ZONE = "Europe/London"
USE_TZ = True
STATIC_URL = "static/"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
'''

_URLS = '''
from django.contrib import admin
from django.urls import path
admin.site.site_header = "Kitchen shop administration"
urlpatterns = [path("admin/", admin.site.urls)]
'''

_MODELS = '''
from django.db import models


class Category(models.Model):
    name = models.CharField(max_length=60, unique=True)
    description = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "categories"
        ordering = ["name"]

    def __str__(self):
        return self.name


class Supplier(models.Model):
    name = models.CharField(max_length=80)
    email = models.EmailField(blank=True)
    city = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Product(models.Model):
    name = models.CharField(max_length=80)
    category = models.ForeignKey(Category, on_delete=models.PROTECT)
    suppliers = models.ManyToManyField(Supplier, blank=True)
    price = models.DecimalField(max_digits=8, decimal_places=2)
    stock = models.PositiveIntegerField(default=0)
    available = models.BooleanField(default=True)
    added = models.DateField()
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Customer(models.Model):
    name = models.CharField(max_length=80)
    email = models.EmailField(unique=True)
    city = models.CharField(max_length=60)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Order(models.Model):
    STATUSES = [("new", "New"), ("paid", "Paid"), ("shipped", "Shipped"), ("cancelled", "Cancelled")]
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT)
    placed = models.DateTimeField()
    status = models.CharField(max_length=12, choices=STATUSES, default="new")
    gift = models.BooleanField(default=False)
    delivery_note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-placed"]

    def __str__(self):
        return f"Order {self.pk} ({self.customer})"


class OrderLine(models.Model):
    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="lines")
    product = models.ForeignKey(Product, on_delete=models.PROTECT)
    quantity = models.PositiveIntegerField(default=1)

    def __str__(self):
        return f"{self.quantity} x {self.product}"
'''

_ADMIN = '''
from django.contrib import admin
from .models import Category, Customer, Order, OrderLine, Product, Supplier


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ["name", "description"]
    search_fields = ["name"]


@admin.register(Supplier)
class SupplierAdmin(admin.ModelAdmin):
    list_display = ["name", "email", "city"]
    search_fields = ["name", "city"]


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ["name", "category", "price", "stock", "available", "added"]
    list_editable = ["stock", "available"]
    list_filter = ["category", "available", "added"]
    search_fields = ["name", "notes"]
    filter_horizontal = ["suppliers"]
    readonly_fields = ["added"]
    fieldsets = [(None, {"fields": ["name", "category", "price", "stock", "available"]}),
                 ("Sourcing", {"fields": ["suppliers"]}),
                 ("More", {"classes": ["collapse"], "fields": ["added", "notes"]})]
    actions = ["mark_unavailable"]

    @admin.action(description="Mark the chosen products unavailable")
    def mark_unavailable(self, request, queryset):
        queryset.update(available=False)


@admin.register(Customer)
class CustomerAdmin(admin.ModelAdmin):
    list_display = ["name", "email", "city"]
    list_filter = ["city"]
    search_fields = ["name", "email"]


class OrderLineInline(admin.TabularInline):
    model = OrderLine
    extra = 1
    autocomplete_fields = ["product"]


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ["id", "customer", "placed", "status", "gift"]
    list_filter = ["status", "gift", "placed"]
    date_hierarchy = "placed"
    search_fields = ["customer__name", "delivery_note"]
    autocomplete_fields = ["customer"]
    inlines = [OrderLineInline]
    actions = ["mark_shipped"]

    @admin.action(description="Mark the chosen orders shipped")
    def mark_shipped(self, request, queryset):
        queryset.update(status="shipped")
'''

_SEED = '''
import datetime as dt
from decimal import Decimal
from django.contrib.auth.models import User
from shop.models import Category, Customer, Order, OrderLine, Product, Supplier
u = User.objects.create_superuser("ann", "ann@example.com", "%(password)s", first_name="Ann", last_name="Lee")
User.objects.create_user("bob", "bob@example.com", "heybro-django-bob-1", is_staff=True, first_name="Bob", last_name="Stone")
cats = {n: Category.objects.create(name=n, description=d) for n, d in [
    ("Kitchen", "Pots, pans and the things to cook with"), ("Dining", "What goes on the table"),
    ("Pantry", "Jars, tins and bins")]}
sups = [Supplier.objects.create(name=n, email=e, city=c) for n, e, c in [
    ("Acme Homeware", "orders@acme.example", "Leeds"), ("Northern Ceramics", "sales@nceramics.example", "Stoke"),
    ("Oak & Iron", "hello@oakiron.example", "York"), ("Linen House", "trade@linen.example", "Belfast")]]
names = ["Red Mug", "Blue Kettle", "Green Teapot", "Oak Tray", "Linen Napkins", "Steel Whisk", "Glass Jar",
         "Bread Bin", "Salt Mill", "Cast Iron Pan", "Tea Towel", "Butter Dish", "Pepper Mill", "Milk Jug",
         "Egg Cups", "Cake Tin", "Rolling Pin", "Spice Rack", "Coffee Press", "Cheese Board", "Water Jug",
         "Soup Bowls", "Oven Gloves", "Chopping Board"]
prods = []
for i, n in enumerate(names):
    p = Product.objects.create(name=n, category=list(cats.values())[i %% 3], price=Decimal(4 + (i * 7) %% 40) + Decimal("0.50"),
                               stock=(i * 11) %% 60, available=i %% 7 != 3, added=dt.date(2026, 1 + i %% 10, 1 + i %% 27),
                               notes="Seasonal line." if i %% 5 == 0 else "")
    p.suppliers.set(sups[i %% 4: i %% 4 + 1 + i %% 2])
    prods.append(p)
custs = [Customer.objects.create(name=n, email=e, city=c) for n, e, c in [
    ("Ann Lee", "ann.lee@example.com", "Leeds"), ("Bob Stone", "bob.stone@example.com", "York"),
    ("Cleo Park", "cleo@example.com", "Bath"), ("Dev Shah", "dev@example.com", "Hull"),
    ("Eve Moss", "eve@example.com", "Ely"), ("Finn Hart", "finn@example.com", "Leeds")]]
tz = dt.timezone.utc
for i in range(30):
    o = Order.objects.create(customer=custs[(i * 5) %% 6], placed=dt.datetime(2026, 10, 1 + i %% 28, 9 + i %% 8, 15, tzinfo=tz),
                             status=["new", "paid", "shipped", "cancelled"][(i * 3) %% 4], gift=i %% 6 == 0,
                             delivery_note="Leave with the neighbour" if i %% 4 == 0 else "")
    for j in range(1 + i %% 3):
        OrderLine.objects.create(order=o, product=prods[(i * 7 + j * 3) %% len(prods)], quantity=1 + (i + j) %% 4)
'''


@dataclass
class DjangoAdmin:
    url: str
    data: Path
    user: str = USER
    password: str = PASSWORD

    def login(self, page: Any) -> None:
        page.goto(f"{self.url}/admin/login/")
        page.fill("input[name=username]", self.user)
        page.fill("input[name=password]", self.password)
        with page.expect_navigation():
            page.click("input[type=submit]")
        if "/login" in page.url:
            raise RuntimeError("the Django admin refused the login")

    def pages(self) -> list[Page]:
        a = "/admin/shop"


        def choose(action: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                for box in page.locator("input.action-select").all()[:3]:
                    box.check()
                page.select_option("select[name=action]", action)
            return go

        return [
            Page("index", "/admin/", "list"),
            Page("app-index", f"{a}/", "list"),
            Page("products", f"{a}/product/", "grid"),
            Page("products-filtered", f"{a}/product/?category__id__exact=1&available__exact=1", "grid"),
            Page("products-search", f"{a}/product/?q=mill", "search"),
            Page("products-rows-chosen", f"{a}/product/", "grid", open=choose("mark_unavailable")),
            # (Deleting asks first: the page measured is that question, nothing is deleted.)
            Page("orders-delete-confirm", f"{a}/order/", "form",
                 open=then(choose("delete_selected"), click_until("button[name=index]", "form input[type=submit]"))),
            Page("product-change", f"{a}/product/2/change/", "form"),
            Page("product-change-more-open", f"{a}/product/2/change/", "form",
                 open=click_until("fieldset.collapse summary, fieldset.collapse .collapse-toggle", "textarea[name=notes]")),
            Page("product-add", f"{a}/product/add/", "form"),
            Page("product-delete", f"{a}/product/5/delete/", "form"),
            Page("product-history", f"{a}/product/2/history/", "view"),
            Page("orders", f"{a}/order/", "grid"),
            Page("orders-date-drilldown", f"{a}/order/?placed__year=2026&placed__month=10", "grid"),
            Page("order-change", f"{a}/order/4/change/", "form"),
            Page("order-customer-autocomplete", f"{a}/order/4/change/", "form",
                 open=click_until(".field-customer .select2-selection", ".select2-results__option")),
            Page("order-date-calendar", f"{a}/order/4/change/", "form",
                 open=click_until(".field-placed .datetimeshortcuts a[id^=calendarlink], .field-placed a.date-icon, #calendarlink0",
                            ".calendarbox")),
            Page("order-add", f"{a}/order/add/", "form"),
            Page("customers", f"{a}/customer/", "grid"),
            Page("customer-change", f"{a}/customer/3/change/", "form"),
            Page("users", "/admin/auth/user/", "grid"),
            Page("user-change", "/admin/auth/user/2/change/", "form"),
            Page("password-change", "/admin/password_change/", "form"),
        ]


def _missing() -> str | None:
    return first_missing(venv_missing(NAME, REQUIREMENTS))


def _install() -> None:
    venv_install(NAME, REQUIREMENTS)


def _make(project: Path) -> None:
    """The project's files, its tables, and its content."""
    (project / "shop").mkdir(parents=True, exist_ok=True)
    (project / "settings.py").write_text(_SETTINGS)
    (project / "urls.py").write_text(_URLS)
    (project / "manage.py").write_text("import os, sys\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'settings')\n"
                                       "from django.core.management import execute_from_command_line\n"
                                       "execute_from_command_line(sys.argv)\n")
    (project / "shop" / "__init__.py").write_text("")
    (project / "shop" / "models.py").write_text(_MODELS)
    (project / "shop" / "admin.py").write_text(_ADMIN)
    py = str(venv_dir(NAME) / "bin" / "python")
    run([py, "manage.py", "makemigrations", "shop"], cwd=project)
    run([py, "manage.py", "migrate", "--noinput"], cwd=project)
    run([py, "manage.py", "shell", "-c", _SEED % {"password": PASSWORD}], cwd=project)


@contextmanager
def _start(data: Path) -> Iterator[DjangoAdmin]:
    project = data / "shopsite"
    if not (project / "db.sqlite3").exists():
        _make(project)
    port = free_port()
    # --insecure: runserver serves the admin's static files itself with DEBUG off
    server = Process.start([str(venv_dir(NAME) / "bin" / "python"), "manage.py", "runserver", "--noreload", "--insecure",
                            f"127.0.0.1:{port}"], data / "runserver.log", cwd=project)
    try:
        d = DjangoAdmin(url=f"http://127.0.0.1:{port}", data=data)
        wait_http(f"{d.url}/admin/login/", server, timeout=60)
        yield d
    finally:
        server.stop()


APP = App(name=NAME, kind="administration site (Django's admin)", half="heldout",
          built_from="PyPI Django 5.2.19 (django.contrib.admin with its Select2, calendar and chooser widgets; runserver, SQLite)",
          missing=_missing, install=_install, start=_start)
