"""The forms a page holds, read from its HTML as a browser would submit them."""

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit


@dataclass
class Field:
    name: str
    kind: str  # input type, "select", "textarea" or "button"
    value: str = ""
    checked: bool = False
    options: list = field(default_factory=list)


@dataclass
class Form:
    page: str
    action: str
    method: str
    fields: list = field(default_factory=list)

    @property
    def names(self):
        return sorted({f.name for f in self.fields})

    @property
    def key(self):
        return (self.method, self.action, tuple(self.names))

    def data(self):
        """What pressing the first button sends: values, checked boxes, chosen options."""
        data, radios, button = {}, set(), False
        for f in self.fields:
            if f.kind in ("submit", "button"):
                if f.name and not button:
                    data[f.name] = f.value
                    button = True
            elif f.kind == "radio":
                if f.checked or f.name not in radios:
                    data[f.name] = f.value
                radios.add(f.name)
            elif f.kind == "checkbox":
                if f.checked:
                    data.setdefault(f.name, [])
                    data[f.name].append(f.value or "on")
            elif f.kind == "select":
                chosen = [v for v, selected in f.options if selected]
                data[f.name] = chosen[0] if chosen else (f.options[0][0] if f.options else "")
            elif f.kind == "file":
                continue
            else:
                data[f.name] = f.value
        return data

    def has_file(self):
        return any(f.kind == "file" for f in self.fields)


class _Parser(HTMLParser):
    def __init__(self, page):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.forms, self.form, self.select, self.textarea = [], None, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "option" and self.select is not None:
            self.select.options.append((attrs.get("value") or "", "selected" in attrs))
            return
        if tag == "form":
            action = urljoin(self.page, attrs.get("action") or self.page)
            method = (attrs.get("method") or "get").upper()
            self.form = Form(self.page, urlsplit(action).path, method)
            self.forms.append(self.form)
            return
        if self.form is None or not attrs.get("name"):
            return
        name = attrs["name"]
        if tag == "input":
            kind = (attrs.get("type") or "text").lower()
            self.form.fields.append(Field(name, kind, attrs.get("value") or "", "checked" in attrs))
        elif tag == "button":
            kind = (attrs.get("type") or "submit").lower()
            if kind == "submit":
                self.form.fields.append(Field(name, "submit", attrs.get("value") or ""))
        elif tag == "select":
            self.select = Field(name, "select")
            self.form.fields.append(self.select)
        elif tag == "textarea":
            self.textarea = Field(name, "textarea")
            self.form.fields.append(self.textarea)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        if self.textarea is not None:
            self.textarea.value += data

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def page_forms(page, html):
    """The forms of a page at path ``page``, with their fields."""
    parser = _Parser(page)
    parser.feed(html)
    return parser.forms
