"""Writing MEI elements: the namespace, ``xml:id`` and ``xml:lang``, text made safe."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

__all__ = ["NS", "MEI", "XML", "sub", "xml_id", "clean"]

#: MEI's namespace, and the XML namespace (``xml:id``, ``xml:lang``).
NS = "http://www.music-encoding.org/ns/mei"
MEI = "{" + NS + "}"
XML = "{http://www.w3.org/XML/1998/namespace}"

ET.register_namespace("", NS)

#: Characters XML 1.0 forbids (C0 controls but tab, line feed, return; the
#: surrogates; U+FFFE, U+FFFF).
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean(text: str) -> str:
    """*text* with every character XML may not hold shown as ``U+XXXX``."""
    return _FORBIDDEN.sub(lambda m: f"U+{ord(m.group()):04X}", text)


def xml_id() -> str:
    """The attribute name ``xml:id`` (for ``**{xml_id(): …}``)."""
    return XML + "id"


def sub(parent: ET.Element, tag: str, text: str | None = None, **attrib: str) -> ET.Element:
    """A child ``tag`` of *parent* in MEI's namespace; ``lang=`` is ``xml:lang``."""
    attrs = {}
    for key, value in attrib.items():
        name = XML + "lang" if key == "lang" else key
        attrs[name] = clean(str(value))
    element = ET.SubElement(parent, MEI + tag, attrs)
    if text is not None:
        element.text = clean(text)
    return element
