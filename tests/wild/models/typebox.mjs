// typebox.mjs: application models written with @sinclair/typebox (0.34),
// whose types are JSON Schemas as built (draft-07's shapes: tuples as an
// items array with additionalItems, records as patternProperties,
// recursion as a relative "$id": "T0" with "$ref": "T0", modules as
// $defs whose members carry their own name as $id).  tests/wild/
// corpus.mjs serves each as a form and uses TypeBox's Value.Check as one
// judge of the instances; formats() registers the formats the models
// use, as a TypeBox user must (TypeBox checks no format it is not given).
export function formats(FormatRegistry) {
	const re = {
		email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
		uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
		date: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
		"date-time": /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i,
		uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
		ipv4: /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
		hostname: /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i,
	};
	for (const [k, r] of Object.entries(re))
		FormatRegistry.Set(k, (v) => r.test(v) &&
		    (k !== "date" || !Number.isNaN(Date.parse(v))));
}

export function models(Type) {
	const m = [];
	const add = (name, schema, seeds) => m.push({ name, schema, seeds });
	const Opt = Type.Optional;

	const Address = Type.Object({
		street: Type.String({ minLength: 1 }),
		city: Type.String({ minLength: 1 }),
		zip: Type.String({ pattern: "^[0-9]{5}$" }),
		country: Type.String({ minLength: 2, maxLength: 2 }),
		line2: Opt(Type.String()),
	}, { additionalProperties: false });
	add("Address", Address, [
		{ street: "1 Main", city: "X", zip: "12345", country: "US" },
		{ street: "1 Main", city: "X", zip: "12345", country: "US",
		    line2: "b" },
		{ street: "", city: "X", zip: "1", country: "USA", extra: 1 },
	]);

	const Role = Type.Union([Type.Literal("admin"), Type.Literal("editor"),
	    Type.Literal("viewer")]);
	add("User", Type.Object({
		id: Type.String({ format: "uuid" }),
		email: Type.String({ format: "email" }),
		name: Type.String({ minLength: 1, maxLength: 100 }),
		age: Opt(Type.Integer({ minimum: 0, maximum: 150 })),
		role: Role,
		tags: Type.Array(Type.String(), { maxItems: 10, default: [] }),
		website: Type.Union([Type.String({ format: "uri" }), Type.Null()]),
	}), [
		{ id: "3b241101-e2bb-4255-8caf-4136c566a962", email: "a@b.co",
		    name: "Ann", role: "admin", tags: [], website: null },
		{ id: "3b241101-e2bb-4255-8caf-4136c566a962", email: "a@b.co",
		    name: "Ann", age: 3, role: "viewer", tags: ["x"],
		    website: "https://example.com" },
		{ id: "x", email: "no", name: "", role: "root", tags: [1],
		    website: 3 },
	]);

	add("Shape", Type.Union([
		Type.Object({ kind: Type.Literal("circle"),
		    radius: Type.Number({ exclusiveMinimum: 0 }) }),
		Type.Object({ kind: Type.Literal("rect"),
		    w: Type.Number({ minimum: 0 }), h: Type.Number({ minimum: 0 }) }),
		Type.Object({ kind: Type.Literal("line"),
		    from: Type.Tuple([Type.Number(), Type.Number()]),
		    to: Type.Tuple([Type.Number(), Type.Number()]) }),
	]), [
		{ kind: "circle", radius: 1 },
		{ kind: "rect", w: 1, h: 0 },
		{ kind: "line", from: [0, 0], to: [1, 1] },
		{ kind: "circle", radius: 0 },
		{ kind: "hexagon" },
	]);

	add("TaggedEvent", Type.Union([
		Type.Object({ type: Type.Literal("click"), x: Type.Integer(),
		    y: Type.Integer() }, { additionalProperties: false }),
		Type.Object({ type: Type.Literal("key"), key: Type.String(),
		    modifiers: Type.Array(Type.Union([Type.Literal("shift"),
			Type.Literal("ctrl"), Type.Literal("alt")])) },
		    { additionalProperties: false }),
	]), [
		{ type: "click", x: 1, y: 2 },
		{ type: "key", key: "a", modifiers: ["shift"] },
		{ type: "click", x: 1.5, y: 2, z: 3 },
	]);

	add("CategoryTree", Type.Recursive((This) => Type.Object({
		name: Type.String(),
		children: Type.Array(This),
	})), [
		{ name: "r", children: [{ name: "a", children: [] }] },
		{ name: "r", children: [] },
		{ name: "r", children: [{ name: "a" }] },
	]);

	add("LinkedList", Type.Recursive((Node) => Type.Object({
		value: Type.Number(),
		next: Type.Union([Node, Type.Null()]),
	})), [
		{ value: 1, next: { value: 2, next: null } },
		{ value: 1, next: null },
		{ value: 1, next: { value: "2", next: null } },
	]);

	add("JsonValue", Type.Recursive((J) => Type.Union([Type.String(),
	    Type.Number(), Type.Boolean(), Type.Null(), Type.Array(J),
	    Type.Record(Type.String(), J)])), [
		{ a: [1, "x", null, { b: false }] },
		"s",
		[[[]]],
	]);

	add("Pagination", Type.Object({
		page: Type.Integer({ minimum: 1, default: 1 }),
		perPage: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
		sort: Opt(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
	}), [
		{ page: 1, perPage: 20 },
		{ page: 2, perPage: 5, sort: "asc" },
		{ page: 0, perPage: 500, sort: "up" },
	]);

	add("Flags", Type.Record(Type.String({ pattern: "^[a-z_]+$" }),
	    Type.Boolean()), [
		{ dark_mode: true },
		{},
		{ "Bad-Key": true, ok: "yes" },
	]);

	add("NumericKeys", Type.Record(Type.Number(), Type.String()), [
		{ 0: "a", 12: "b" },
		{ x: "a" },
		{ 1: 2 },
	]);

	add("Point3", Type.Tuple([Type.Number(), Type.Number(), Type.Number()]), [
		[1, 2, 3],
		[1, 2],
		[1, 2, 3, 4],
	]);

	add("Login", Type.Object({
		username: Type.String({ minLength: 3, maxLength: 32,
		    pattern: "^[a-zA-Z0-9_]+$" }),
		password: Type.String({ minLength: 8 }),
		remember: Type.Boolean({ default: false }),
	}), [
		{ username: "ann", password: "12345678", remember: true },
		{ username: "a", password: "1", remember: "yes" },
	]);

	add("Config", Type.Object({
		host: Type.String({ format: "hostname" }),
		port: Type.Integer({ minimum: 1, maximum: 65535, default: 8080 }),
		allow: Opt(Type.Array(Type.String({ format: "ipv4" }))),
		tls: Type.Union([Type.Object({ cert: Type.String(),
		    key: Type.String() }), Type.Null()]),
		log: Type.Union([Type.Literal("debug"), Type.Literal("info"),
		    Type.Literal("warn")], { default: "info" }),
	}), [
		{ host: "example.com", port: 443, tls: null, log: "info" },
		{ host: "localhost", port: 80, allow: ["10.0.0.1"],
		    tls: { cert: "c", key: "k" }, log: "debug" },
		{ host: "bad host", port: 0, allow: ["300.0.0.1"], tls: {},
		    log: "trace" },
	]);

	add("Intersect", Type.Intersect([
		Type.Object({ id: Type.String() }),
		Type.Object({ createdAt: Type.String({ format: "date-time" }) }),
	]), [
		{ id: "x", createdAt: "2024-01-01T00:00:00Z" },
		{ id: "x" },
		{ createdAt: "now" },
	]);

	add("Partial", Type.Partial(Type.Object({
		name: Type.String(), age: Type.Integer(),
	})), [{}, { name: "a" }, { age: "3" }]);

	add("Required", Type.Required(Type.Object({
		name: Opt(Type.String()), age: Opt(Type.Integer()),
	})), [{ name: "a", age: 1 }, { name: "a" }]);

	add("Pick", Type.Pick(Type.Object({ a: Type.String(), b: Type.Number(),
	    c: Type.Boolean() }), ["a", "c"]), [
		{ a: "x", c: true }, { a: "x" }, { a: 1, c: true },
	]);

	add("Omit", Type.Omit(Type.Object({ a: Type.String(), b: Type.Number(),
	    c: Type.Boolean() }), ["b"]), [
		{ a: "x", c: true }, { c: true },
	]);

	add("KeyOf", Type.Object({ field: Type.KeyOf(Type.Object({
	    title: Type.String(), date: Type.String() })) }), [
		{ field: "title" }, { field: "author" },
	]);

	add("TemplateLiteral", Type.Object({
		event: Type.TemplateLiteral("on${string}"),
		version: Type.TemplateLiteral([Type.Literal("v"), Type.Number()]),
	}), [
		{ event: "onClick", version: "v2" },
		{ event: "click", version: "2" },
	]);

	add("Enum", Type.Object({ color: Type.Enum({ Red: "red", Green: "green",
	    Blue: "blue" }), level: Type.Enum({ Low: 0, High: 1 }) }), [
		{ color: "red", level: 0 },
		{ color: "pink", level: 2 },
	]);

	add("NullableFields", Type.Object({
		a: Type.Union([Type.String(), Type.Null()]),
		b: Opt(Type.Union([Type.Number(), Type.Null()])),
		c: Type.Union([Type.Array(Type.Union([Type.String(), Type.Null()])),
		    Type.Null()]),
	}), [
		{ a: null, c: null },
		{ a: "x", b: 1, c: ["x", null] },
		{ a: 1, c: [1] },
	]);

	add("Invoice", Type.Object({
		number: Type.String({ pattern: "^INV-[0-9]{6}$" }),
		issued: Type.String({ format: "date" }),
		lines: Type.Array(Type.Object({
			description: Type.String(),
			quantity: Type.Integer({ minimum: 1 }),
			price: Type.Number({ exclusiveMinimum: 0, multipleOf: 0.01 }),
		}), { minItems: 1, maxItems: 50 }),
		paid: Type.Boolean(),
	}), [
		{ number: "INV-000001", issued: "2024-01-31",
		    lines: [{ description: "x", quantity: 1, price: 3 }],
		    paid: false },
		{ number: "INV-1", issued: "2024-13-01", lines: [], paid: 0 },
	]);

	add("Unique", Type.Object({
		ids: Type.Array(Type.Integer(), { uniqueItems: true }),
		contains: Type.Array(Type.Number(), { contains: Type.Literal(0),
		    minContains: 1 }),
	}), [
		{ ids: [1, 2], contains: [0, 1] },
		{ ids: [1, 1], contains: [1] },
	]);

	add("StrictObject", Type.Object({ a: Type.String() },
	    { additionalProperties: false }), [{ a: "x" }, { a: "x", b: 1 }]);

	add("AdditionalTyped", Type.Object({ a: Type.String() },
	    { additionalProperties: Type.Number() }), [
		{ a: "x", b: 1 }, { a: "x", b: "y" },
	]);

	add("Constrained", Type.Object({
		percent: Type.Number({ minimum: 0, maximum: 100 }),
		negative: Type.Number({ exclusiveMaximum: 0 }),
		even: Type.Integer({ multipleOf: 2 }),
		tags: Type.Array(Type.String({ minLength: 1 }), { minItems: 1,
		    maxItems: 3 }),
	}), [
		{ percent: 0, negative: -1, even: 4, tags: ["a"] },
		{ percent: 101, negative: 0, even: 3, tags: [] },
	]);

	const Mod = Type.Module({
		Money: Type.Object({ amount: Type.String({ pattern: "^[0-9]+$" }),
		    currency: Type.Union([Type.Literal("EUR"), Type.Literal("USD")]) }),
		Line: Type.Object({ sku: Type.String(), price: Type.Ref("Money") }),
		Order: Type.Object({ id: Type.String(),
		    lines: Type.Array(Type.Ref("Line"), { minItems: 1 }) }),
	});
	add("ModuleOrder", Mod.Import("Order"), [
		{ id: "o", lines: [{ sku: "s", price: { amount: "1",
		    currency: "EUR" } }] },
		{ id: "o", lines: [{ sku: "s", price: { amount: "x",
		    currency: "GBP" } }] },
		{ id: "o", lines: [] },
	]);

	const Tree = Type.Module({
		Node: Type.Object({ label: Type.String(),
		    kids: Type.Array(Type.Ref("Node")) }),
	});
	add("ModuleRecursive", Tree.Import("Node"), [
		{ label: "a", kids: [{ label: "b", kids: [] }] },
		{ label: "a", kids: [{ label: 1, kids: [] }] },
	]);

	add("Described", Type.Object({
		name: Type.String({ title: "Name", description: "Display name",
		    examples: ["Ann"] }),
		legacy: Opt(Type.String({ deprecated: true })),
	}, { title: "Profile", description: "A public profile" }), [
		{ name: "Ann" }, { name: 3 },
	]);

	add("UnionOfPrimitives", Type.Union([Type.String({ maxLength: 3 }),
	    Type.Integer(), Type.Boolean()]), ["abc", 1, true, "abcd", 1.5,
		null]);

	add("ArrayOfTuples", Type.Array(Type.Tuple([Type.String(),
	    Type.Union([Type.Number(), Type.Null()])]), { maxItems: 4 }), [
		[["a", 1], ["b", null]], [["a"]], [["a", "b"]],
	]);

	add("Readonly", Type.Object({
		id: Type.Readonly(Type.String()),
		tags: Type.ReadonlyOptional(Type.Array(Type.String())),
	}), [{ id: "x" }, { id: "x", tags: ["a"] }, { tags: [] }]);

	add("Not", Type.Object({ name: Type.Intersect([Type.String(),
	    Type.Not(Type.Literal("admin"))]) }), [
		{ name: "ann" }, { name: "admin" },
	]);

	add("Const", Type.Object({ version: Type.Literal(2),
	    enabled: Type.Literal(true) }), [
		{ version: 2, enabled: true }, { version: 1, enabled: false },
	]);

	return m;
}
