"""Static files served by WhiteNoise: compressed (gzip and Brotli), named by a hash of their
content, cached a year as immutable. The ES modules' own imports ("./view.js") are rewritten
to the hashed names too, so a repeat visit asks the server for no static file at all."""

import hashlib
import posixpath
import re

from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.storage import CompressedManifestStaticFilesStorage

# import ... from "./x.js", export ... from "../y.js", import "./z.js", import("./w.js").
_RELATIVE_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """collectstatic's hashed, compressed copies and their manifest.

    The ES modules' ``import ... from "./x.js";`` and ``export ... from`` are rewritten to the
    imported file's hashed name (each module's hash then covers what it imports). Hashed names
    even with DEBUG on: ``make run`` serves what compose serves."""

    support_js_module_import_aggregation = True

    def url(self, name, force=False):
        return super().url(name, force=True)

    def post_process(self, *args, **kwargs):
        self._module_hashes: dict[str, str] = {}
        yield from super().post_process(*args, **kwargs)

    def file_hash(self, name, content=None):
        """A module's hash is that of its source and of every module it imports, directly or
        not. Django's default, the hash of the rewritten file, never settles when modules import
        each other in a cycle (each new name changes the other's content: "Max post-process passes
        exceeded"); this one does not depend on the rewriting, and still changes whenever any
        module the file runs changes."""
        if content is None or not str(name).endswith(".js"):
            return super().file_hash(name, content)
        hashes = getattr(self, "_module_hashes", None)
        if hashes is None:
            hashes = self._module_hashes = {}
        if name not in hashes:
            digest = hashlib.md5(usedforsecurity=False)
            for module in sorted(self._imported_closure(name)):
                with self.open(module) as source:
                    digest.update(module.encode() + b"\0" + source.read() + b"\0")
            hashes[name] = digest.hexdigest()[:12]
        return hashes[name]

    def _imported_closure(self, name: str) -> set[str]:
        """``name`` and the modules it imports by a relative specifier, transitively."""
        seen, pending = set(), [name]
        while pending:
            module = pending.pop()
            if module in seen or not self.exists(module):
                continue
            seen.add(module)
            with self.open(module) as source:
                text = source.read().decode("utf-8", errors="replace")
            for specifier in _RELATIVE_IMPORT.findall(text):
                pending.append(posixpath.normpath(posixpath.join(posixpath.dirname(module), specifier)))
        return seen


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise, with a hashed file's Cache-Control a year (``immutable``) instead of ten."""

    FOREVER = 365 * 24 * 60 * 60
