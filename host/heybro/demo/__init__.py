"""A small local shop to try heybro on (`scripts/demo`), whose server records every order."""

from .site import DemoSite

__all__ = ["DemoSite"]
