"""pydantic_models.py: application models written with Pydantic, the way
its users write request bodies (tests/wild/corpus.mjs).

  python3 pydantic_models.py schemas   prints [{name, dialect, schema,
                                        seeds}] as JSON: each model's
                                        JSON Schema (v2's
                                        model_json_schema, 2020-12; v1's
                                        schema(), draft-07's shapes)
  python3 pydantic_models.py judge     reads {name: [instance]} as JSON
                                        on stdin, prints {name: [bool]}:
                                        Pydantic's own verdict, parsing
                                        each instance as JSON text

Runs with Pydantic 1 (Debian's python3-pydantic) or 2: the few spellings
that differ (regex/pattern, min_items/min_length, the forward-reference
rebuild) are chosen by version below.
"""
import datetime
import decimal
import enum
import ipaddress
import json
import sys
import uuid
from typing import Dict, List, Literal, Optional, Tuple, Union

import pydantic
from pydantic import BaseModel, Field

V2 = pydantic.VERSION.startswith("2")
try:
    from typing import Annotated
except ImportError:  # pragma: no cover
    from typing_extensions import Annotated


def pat(p, **kw):
    return Field(pattern=p, **kw) if V2 else Field(regex=p, **kw)


def items(lo=None, hi=None, **kw):
    if V2:
        return Field(min_length=lo, max_length=hi, **kw)
    return Field(min_items=lo, max_items=hi, **kw)


def rebuild(*ms):
    for m in ms:
        if V2:
            m.model_rebuild()
        else:
            m.update_forward_refs()


MODELS = []


def model(seeds):
    def wrap(cls):
        MODELS.append((cls, seeds))
        return cls

    return wrap


class Role(str, enum.Enum):
    admin = "admin"
    editor = "editor"
    viewer = "viewer"


class Currency(str, enum.Enum):
    usd = "USD"
    eur = "EUR"
    jpy = "JPY"


class Priority(enum.IntEnum):
    low = 1
    mid = 2
    high = 3


@model([
    {"street": "1 Main", "city": "X", "zip": "12345", "country": "US"},
    {"street": "1 Main", "city": "X", "zip": "12345", "country": "US",
     "line2": None},
    {"street": "", "city": "X", "zip": "1", "country": "USA"},
])
class Address(BaseModel):
    street: str = Field(min_length=1)
    city: str = Field(min_length=1)
    zip: str = pat(r"^[0-9]{5}$")
    country: str = Field(min_length=2, max_length=2)
    line2: Optional[str] = None


@model([
    {"id": "3b241101-e2bb-4255-8caf-4136c566a962", "name": "Ann",
     "role": "admin", "created": "2024-01-01T00:00:00Z", "tags": []},
    {"id": "3b241101-e2bb-4255-8caf-4136c566a962", "name": "Bob", "age": 3,
     "role": "viewer", "created": "2024-01-01T00:00:00+02:00",
     "website": "https://example.com/", "tags": ["a"]},
    {"id": "nope", "name": "", "role": "root", "created": "yesterday",
     "tags": [1]},
])
class User(BaseModel):
    id: uuid.UUID
    name: str = Field(min_length=1, max_length=100)
    age: Optional[int] = Field(None, ge=0, le=150)
    role: Role = Role.viewer
    created: datetime.datetime
    website: Optional[pydantic.AnyUrl] = None
    tags: List[str] = items(hi=10, default=[])


@model([
    {"amount": 10, "currency": "EUR"},
    {"amount": 0.5, "currency": "USD"},
    {"amount": -1, "currency": "GBP"},
])
class Money(BaseModel):
    amount: float = Field(ge=0)
    currency: Currency


class LineItem(BaseModel):
    sku: str = pat(r"^[A-Z]{3}-[0-9]{4}$")
    quantity: int = Field(gt=0)
    price: Money


@model([
    {"id": "o1", "items": [{"sku": "ABC-1234", "quantity": 1,
                            "price": {"amount": 1, "currency": "EUR"}}],
     "shipping": {"street": "a", "city": "b", "zip": "12345",
                  "country": "DE"}, "status": "paid"},
    {"id": "o2", "items": [], "shipping": {}, "status": "lost"},
])
class Order(BaseModel):
    id: str
    items: List[LineItem] = items(lo=1)
    shipping: Address
    billing: Optional[Address] = None
    status: Literal["pending", "paid", "shipped"]
    note: Optional[str] = Field(None, max_length=500)


class Circle(BaseModel):
    kind: Literal["circle"]
    radius: float = Field(gt=0)


class Rect(BaseModel):
    kind: Literal["rect"]
    width: float = Field(ge=0)
    height: float = Field(ge=0)


@model([
    {"shape": {"kind": "circle", "radius": 1}},
    {"shape": {"kind": "rect", "width": 1, "height": 2}},
    {"shape": {"kind": "circle", "width": 1}},
    {"shape": {"kind": "hex"}},
])
class Drawing(BaseModel):
    shape: Union[Circle, Rect] = Field(discriminator="kind")


class Cat(BaseModel):
    pet_type: Literal["cat"]
    meows: int


