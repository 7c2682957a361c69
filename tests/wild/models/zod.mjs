// zod.mjs: application models written with zod (v4), the way its users
// write request bodies; tests/wild/corpus.mjs turns each into a JSON
// Schema with z.toJSONSchema (draft 2020-12 and draft-07 targets) and
// uses zod's own safeParse as one judge of the instances.  Each model
// has seeds: instances, valid or not, that the corpus mutates into near
// misses.
export function models(z) {
	const m = [];
	const add = (name, schema, seeds) => m.push({ name, schema, seeds });

	const Address = z.object({
		street: z.string().min(1),
		city: z.string().min(1),
		postalCode: z.string().regex(/^[0-9]{5}(-[0-9]{4})?$/),
		country: z.string().length(2),
		line2: z.string().optional(),
	});
	add("Address", Address, [
		{ street: "1 Main St", city: "Springfield", postalCode: "12345",
		    country: "US" },
		{ street: "2 Elm", city: "X", postalCode: "12345-6789",
		    country: "US", line2: "Apt 4" },
		{ street: "", city: "X", postalCode: "1234", country: "USA" },
	]);

	const Role = z.enum(["admin", "editor", "viewer"]);
	const User = z.object({
		id: z.uuid(),
		email: z.email(),
		name: z.string().min(1).max(100),
		age: z.int().min(0).max(150).optional(),
		role: Role.default("viewer"),
		tags: z.array(z.string()).max(10).default([]),
		createdAt: z.iso.datetime(),
		website: z.url().nullable(),
	});
	add("User", User, [
		{ id: "3b241101-e2bb-4255-8caf-4136c566a962",
		    email: "ann@example.com", name: "Ann", role: "admin",
		    tags: ["a"], createdAt: "2024-01-02T03:04:05Z",
		    website: "https://example.com/" },
		{ id: "3b241101-e2bb-4255-8caf-4136c566a962",
		    email: "bob@example.org", name: "Bob", age: 30, role: "viewer",
		    tags: [], createdAt: "2024-02-29T00:00:00.123Z", website: null },
		{ id: "not-a-uuid", email: "nope", name: "", role: "root",
		    tags: [], createdAt: "yesterday", website: "x" },
	]);

	const Money = z.object({
		amount: z.string().regex(/^-?[0-9]+(\.[0-9]{1,2})?$/),
		currency: z.enum(["USD", "EUR", "GBP", "JPY"]),
	});
	add("Money", Money, [
		{ amount: "10.50", currency: "EUR" },
		{ amount: "-3", currency: "JPY" },
		{ amount: "1.234", currency: "usd" },
	]);

	const LineItem = z.object({
		sku: z.string().regex(/^[A-Z]{3}-[0-9]{4}$/),
		quantity: z.int().positive(),
		unitPrice: Money,
		discount: z.number().min(0).max(1).optional(),
	});
	const Order = z.object({
		orderId: z.string(),
		customer: z.object({ id: z.uuid(), email: z.email() }),
		items: z.array(LineItem).min(1),
		shipping: Address,
		billing: Address.optional(),
		status: z.enum(["pending", "paid", "shipped", "cancelled"]),
		notes: z.string().max(500).nullish(),
	});
	add("Order", Order, [
		{ orderId: "o-1", customer: {
			id: "9c5b94b1-35ad-49bb-b118-8e8fc24abf80",
			email: "c@example.com" },
		    items: [{ sku: "ABC-1234", quantity: 2,
			unitPrice: { amount: "9.99", currency: "USD" } }],
		    shipping: { street: "1 A", city: "B", postalCode: "12345",
			country: "US" }, status: "paid" },
		{ orderId: "o-2", customer: {
			id: "9c5b94b1-35ad-49bb-b118-8e8fc24abf80",
			email: "c@example.com" },
		    items: [{ sku: "XYZ-0001", quantity: 1, discount: 0.5,
			unitPrice: { amount: "100", currency: "EUR" } }],
		    shipping: { street: "1 A", city: "B", postalCode: "12345",
			country: "DE" }, status: "shipped", notes: null },
		{ orderId: "o-3", customer: { id: "x", email: "c" }, items: [],
		    shipping: {}, status: "lost" },
	]);

	const Shape = z.discriminatedUnion("kind", [
		z.object({ kind: z.literal("circle"), radius: z.number().positive() }),
		z.object({ kind: z.literal("rect"), width: z.number().nonnegative(),
		    height: z.number().nonnegative() }),
		z.object({ kind: z.literal("polygon"),
		    points: z.array(z.tuple([z.number(), z.number()])).min(3) }),
	]);
	add("Shape", Shape, [
		{ kind: "circle", radius: 2 },
		{ kind: "rect", width: 0, height: 4.5 },
		{ kind: "polygon", points: [[0, 0], [1, 0], [0, 1]] },
		{ kind: "circle", width: 3 },
		{ kind: "triangle" },
	]);

	const Event = z.discriminatedUnion("type", [
		z.object({ type: z.literal("user.created"), userId: z.uuid(),
		    at: z.iso.datetime() }),
		z.object({ type: z.literal("user.deleted"), userId: z.uuid(),
		    reason: z.string().optional() }),
		z.object({ type: z.literal("order.paid"), orderId: z.string(),
		    amount: Money }),
	]);
	add("WebhookEvent", z.object({
		id: z.string(),
		event: Event,
		attempt: z.int().min(1).max(10).default(1),
		signature: z.base64(),
	}), [
		{ id: "e1", event: { type: "user.created",
		    userId: "3b241101-e2bb-4255-8caf-4136c566a962",
		    at: "2024-05-05T05:05:05Z" }, attempt: 1, signature: "aGVsbG8=" },
		{ id: "e2", event: { type: "order.paid", orderId: "o1",
		    amount: { amount: "1", currency: "GBP" } }, attempt: 3,
		    signature: "AAAA" },
		{ id: "e3", event: { type: "user.deleted", userId: "zzz" },
		    attempt: 11, signature: "###" },
	]);

	const Category = z.object({
		name: z.string(),
		get children() { return z.array(Category).optional(); },
	});
	add("CategoryTree", Category, [
		{ name: "root", children: [{ name: "a" },
		    { name: "b", children: [{ name: "c", children: [] }] }] },
		{ name: "leaf" },
		{ name: "root", children: [{ title: "a" }] },
	]);

	const Json = z.lazy(() => z.union([z.string(), z.number(), z.boolean(),
	    z.null(), z.array(Json), z.record(z.string(), Json)]));
	add("JsonValue", z.object({ key: z.string(), value: Json }), [
		{ key: "k", value: { a: [1, "x", null, { b: true }] } },
		{ key: "k", value: 3 },
		{ key: 1, value: "x" },
	]);

	const Expr = z.discriminatedUnion("op", [
		z.object({ op: z.literal("num"), value: z.number() }),
		z.object({ op: z.literal("add"), get left() { return Expr; },
		    get right() { return Expr; } }),
		z.object({ op: z.literal("neg"), get arg() { return Expr; } }),
	]);
	add("Expression", Expr, [
		{ op: "add", left: { op: "num", value: 1 },
		    right: { op: "neg", arg: { op: "num", value: 2 } } },
		{ op: "num", value: 0 },
		{ op: "add", left: { op: "num" } },
	]);

	add("Pagination", z.object({
		page: z.int().min(1).default(1),
		perPage: z.int().min(1).max(100).default(20),
		sort: z.enum(["asc", "desc"]).optional(),
		cursor: z.string().nullable().optional(),
	}), [
		{ page: 1, perPage: 20 },
		{ page: 3, perPage: 100, sort: "desc", cursor: null },
		{ page: 0, perPage: 101, sort: "up" },
	]);

	add("FeatureFlags", z.object({
		flags: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), z.boolean()),
		rollout: z.record(z.string(), z.number().min(0).max(100)).optional(),
	}), [
		{ flags: { dark_mode: true, beta: false } },
		{ flags: {}, rollout: { beta: 50 } },
		{ flags: { "Bad-Key": true }, rollout: { x: 101 } },
	]);

	add("HttpHeaders", z.record(z.string(), z.union([z.string(),
	    z.array(z.string())])), [
		{ "content-type": "application/json", accept: ["a", "b"] },
		{},
		{ "x-count": 3 },
	]);

	add("Coordinates", z.object({
		point: z.tuple([z.number().min(-180).max(180),
		    z.number().min(-90).max(90)]),
		altitude: z.number().optional(),
		accuracy: z.number().nonnegative().nullable(),
	}), [
		{ point: [12.5, 41.9], accuracy: 3 },
		{ point: [0, 0], altitude: -10, accuracy: null },
		{ point: [200, 0, 1], accuracy: -1 },
	]);

	add("RgbaColor", z.tuple([z.int().min(0).max(255), z.int().min(0).max(255),
	    z.int().min(0).max(255), z.number().min(0).max(1)]), [
		[255, 0, 128, 0.5],
		[0, 0, 0, 1],
		[256, 0, 0, 2],
	]);

	add("Range", z.tuple([z.number(), z.number()], z.string()), [
		[1, 2],
		[1, 2, "a", "b"],
		[1, 2, 3],
	]);

	add("LoginRequest", z.object({
		username: z.string().min(3).max(32).regex(/^[a-zA-Z0-9_]+$/),
		password: z.string().min(8),
		remember: z.boolean().default(false),
		otp: z.string().length(6).regex(/^[0-9]+$/).optional(),
	}), [
		{ username: "ann_1", password: "correct horse", remember: true },
		{ username: "bob", password: "12345678", remember: false,
		    otp: "123456" },
		{ username: "a!", password: "short", otp: "12" },
	]);

	add("ContactForm", z.object({
		name: z.string().trim().min(1),
		email: z.email(),
		phone: z.string().regex(/^\+[1-9][0-9]{6,14}$/).optional(),
		subject: z.enum(["sales", "support", "other"]),
		message: z.string().min(10).max(2000),
		consent: z.literal(true),
	}), [
		{ name: "Ann", email: "a@b.co", subject: "sales",
		    message: "Hello there, world", consent: true },
		{ name: "Ann", email: "a@b.co", phone: "+15551234567",
		    subject: "other", message: "0123456789", consent: true },
		{ name: "Ann", email: "a@b.co", subject: "sales",
		    message: "Hello there, world", consent: false },
	]);

	add("NetworkConfig", z.object({
		host: z.union([z.ipv4(), z.ipv6(), z.hostname()]),
		port: z.int().min(1).max(65535),
		allow: z.array(z.cidrv4()).optional(),
		tls: z.object({ cert: z.string(), key: z.string() }).nullable(),
	}), [
		{ host: "192.168.0.1", port: 443, tls: null },
		{ host: "::1", port: 8080, allow: ["10.0.0.0/8"],
		    tls: { cert: "c", key: "k" } },
		{ host: "example.com", port: 80, tls: null },
		{ host: "999.1.1.1", port: 0, allow: ["10.0.0.0/33"], tls: {} },
	]);

	add("Schedule", z.object({
		date: z.iso.date(),
		start: z.iso.time(),
		duration: z.iso.duration(),
		timezone: z.string(),
		repeat: z.enum(["none", "daily", "weekly"]).default("none"),
	}), [
		{ date: "2024-12-31", start: "09:30:00", duration: "PT1H",
		    timezone: "Europe/Paris", repeat: "weekly" },
		{ date: "2024-02-30", start: "25:00", duration: "1 hour",
		    timezone: "X" },
	]);

	add("Product", z.object({
		id: z.cuid2(),
		title: z.string().min(1),
		slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
		price: z.number().positive().multipleOf(0.01),
		stock: z.int().nonnegative(),
		attributes: z.record(z.string(), z.union([z.string(), z.number(),
		    z.boolean()])).default({}),
		images: z.array(z.url()).max(8),
		status: z.union([z.literal("draft"), z.literal("active"),
		    z.literal("archived")]),
	}), [
		{ id: "tz4a98xxat96iws9zmbrgj3a", title: "Mug", slug: "blue-mug",
		    price: 9.99, stock: 3, attributes: { color: "blue", size: 2 },
		    images: ["https://example.com/1.png"], status: "active" },
		{ id: "tz4a98xxat96iws9zmbrgj3a", title: "T", slug: "Bad Slug",
		    price: 0, stock: -1, attributes: {}, images: [],
		    status: "gone" },
	]);

	const Comment = z.object({
		id: z.string(),
		author: z.string(),
		body: z.string().min(1),
		get replies() { return z.array(Comment); },
	});
	add("CommentThread", z.object({ postId: z.string(),
	    comments: z.array(Comment) }), [
		{ postId: "p", comments: [{ id: "1", author: "a", body: "hi",
		    replies: [{ id: "2", author: "b", body: "yo", replies: [] }] }] },
		{ postId: "p", comments: [] },
		{ postId: "p", comments: [{ id: "1", author: "a", body: "" }] },
	]);

	add("Settings", z.object({
		theme: z.enum(["light", "dark", "system"]).default("system"),
		language: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/).default("en"),
		notifications: z.object({
			email: z.boolean().default(true),
			push: z.boolean().default(false),
			digest: z.enum(["daily", "weekly", "never"]).optional(),
		}).partial(),
		fontSize: z.number().min(8).max(72).optional(),
	}).strict(), [
		{ theme: "dark", language: "en-US", notifications: {} },
		{ theme: "light", language: "fr", notifications: { email: false,
		    digest: "weekly" }, fontSize: 12 },
		{ theme: "blue", language: "english", notifications: { sms: true } },
	]);

	add("LooseMetadata", z.looseObject({
		version: z.literal(1),
		source: z.string(),
	}), [
		{ version: 1, source: "cli", anything: [1, 2] },
		{ version: 2, source: "cli" },
	]);

	add("SearchQuery", z.object({
		q: z.string().min(1).max(200),
		filters: z.array(z.discriminatedUnion("field", [
			z.object({ field: z.literal("price"), min: z.number().optional(),
			    max: z.number().optional() }),
			z.object({ field: z.literal("brand"),
			    values: z.array(z.string()).min(1) }),
			z.object({ field: z.literal("inStock"), value: z.boolean() }),
		])).default([]),
		limit: z.int().min(1).max(50).default(10),
	}), [
		{ q: "shoes", filters: [{ field: "price", max: 100 },
		    { field: "brand", values: ["acme"] }], limit: 10 },
		{ q: "hats", filters: [], limit: 1 },
		{ q: "", filters: [{ field: "color" }], limit: 51 },
	]);

	add("Invoice", z.object({
		number: z.string().regex(/^INV-[0-9]{6}$/),
		issued: z.iso.date(),
		due: z.iso.date(),
		lines: z.array(z.object({
			description: z.string(),
			hours: z.number().positive().max(24),
			rate: z.number().positive(),
		})).min(1).max(100),
		taxRate: z.number().min(0).max(0.5).nullable(),
		paid: z.boolean(),
	}), [
		{ number: "INV-000123", issued: "2024-01-01", due: "2024-02-01",
		    lines: [{ description: "dev", hours: 8, rate: 100 }],
		    taxRate: 0.2, paid: false },
		{ number: "INV-1", issued: "2024-13-01", due: "x",
		    lines: [], taxRate: 0.9, paid: "no" },
	]);

	add("Permission", z.object({
		subject: z.union([
			z.object({ user: z.uuid() }),
			z.object({ group: z.string() }),
		]),
		actions: z.array(z.enum(["read", "write", "delete"])).min(1),
		resource: z.string().startsWith("urn:"),
		expires: z.iso.datetime({ offset: true }).optional(),
	}), [
		{ subject: { group: "ops" }, actions: ["read"],
		    resource: "urn:doc:1", expires: "2025-01-01T00:00:00+02:00" },
		{ subject: { user: "3b241101-e2bb-4255-8caf-4136c566a962" },
		    actions: ["read", "write"], resource: "urn:x" },
		{ subject: {}, actions: [], resource: "doc:1" },
	]);

	add("BatchRequest", z.object({
		requests: z.array(z.object({
			method: z.enum(["GET", "POST", "PUT", "DELETE"]),
			path: z.string().startsWith("/"),
			body: z.unknown().optional(),
		})).min(1).max(20),
		atomic: z.boolean().default(false),
	}), [
		{ requests: [{ method: "GET", path: "/a" },
		    { method: "POST", path: "/b", body: { x: 1 } }], atomic: true },
		{ requests: [{ method: "PATCH", path: "c" }], atomic: false },
	]);

	add("Survey", z.object({
		answers: z.array(z.union([
			z.object({ q: z.int(), choice: z.enum(["a", "b", "c", "d"]) }),
			z.object({ q: z.int(), text: z.string().max(280) }),
			z.object({ q: z.int(), scale: z.int().min(1).max(5) }),
		])),
		respondent: z.email().nullable(),
	}), [
		{ answers: [{ q: 1, choice: "a" }, { q: 2, text: "ok" },
		    { q: 3, scale: 5 }], respondent: null },
		{ answers: [{ q: 1, choice: "e" }, { q: 2, scale: 6 }],
		    respondent: "x" },
	]);

	add("FileUpload", z.object({
		filename: z.string().regex(/^[^/\\]+$/),
		mimeType: z.enum(["image/png", "image/jpeg", "application/pdf"]),
		size: z.int().positive().max(10485760),
		checksum: z.hex().length(64),
		content: z.base64url().optional(),
	}), [
		{ filename: "a.png", mimeType: "image/png", size: 100,
		    checksum: "a".repeat(64), content: "aGVsbG8" },
		{ filename: "a/b.png", mimeType: "image/gif", size: 0,
		    checksum: "xyz", content: "+/=" },
	]);

	add("Transfer", z.object({
		from: z.string().regex(/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/),
		to: z.string().regex(/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/),
		amount: z.number().gt(0).lte(1000000),
		reference: z.string().max(140).optional(),
		scheduled: z.iso.datetime().nullable().default(null),
	}), [
		{ from: "DE89370400440532013000", to: "GB29NWBK60161331926819",
		    amount: 12.5, scheduled: null },
		{ from: "DE89370400440532013000", to: "GB29NWBK60161331926819",
		    amount: 0, reference: "x".repeat(141) },
	]);

	add("Task", z.object({
		title: z.string().min(1),
		priority: z.union([z.literal(1), z.literal(2), z.literal(3)]),
		done: z.boolean(),
		due: z.iso.date().optional(),
		assignees: z.array(z.email()).max(5),
		subtasks: z.array(z.object({ title: z.string(),
		    done: z.boolean() })).optional(),
	}), [
		{ title: "t", priority: 1, done: false, assignees: [] },
		{ title: "t", priority: 3, done: true, due: "2024-06-01",
		    assignees: ["a@b.co"], subtasks: [{ title: "s", done: true }] },
		{ title: "", priority: 4, done: 0, assignees: ["no"] },
	]);

	add("NullableEverything", z.object({
		a: z.string().nullable(),
		b: z.number().nullish(),
		c: z.array(z.string().nullable()).nullable(),
		d: z.object({ x: z.int() }).nullable().optional(),
		e: z.enum(["x", "y"]).nullable(),
	}), [
		{ a: null, c: null, e: null },
		{ a: "s", b: 1, c: ["x", null], d: { x: 1 }, e: "x" },
		{ a: 1, c: [1], d: { x: 1.5 }, e: "z" },
	]);

	add("Unionish", z.union([
		z.string().max(5),
		z.number().int(),
		z.array(z.string()).length(2),
		z.object({ ref: z.string() }),
	]), [
		"abc", 7, ["a", "b"], { ref: "r" }, "toolong", 1.5, ["a"], { x: 1 },
	]);

	add("Intersection", z.intersection(
		z.object({ id: z.string() }),
		z.object({ createdAt: z.iso.datetime() }),
	), [
		{ id: "x", createdAt: "2024-01-01T00:00:00Z" },
		{ id: "x" },
	]);

	add("Enumerations", z.object({
		status: z.enum(["active", "inactive"]),
		level: z.union([z.literal(0), z.literal(1), z.literal(2)]),
		mode: z.literal(["fast", "slow"]),
		flag: z.literal(false),
	}), [
		{ status: "active", level: 0, mode: "fast", flag: false },
		{ status: "on", level: 3, mode: "medium", flag: true },
	]);

	add("StringFormats", z.object({
		email: z.email(),
		uuid: z.uuid(),
		guid: z.guid(),
		url: z.url(),
		emoji: z.emoji().optional(),
		nanoid: z.nanoid().optional(),
		ulid: z.ulid().optional(),
		ipv4: z.ipv4(),
		ipv6: z.ipv6(),
		cidrv6: z.cidrv6().optional(),
		jwt: z.jwt().optional(),
		e164: z.e164().optional(),
	}), [
		{ email: "a@b.co", uuid: "3b241101-e2bb-4255-8caf-4136c566a962",
		    guid: "3B241101-E2BB-4255-8CAF-4136C566A962",
		    url: "https://example.com", ipv4: "1.2.3.4", ipv6: "::1",
		    ulid: "01ARZ3NDEKTSV4RRFFQ69G5FAV", nanoid: "V1StGXR8_Z5jdHi6B-myT",
		    cidrv6: "2001:db8::/32", e164: "+15551234567" },
		{ email: "a", uuid: "x", guid: "x", url: "no", ipv4: "1.2.3",
		    ipv6: "1::2::3", ulid: "x", e164: "555" },
	]);

	add("NumberBounds", z.object({
		percent: z.number().min(0).max(100),
		positive: z.number().positive(),
		negative: z.number().negative(),
		step: z.number().multipleOf(0.5),
		int32: z.int32(),
		uint32: z.uint32().optional(),
		float32: z.float32().optional(),
	}), [
		{ percent: 50, positive: 1e-9, negative: -1, step: 2.5, int32: 7 },
		{ percent: 101, positive: 0, negative: 0, step: 0.3, int32: 2 ** 31,
		    uint32: -1 },
	]);

	add("ArrayBounds", z.object({
		tags: z.array(z.string().min(1)).min(1).max(3),
		matrix: z.array(z.array(z.number()).length(3)).length(3),
		ids: z.array(z.int()).nonempty(),
	}), [
		{ tags: ["a"], matrix: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], ids: [1] },
		{ tags: [], matrix: [[1, 0], [0, 1]], ids: [] },
	]);

	add("ApiKeyCreate", z.object({
		name: z.string().min(1).max(64),
		scopes: z.array(z.enum(["repo", "user", "admin:org"])).min(1),
		expiresInDays: z.union([z.literal(7), z.literal(30), z.literal(90),
		    z.null()]).default(30),
		description: z.string().describe("what the key is for").optional(),
	}).describe("A new API key"), [
		{ name: "ci", scopes: ["repo"], expiresInDays: null },
		{ name: "ci", scopes: ["repo", "user"], expiresInDays: 7 },
		{ name: "", scopes: ["root"], expiresInDays: 1 },
	]);

	const Menu = z.object({
		label: z.string(),
		href: z.string().optional(),
		get items() { return z.array(Menu).max(20).optional(); },
	});
	add("NavigationMenu", z.object({ menus: z.array(Menu),
	    footer: Menu.nullable() }), [
		{ menus: [{ label: "Home", href: "/" }, { label: "More",
		    items: [{ label: "About", href: "/about" }] }], footer: null },
		{ menus: [{ href: "/" }], footer: { label: 1 } },
	]);

	add("Readonly", z.object({
		id: z.string().readonly(),
		values: z.array(z.number()).readonly(),
	}), [
		{ id: "x", values: [1, 2] },
		{ id: 1, values: ["a"] },
	]);

	add("CatchAllRecord", z.object({
		env: z.record(z.string().regex(/^[A-Z_][A-Z0-9_]*$/), z.string()),
		limits: z.partialRecord(z.enum(["cpu", "memory"]), z.string()),
	}), [
		{ env: { PATH: "/bin", HOME: "/root" }, limits: { cpu: "1" } },
		{ env: { path: "/bin" }, limits: { gpu: "1" } },
	]);

	return m;
}
