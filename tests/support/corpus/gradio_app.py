"""A Gradio app (PyPI gradio 6): the kind of tool a team builds in an afternoon over its data — a
Svelte single-page app of Gradio's own components (tabs, an editable data frame, dropdowns that
filter as one types, sliders with number boxes, checkbox groups, radios, an accordion, a chat, a
file drop, toasts) talking to its Python functions over a queue — here a shop's order desk,
written in the data folder, no login.

Its functions answer from a small in-memory shop (products, orders), so every start is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, wait_http
from .base import App, Page, click_until, first_missing, then, venv_dir, venv_install, venv_missing

NAME = "gradio"
REQUIREMENTS = ["gradio==6.31.0"]

_APP = '''
import sys
import gradio as gr

PRODUCTS = [["Red Mug", "Kitchen", 8.5, 40], ["Blue Kettle", "Kitchen", 24.0, 12], ["Green Teapot", "Kitchen", 31.25, 7],
            ["Oak Tray", "Dining", 18.0, 22], ["Linen Napkins", "Dining", 12.75, 60], ["Glass Jar", "Pantry", 4.95, 80],
            ["Bread Bin", "Pantry", 29.9, 9], ["Salt Mill", "Dining", 15.0, 18]]
ORDERS = [[1001, "Ann Lee", "Blue Kettle", 1, "shipped"], [1002, "Bob Stone", "Red Mug", 4, "paid"],
          [1003, "Cleo Park", "Oak Tray", 2, "new"], [1004, "Dev Shah", "Glass Jar", 6, "cancelled"],
          [1005, "Eve Moss", "Salt Mill", 1, "new"]]
NAMES = [p[0] for p in PRODUCTS]


def find(category, max_price, in_stock_only):
    rows = [p for p in PRODUCTS if (category == "All" or p[1] == category) and p[2] <= max_price
            and (not in_stock_only or p[3] > 0)]
    return rows, f"{len(rows)} products"


def place(customer, product, quantity, gift, delivery):
    if not customer.strip():
        raise gr.Error("Say who the order is for.")
    price = next(p[2] for p in PRODUCTS if p[0] == product)
    total = price * quantity
    return f"Order for {customer}: {quantity} x {product} = EUR {total:.2f}" + (" (gift wrapped)" if gift else "") + f", {delivery}."


def answer(message, history):
    low = [p[0] for p in PRODUCTS if p[3] < 10]
    return "Running low: " + ", ".join(low) if "low" in message.lower() else "Ask me what is running low."


with gr.Blocks(title="Order desk", analytics_enabled=False) as demo:
    gr.Markdown("# Order desk\\nFind products, place an order, ask the assistant.")
    with gr.Tab("Products"):
        with gr.Row():
            category = gr.Dropdown(["All", "Kitchen", "Dining", "Pantry"], value="All", label="Category")
            max_price = gr.Slider(1, 50, value=50, step=1, label="Highest price (EUR)")
            in_stock = gr.Checkbox(value=True, label="In stock only")
        search = gr.Button("Find products", variant="primary")
        count = gr.Textbox(label="Found", interactive=False)
        table = gr.Dataframe(headers=["Name", "Category", "Price", "Stock"], value=PRODUCTS, label="Products",
                             interactive=False)
        search.click(find, [category, max_price, in_stock], [table, count])
    with gr.Tab("New order"):
        customer = gr.Textbox(label="Customer", placeholder="Full name")
        product = gr.Dropdown(NAMES, value="Red Mug", label="Product", filterable=True)
        quantity = gr.Number(value=1, minimum=1, maximum=20, precision=0, label="Quantity")
        gift = gr.Checkbox(label="Gift wrap")
        delivery = gr.Radio(["Standard", "Express", "Collect in store"], value="Standard", label="Delivery")
        extras = gr.CheckboxGroup(["Card", "Receipt without prices", "Call before delivery"], label="Extras")
        with gr.Accordion("Notes for the warehouse", open=False):
            notes = gr.Textbox(label="Notes", lines=3)
        place_btn = gr.Button("Place order", variant="primary")
        clear = gr.ClearButton([customer, notes], value="Clear")
        result = gr.Textbox(label="Result", interactive=False)
        place_btn.click(place, [customer, product, quantity, gift, delivery], result)
    with gr.Tab("Orders"):
        orders = gr.Dataframe(headers=["Order", "Customer", "Product", "Quantity", "Status"], value=ORDERS,
                              label="Orders", interactive=True)
        status = gr.Dropdown(["new", "paid", "shipped", "cancelled"], multiselect=True, value=["new", "paid"],
                             label="Statuses shown")
        upload = gr.File(label="Import orders (CSV)", file_types=[".csv"])
    with gr.Tab("Assistant"):
        gr.ChatInterface(answer, title=None, examples=["What is running low?"])

demo.queue().launch(server_name="127.0.0.1", server_port=int(sys.argv[1]), show_error=True, footer_links=[])
'''


@dataclass
class GradioApp:
    url: str
    user: str = ""
    password: str = ""

    def login(self, page: Any) -> None:
        page.goto(f"{self.url}/")  # no login: the tool is open on 127.0.0.1
        page.wait_for_selector("button[role=tab]", timeout=30_000)

    def pages(self) -> list[Page]:
        ready = "button[role=tab]"

        def tab(name: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.get_by_role("tab", name=name).click()
                page.wait_for_timeout(500)
            return go


        def fill(label: str, text: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.get_by_label(label, exact=True).fill(text)
            return go

        def press(name: str, settle: int = 800) -> Callable[[Any], None]:
            """Clicks a shown button by its words, then lets the app answer (its queue, a transition)."""
            def go(page: Any) -> None:
                page.get_by_role("button", name=name).first.click()
                page.wait_for_timeout(settle)
            return go

        def open_choices(page: Any) -> None:
            page.locator("input[role=listbox]:visible, input[role=combobox]:visible").first.click()
            page.wait_for_selector("ul[role=listbox]", state="visible", timeout=10_000)
            page.wait_for_timeout(400)

        return [
            Page("products", "/", "grid", ready=ready),
            Page("products-category-open", "/", "dialog", ready=ready, open=open_choices),
            Page("products-found", "/", "grid", ready=ready,
                 open=press("Find products", 1500)),
            Page("new-order", "/", "form", ready=ready, open=tab("New order")),
            Page("new-order-product-typed", "/", "dialog", ready=ready,
                 open=then(tab("New order"), open_choices, lambda page: page.keyboard.type("ke"),
                           lambda page: page.wait_for_timeout(400))),
            Page("new-order-notes-open", "/", "form", ready=ready,
                 open=then(tab("New order"), press("Notes for the warehouse"))),
            Page("new-order-placed", "/", "form", ready=ready,
                 open=then(tab("New order"), fill("Customer", "Ann Lee"), press("Place order", 2000))),
            Page("products-price-lowered", "/", "grid", ready=ready,
                 open=then(lambda page: page.locator("input[type=range]:visible").first.fill("20"), press("Find products", 1500))),
            Page("new-order-filled", "/", "form", ready=ready,
                 open=then(tab("New order"), fill("Customer", "Bob Stone"), lambda page: page.get_by_label("Express").check(),
                           lambda page: page.get_by_label("Card").check(), lambda page: page.wait_for_timeout(300))),
            Page("new-order-error", "/", "form", ready=ready,
                 open=then(tab("New order"), click_until("button:has-text('Place order')", ".toast-body, [data-testid=toast-body]", 400))),
            Page("orders", "/", "grid", ready=ready, open=tab("Orders")),
            Page("products-kitchen-found", "/", "grid", ready=ready,
                 open=then(open_choices, lambda page: page.get_by_role("option", name="Kitchen").click(),
                           press("Find products", 1500))),
            Page("assistant", "/", "form", ready=ready, open=tab("Assistant")),
            Page("assistant-example-asked", "/", "view", ready=ready,
                 open=then(tab("Assistant"), press("What is running low?", 2000))),
            Page("assistant-answered", "/", "view", ready=ready,
                 open=then(tab("Assistant"), lambda page: page.get_by_placeholder("Type a message...").fill("what is running low?"),
                           lambda page: page.keyboard.press("Enter"), lambda page: page.wait_for_timeout(2000))),
        ]


def _missing() -> str | None:
    return first_missing(venv_missing(NAME, REQUIREMENTS))


def _install() -> None:
    venv_install(NAME, REQUIREMENTS)


@contextmanager
def _start(data: Path) -> Iterator[GradioApp]:
    data.mkdir(parents=True, exist_ok=True)
    (data / "desk.py").write_text(_APP)
    port = free_port()
    server = Process.start([str(venv_dir(NAME) / "bin" / "python"), str(data / "desk.py"), str(port)], data / "gradio.log",
                           env={"GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1", "GRADIO_SERVER_NAME": "127.0.0.1"},
                           cwd=data)
    try:
        g = GradioApp(url=f"http://127.0.0.1:{port}")
        wait_http(f"{g.url}/", server, timeout=90)
        yield g
    finally:
        server.stop()


APP = App(name=NAME, kind="internal tool (Svelte single-page app of Gradio's components)", half="heldout",
          built_from="PyPI gradio 6.31.0 (Svelte front end, FastAPI queue), an order desk written for it",
          missing=_missing, install=_install, start=_start, notes=["no login: open on 127.0.0.1"],
          network_idle=False)  # the queue keeps a stream open
