"""Versions the two halves agree on."""

from importlib.metadata import PackageNotFoundError, version

try:
    HOST_VERSION = version("heybro")
except PackageNotFoundError:  # running from a source tree without install
    HOST_VERSION = "0.0.0+source"