class Dog(BaseModel):
    pet_type: Literal["dog"]
    barks: float


@model([
    {"pets": [{"pet_type": "cat", "meows": 3},
              {"pet_type": "dog", "barks": 1.5}], "owner": "a"},
    {"pets": [], "owner": "a"},
    {"pets": [{"pet_type": "fish"}], "owner": 1},
])
class Household(BaseModel):
    pets: List[Annotated[Union[Cat, Dog], Field(discriminator="pet_type")]]
    owner: str


@model([
    {"name": "root", "children": [{"name": "a", "children": []}]},
    {"name": "leaf"},
    {"name": "root", "children": [{"title": "a"}]},
])
class Category(BaseModel):
    name: str
    children: List["Category"] = []


@model([
    {"value": 1, "next": {"value": 2, "next": None}},
    {"value": 1},
    {"value": 1, "next": {"value": "x"}},
])
class Node(BaseModel):
    value: int
    next: Optional["Node"] = None


class Employee(BaseModel):
    name: str
    reports: List["Employee"] = []
    manager: Optional["Manager"] = None


class Manager(BaseModel):
    name: str
    team: List[Employee]


rebuild(Category, Node, Employee, Manager)
MODELS.append((Manager, [
    {"name": "m", "team": [{"name": "e", "reports": [{"name": "f"}]}]},
    {"name": "m", "team": [{"name": "e", "manager": {"name": "m2",
                                                     "team": []}}]},
    {"name": "m", "team": [{"reports": []}]},
]))


@model([
    {"page": 1, "per_page": 20},
    {"page": 2, "per_page": 100, "sort": "desc"},
    {"page": 0, "per_page": 101, "sort": "up"},
])
class Pagination(BaseModel):
    page: int = Field(1, ge=1)
    per_page: int = Field(20, ge=1, le=100)
    sort: Optional[Literal["asc", "desc"]] = None


@model([
    {"flags": {"dark": True}, "limits": {"cpu": 1.5}},
    {"flags": {}, "limits": {}},
    {"flags": {"dark": "yes"}, "limits": {"cpu": "x"}},
])
class FeatureFlags(BaseModel):
    flags: Dict[str, bool]
    limits: Dict[str, float] = {}


@model([
    {"point": [1.5, 2.5], "label": "a"},
    {"point": [1, 2]},
    {"point": [1], "label": 1},
    {"point": [1, 2, 3]},
])
class Coordinates(BaseModel):
    point: Tuple[float, float]
    label: Optional[str] = None


@model([
    {"rgb": [1, 2, 3], "alpha": 0.5},
    {"rgb": [1, 2, 300], "alpha": 2},
])
class Color(BaseModel):
    rgb: Tuple[Annotated[int, Field(ge=0, le=255)],
               Annotated[int, Field(ge=0, le=255)],
               Annotated[int, Field(ge=0, le=255)]]
    alpha: float = Field(1.0, ge=0, le=1)


@model([
    {"values": [1, 2, 3]},
    {"values": []},
    {"values": ["a"]},
])
class VarTuple(BaseModel):
    values: Tuple[int, ...]


@model([
    {"username": "ann_1", "password": "12345678"},
    {"username": "bob", "password": "12345678", "remember": True},
    {"username": "a!", "password": "short"},
])
class Login(BaseModel):
    username: str = pat(r"^[a-zA-Z0-9_]+$", min_length=3, max_length=32)
    password: str = Field(min_length=8)
    remember: bool = False


@model([
    {"host": "10.0.0.1", "port": 443},
    {"host": "::1", "port": 80, "allow": ["10.0.0.0/8"]},
    {"host": "999.0.0.1", "port": 0, "allow": ["x"]},
])
class Network(BaseModel):
    host: Union[ipaddress.IPv4Address, ipaddress.IPv6Address]
    port: int = Field(ge=1, le=65535)
    allow: List[ipaddress.IPv4Network] = []


@model([
    {"date": "2024-12-31", "start": "09:30:00", "length": "PT1H"},
    {"date": "2024-02-30", "start": "25:00", "length": "1h"},
])
class Schedule(BaseModel):
    date: datetime.date
    start: datetime.time
    length: datetime.timedelta


@model([
    {"price": "10.50", "qty": 1},
    {"price": 10.5, "qty": 2},
    {"price": "abc", "qty": 0},
])
class PriceQuote(BaseModel):
    price: decimal.Decimal
    qty: int = Field(ge=1)


@model([
    {"title": "t", "priority": 1, "done": False},
    {"title": "t", "priority": 3, "done": True, "due": "2024-01-01"},
    {"title": "", "priority": 4, "done": "no"},
])
class Task(BaseModel):
    title: str = Field(min_length=1)
    priority: Priority
    done: bool
    due: Optional[datetime.date] = None


@model([
    {"theme": "dark", "font_size": 12},
    {},
    {"theme": "blue", "font_size": 100, "extra": 1},
])
class Settings(BaseModel):
    theme: Literal["light", "dark", "system"] = "system"
    font_size: int = Field(14, ge=8, le=72)
    language: str = pat(r"^[a-z]{2}$", default="en")

    if V2:
        model_config = {"extra": "forbid"}
    else:
        class Config:
            extra = "forbid"


