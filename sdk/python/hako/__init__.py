"""Hako: a native PDL interpreter. `hako.pdl` offers the reference interpreter's entry points."""

from ._hako import version as _version

__version__ = _version()