@model([
    {"version": 1, "anything": [1]},
    {"version": 2},
])
class Loose(BaseModel):
    version: Literal[1]

    if V2:
        model_config = {"extra": "allow"}
    else:
        class Config:
            extra = "allow"


class PriceFilter(BaseModel):
    field: Literal["price"]
    min: Optional[float] = None
    max: Optional[float] = None


class BrandFilter(BaseModel):
    field: Literal["brand"]
    values: List[str] = items(lo=1)



@model([
    {"q": "shoes", "filters": [{"field": "brand", "values": ["a"]},
                               {"field": "price", "max": 3}]},
    {"q": "", "filters": [{"field": "color"}], "limit": 100},
])
class Search(BaseModel):
    q: str = Field(min_length=1, max_length=200)
    filters: List[Annotated[Union[PriceFilter, BrandFilter],
                            Field(discriminator="field")]] = []
    limit: int = Field(10, ge=1, le=50)




@model([
    {"a": None, "c": None},
    {"a": "x", "b": 1, "c": ["x", None]},
    {"a": 1, "c": [1]},
])
class Nullables(BaseModel):
    a: Optional[str]
    b: Optional[int] = None
    c: Optional[List[Optional[str]]]


@model([
    {"value": "abc"}, {"value": 3}, {"value": [1, 2]}, {"value": None},
    {"value": "toolong"}, {"value": {"x": 1}},
])
class UnionField(BaseModel):
    value: Union[Annotated[str, Field(max_length=5)], int, List[int]]


class InvoiceLine(BaseModel):
    description: str
    hours: float = Field(gt=0, le=24)
    rate: float = Field(gt=0)


@model([
    {"number": "INV-000001", "issued": "2024-01-01",
     "lines": [{"description": "x", "hours": 8, "rate": 100}], "tax": 0.2},
    {"number": "INV-1", "issued": "x", "lines": [], "tax": 0.9},
])
class Invoice(BaseModel):
    number: str = pat(r"^INV-[0-9]{6}$")
    issued: datetime.date
    lines: List[InvoiceLine] = items(lo=1, hi=100)
    tax: Optional[float] = Field(None, ge=0, le=0.5)




@model([
    {"url": "https://example.com/x", "secret": "s3cret", "data": "aGk="},
    {"url": "not a url", "secret": 1},
])
class Webhook(BaseModel):
    url: pydantic.HttpUrl
    secret: pydantic.SecretStr
    data: Optional[bytes] = None


@model([
    {"tags": ["a", "b"], "scores": [1, 2]},
    {"tags": ["a", "a"], "scores": []},
])
class Sets(BaseModel):
    tags: List[str] = items(lo=1, hi=5)
    scores: List[Annotated[int, Field(ge=0)]]


@model([
    {"matrix": [[1, 2], [3, 4]]},
    {"matrix": [[1, "x"]]},
])
class Matrix(BaseModel):
    matrix: List[List[float]]


@model([
    {"kind": "a", "payload": {"x": 1}},
    {"kind": "b", "payload": None},
    {"kind": "c"},
])
class Envelope(BaseModel):
    kind: Literal["a", "b"]
    payload: Optional[Dict[str, int]] = Field(
        None, description="the event's data", title="Payload")


@model([
    {"even": 4, "ratio": 0.5, "small": 0.5},
    {"even": 3, "ratio": 1, "small": 1},
])
class Numbers(BaseModel):
    even: int = Field(multiple_of=2)
    ratio: float = Field(gt=0, lt=1)
    small: float = Field(ge=0, lt=1)


@model([
    {"key": "k", "value": {"a": [1, "x", None, True]}},
    {"key": "k", "value": 1},
])
class JsonBlob(BaseModel):
    key: str
    value: Union[Dict[str, object], List[object], str, int, float, bool,
                 None]


def schema_of(cls):
    if V2:
        return cls.model_json_schema()
    return cls.schema()


def check(cls, value):
    text = json.dumps(value)
    try:
        if V2:
            cls.model_validate_json(text)
        else:
            cls.parse_raw(text)
        return True
    except Exception:  # noqa: BLE001
        # Pydantic 1 raises ConfigError, not ValidationError, for a
        # discriminator value it cannot hash (a list): it did not accept
        return False


def main():
    by_name = {cls.__name__: (cls, seeds) for cls, seeds in MODELS}
    if sys.argv[1:] == ["schemas"]:
        dialect = "2020-12" if V2 else "draft-07"
        out = [{"name": n, "dialect": dialect, "version": pydantic.VERSION,
                "schema": schema_of(c), "seeds": s}
               for n, (c, s) in by_name.items()]
        json.dump(out, sys.stdout)
    elif sys.argv[1:] == ["judge"]:
        todo = json.load(sys.stdin)
        json.dump({n: [check(by_name[n][0], x) for x in xs]
                   for n, xs in todo.items()}, sys.stdout)
    else:
        sys.exit("usage: pydantic_models.py schemas|judge")


if __name__ == "__main__":
    main()
