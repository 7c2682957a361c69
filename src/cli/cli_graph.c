/*
 * cli_graph.c: the addresses under a root and their links, for the
 * operator: `gpt.fcgi --graph [--dot | --svg] ROOT` prints them (JSON of
 * schemas/graph.schema.json, Graphviz DOT, or SVG through Graphviz's
 * dot), `gpt.fcgi --check ROOT` (a directory with no form.json) reports
 * on them, and `--check DIR` asks cli_links_report whether each
 * relative link of one address names an address that loads.
 *
 * Every address is loaded as the responder loads it, one at a time, and
 * freed before the next: what a node keeps is its name, the first
 * sentence of its p, its ETag and its links, so memory grows with the
 * number of addresses and links, not with their forms.  No link is ever
 * fetched: a relative href of one segment names a sibling directory, and
 * anything else is only printed.
 *
 * Refuses (exit 1 for --check): an address that does not load, a link
 * that names no address that loads.  Reports as info: addresses nothing
 * else links to, link cycles.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/log.h"
#include "cli/cli.h"
#include "parser/json.h"
#include "responder/answer.h"
#include "site/address.h"
#include "site/links.h"
#include "tools/report.h"

/* Addresses under one root --graph reads; past it the root is refused. */
#define GRAPH_NODES_MAX 1000000u
/* Bytes of p's first sentence a node keeps. */
#define GRAPH_SENTENCE_MAX 200
/* Cycles --check reports; the rest are counted. */
#define GRAPH_CYCLES_MAX 20
/* Problems a root's report keeps in full. */
#define GRAPH_PROBLEMS_MAX 10000u

extern char **environ;

enum graph_kind {
	GRAPH_K_ADDRESS, /* a sibling under the root */
	GRAPH_K_SELF,
	GRAPH_K_OUTSIDE, /* absolute, or out of the root: never fetched */
	GRAPH_K_NOWHERE, /* under the root, but no address name */
};

struct graph_edge {
	size_t from;  /* node index */
	size_t to;    /* node index when kind is ADDRESS and not broken */
	size_t index; /* in the form's links */
	enum graph_kind kind;
	bool broken;
	char *rel, *href, *title; /* owned */
};

struct graph_node {
	char *name;     /* owned */
	char *sentence; /* owned: p's first sentence, or NULL */
	char *error;    /* owned: why it does not load, or NULL */
	char etag[HTTP_ETAG_MAX];
	bool loads;
	size_t in; /* links from other addresses */
};

enum graph_sev { GRAPH_REFUSAL, GRAPH_WARNING, GRAPH_INFO };

struct graph_problem {
	enum graph_sev sev;
	const char *rule; /* static */
	size_t node;
	char *pointer, *reason; /* owned */
};

struct graph {
	const char *root;
	struct graph_node *nodes;
	size_t nnodes, capnodes;
	struct graph_edge *edges;
	size_t nedges, capedges;
	struct graph_problem *problems;
	size_t nproblems, capproblems, more;
	size_t cycles, more_cycles;
	bool nomem;
};

static char *
graph_dup(struct graph *g, const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p == NULL) {
		g->nomem = true;
		return NULL;
	}
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static void GPT_PRINTF(5, 6) graph_problem(struct graph *g, enum graph_sev sev,
    const char *rule, size_t node, const char *fmt, ...)
{
	struct graph_problem *p;
	char reason[512];
	va_list ap;

	if (g->nproblems >= GRAPH_PROBLEMS_MAX) {
		g->more++;
		return;
	}
	if (g->nproblems == g->capproblems) {
		size_t cap = g->capproblems != 0 ? g->capproblems * 2 : 64;
		void *np = realloc(g->problems, cap * sizeof(*g->problems));

		if (np == NULL) {
			g->nomem = true;
			return;
		}
		g->problems = np;
		g->capproblems = cap;
	}
	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	p = &g->problems[g->nproblems];
	p->sev = sev;
	p->rule = rule;
	p->node = node;
	p->pointer = NULL;
	if ((p->reason = graph_dup(g, reason, strlen(reason))) == NULL)
		return;
	g->nproblems++;
}

/* The pointer of the last problem added. */
static void
graph_problem_at(struct graph *g, const char *pointer)
{
	if (g->nproblems > 0 && g->problems[g->nproblems - 1].pointer == NULL)
		g->problems[g->nproblems - 1].pointer =
		    graph_dup(g, pointer, strlen(pointer));
}

/* The first sentence of p: up to the first ". ", "! ", "? " or line
 * break, at most GRAPH_SENTENCE_MAX bytes (cut at a UTF-8 boundary). */
static size_t
graph_sentence(const char *p, size_t len)
{
	size_t i, n = len < GRAPH_SENTENCE_MAX ? len : GRAPH_SENTENCE_MAX;

	for (i = 0; i < n; i++) {
		if (p[i] == '\n' || p[i] == '\r')
			return i;
		if ((p[i] == '.' || p[i] == '!' || p[i] == '?') &&
		    (i + 1 == len || p[i + 1] == ' ' || p[i + 1] == '\n'))
			return i + 1;
	}
	/* not inside a multi-byte sequence */
	while (n < len && n > 0 && ((unsigned char)p[n] & 0xc0) == 0x80)
		n--;
	return n;
}

static int
graph_name_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The address names under root, sorted, into *names (malloc'd). */
static int
graph_names(const char *root, char ***names, size_t *n)
{
	DIR *d = opendir(root);
	struct dirent *de;
	char **list = NULL;
	size_t cap = 0;

	*n = 0;
	if (d == NULL)
		return -1;
	/* bounded by GRAPH_NODES_MAX */
	while ((de = readdir(d)) != NULL) {
		char path[PATH_MAX];
		struct stat st;

		if (!addr_name_ok(de->d_name))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", root, de->d_name) >=
		        (int)sizeof(path) ||
		    stat(path, &st) == -1 || !S_ISDIR(st.st_mode))
			continue;
		if (*n >= GRAPH_NODES_MAX) {
			errno = E2BIG;
			goto fail;
		}
		if (*n == cap) {
			size_t nc = cap != 0 ? cap * 2 : 64;
			void *np = realloc(list, nc * sizeof(*list));

			if (np == NULL)
				goto fail;
			list = np;
			cap = nc;
		}
		if ((list[*n] = strdup(de->d_name)) == NULL)
			goto fail;
		(*n)++;
	}
	closedir(d);
	if (*n > 0)
		qsort(list, *n, sizeof(*list), graph_name_cmp);
	*names = list;
	return 0;
fail:
	closedir(d);
	while (*n > 0)
		free(list[--*n]);
	free(list);
	return -1;
}

static ssize_t
graph_find(const struct graph *g, const char *name)
{
	size_t lo = 0, hi = g->nnodes;

	/* bounded: binary search over sorted names */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(g->nodes[mid].name, name);

		if (c == 0)
			return (ssize_t)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int
graph_add_edge(struct graph *g, size_t from, size_t index, const struct link *k)
{
	struct graph_edge *e;
	char name[ADDR_NAME_MAX + 1];

	if (g->nedges == g->capedges) {
		size_t cap = g->capedges != 0 ? g->capedges * 2 : 64;
		void *np = realloc(g->edges, cap * sizeof(*g->edges));

		if (np == NULL)
			return -1;
		g->edges = np;
		g->capedges = cap;
	}
	e = &g->edges[g->nedges];
	memset(e, 0, sizeof(*e));
	e->from = from;
	e->index = index;
	switch (links_target(k->href, k->href_len, name, sizeof(name))) {
	case LINKS_T_SELF:
		e->kind = GRAPH_K_SELF;
		e->to = from;
		break;
	case LINKS_T_SIBLING:
		e->kind = GRAPH_K_ADDRESS;
		e->to = SIZE_MAX;
		break;
	case LINKS_T_NOWHERE:
		e->kind = GRAPH_K_NOWHERE;
		e->broken = true;
		break;
	default:
		e->kind = GRAPH_K_OUTSIDE;
		break;
	}
	if ((e->rel = graph_dup(g, k->rel, k->rel_len)) == NULL ||
	    (e->href = graph_dup(g, k->href, k->href_len)) == NULL ||
	    (e->title = graph_dup(g, k->title, k->title_len)) == NULL)
		return -1;
	g->nedges++;
	return 0;
}

/* Load one address and keep what the graph needs of it. */
static void
graph_load(struct graph *g, size_t i)
{
	struct graph_node *nd = &g->nodes[i];
	char dir[PATH_MAX], err[ADDR_ERR_MAX];
	const struct json_value *p;
	struct link k;
	struct addr a;
	size_t j, n;

	snprintf(dir, sizeof(dir), "%s/%s", g->root, nd->name);
	if (addr_load(dir, &a, NULL, NULL) == -1 ||
	    answer_build_acts(&a, err, sizeof(err)) == -1) {
		const char *why = a.ok ? err : a.err;

		nd->error = graph_dup(g, why, strlen(why));
		graph_problem(
		    g, GRAPH_REFUSAL, "address-refused", i, "%s", why);
		addr_free(&a);
		return;
	}
	nd->loads = true;
	snprintf(nd->etag, sizeof(nd->etag), "%s", answer_of(&a)->etag);
	if ((p = json_object_get(a.doc, "p", 1)) != NULL &&
	    p->type == JSON_T_STRING)
		nd->sentence = graph_dup(g, p->u.str.ptr,
		    graph_sentence(p->u.str.ptr, p->u.str.len));
	n = links_count(a.doc);
	for (j = 0; j < n; j++) {
		links_get(a.doc, j, &k);
		if (graph_add_edge(g, i, j, &k) == -1)
			g->nomem = true;
	}
	addr_free(&a);
}

/* Each link to a sibling: the node it names, or broken. */
static void
graph_resolve(struct graph *g)
{
	char ptr[64];
	size_t i;

	for (i = 0; i < g->nedges; i++) {
		struct graph_edge *e = &g->edges[i];
		ssize_t t;

		snprintf(ptr, sizeof(ptr), "/links/%zu/href", e->index);
		if (e->kind == GRAPH_K_NOWHERE) {
			graph_problem(g, GRAPH_REFUSAL, "link-broken", e->from,
			    "\"%s\" is under the root but names no address "
			    "(one name, no slash, is an address)",
			    e->href);
			graph_problem_at(g, ptr);
			continue;
		}
		if (e->kind != GRAPH_K_ADDRESS)
			continue;
		{
			char name[ADDR_NAME_MAX + 1];

			(void)links_target(
			    e->href, strlen(e->href), name, sizeof(name));
			t = addr_name_ok(name) ? graph_find(g, name) : -1;
		}
		if (t < 0 || !g->nodes[t].loads) {
			e->broken = true;
			graph_problem(g, GRAPH_REFUSAL, "link-broken", e->from,
			    "\"%s\" names %s", e->href,
			    t < 0 ? "no address under the root"
			          : "an address that does not load");
			graph_problem_at(g, ptr);
			continue;
		}
		e->to = (size_t)t;
		if (e->to != e->from)
			g->nodes[e->to].in++;
	}
}

/* Edges by their source, for the walk: first[i]..first[i+1]. */
static int
graph_cycles(struct graph *g)
{
	size_t *first, *stack, *pos, i, depth;
	unsigned char *color;
	char path[1024];

	first = calloc(g->nnodes + 1, sizeof(*first));
	stack = calloc(g->nnodes + 1, sizeof(*stack));
	pos = calloc(g->nnodes + 1, sizeof(*pos));
	color = calloc(g->nnodes + 1, 1);
	if (first == NULL || stack == NULL || pos == NULL || color == NULL) {
		free(first);
		free(stack);
		free(pos);
		free(color);
		return -1;
	}
	/* edges were added node by node, in node order */
	for (i = 0; i < g->nedges; i++)
		first[g->edges[i].from + 1]++;
	for (i = 0; i < g->nnodes; i++)
		first[i + 1] += first[i];
	/* an iterative depth-first walk: white 0, on the path 1, done 2;
	 * an edge to a node on the path closes a cycle */
	for (i = 0; i < g->nnodes; i++) {
		if (color[i] != 0)
			continue;
		depth = 0;
		stack[depth] = i;
		pos[depth] = first[i];
		color[i] = 1;
		/* bounded: each edge is looked at once */
		while (true) {
			size_t u = stack[depth];
			const struct graph_edge *e;

			if (pos[depth] == first[u + 1]) {
				color[u] = 2;
				if (depth == 0)
					break;
				depth--;
				continue;
			}
			e = &g->edges[pos[depth]++];
			if (e->kind != GRAPH_K_ADDRESS || e->broken ||
			    e->to == u)
				continue;
			if (color[e->to] == 0) {
				color[e->to] = 1;
				stack[++depth] = e->to;
				pos[depth] = first[e->to];
				continue;
			}
			if (color[e->to] != 1)
				continue;
			if (g->cycles >= GRAPH_CYCLES_MAX) {
				g->more_cycles++;
				continue;
			}
			{
				size_t k = depth, len = 0;
				int w;

				while (k > 0 && stack[k] != e->to)
					k--;
				path[0] = '\0';
				for (; k <= depth && len < sizeof(path); k++) {
					w = snprintf(path + len,
					    sizeof(path) - len, "%s -> ",
					    g->nodes[stack[k]].name);
					len += w > 0 ? (size_t)w : 0;
				}
				g->cycles++;
				graph_problem(g, GRAPH_INFO, "link-cycle",
				    e->to, "a cycle of links: %s%s", path,
				    g->nodes[e->to].name);
			}
		}
	}
	free(first);
	free(stack);
	free(pos);
	free(color);
	return 0;
}

static void
graph_free(struct graph *g)
{
	size_t i;

	for (i = 0; i < g->nnodes; i++) {
		free(g->nodes[i].name);
		free(g->nodes[i].sentence);
		free(g->nodes[i].error);
	}
	for (i = 0; i < g->nedges; i++) {
		free(g->edges[i].rel);
		free(g->edges[i].href);
		free(g->edges[i].title);
	}
	for (i = 0; i < g->nproblems; i++) {
		free(g->problems[i].pointer);
		free(g->problems[i].reason);
	}
	free(g->nodes);
	free(g->edges);
	free(g->problems);
	memset(g, 0, sizeof(*g));
}

/* Read the root: every address, its links resolved, the findings. */
static int
graph_read(struct graph *g, const char *root)
{
	char **names = NULL;
	size_t i, n;

	memset(g, 0, sizeof(*g));
	g->root = root;
	if (graph_names(root, &names, &n) == -1) {
		fprintf(stderr, "gpt.fcgi: %s: %s\n", root,
		    errno == E2BIG ? "too many addresses" : strerror(errno));
		return -1;
	}
	if ((g->nodes = calloc(n + 1, sizeof(*g->nodes))) == NULL) {
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return -1;
	}
	for (i = 0; i < n; i++)
		g->nodes[i].name = names[i];
	free(names);
	g->nnodes = g->capnodes = n;
	for (i = 0; i < n; i++)
		graph_load(g, i);
	graph_resolve(g);
	for (i = 0; i < n; i++)
		if (g->nodes[i].loads && g->nodes[i].in == 0)
			graph_problem(g, GRAPH_INFO, "address-unlinked", i,
			    "no other address links to it (an entry point, "
			    "or forgotten)");
	if (graph_cycles(g) == -1)
		g->nomem = true;
	return 0;
}

/* --- output ------------------------------------------------------------ */

static const char *const graph_kinds[] = {
    "address", "self", "outside", "nowhere"};
static const char *const graph_sevs[] = {"refusal", "warning", "info"};

static int
graph_str(struct buf *out, const char *s)
{
	if (s == NULL)
		return buf_puts(out, "null");
	return json_write_string(out, s, strlen(s));
}

/* The JSON of schemas/graph.schema.json. */
static int
graph_json(const struct graph *g, struct buf *out)
{
	size_t i;

	if (buf_puts(out, "{\"root\":") == -1 ||
	    graph_str(out, g->root) == -1 ||
	    buf_puts(out, ",\"nodes\":[") == -1)
		return -1;
	for (i = 0; i < g->nnodes; i++) {
		const struct graph_node *n = &g->nodes[i];

		if ((i > 0 && buf_putc(out, ',') == -1) ||
		    buf_puts(out, "{\"name\":") == -1 ||
		    graph_str(out, n->name) == -1 ||
		    buf_printf(out, ",\"loads\":%s,\"p\":",
		        n->loads ? "true" : "false") == -1 ||
		    graph_str(out, n->sentence) == -1 ||
		    buf_puts(out, ",\"etag\":") == -1 ||
		    graph_str(out, n->loads ? n->etag : NULL) == -1 ||
		    buf_puts(out, ",\"error\":") == -1 ||
		    graph_str(out, n->error) == -1 || buf_putc(out, '}') == -1)
			return -1;
	}
	if (buf_puts(out, "],\"links\":[") == -1)
		return -1;
	for (i = 0; i < g->nedges; i++) {
		const struct graph_edge *e = &g->edges[i];
		bool to = (e->kind == GRAPH_K_ADDRESS && !e->broken) ||
		          e->kind == GRAPH_K_SELF;

		if ((i > 0 && buf_putc(out, ',') == -1) ||
		    buf_puts(out, "{\"from\":") == -1 ||
		    graph_str(out, g->nodes[e->from].name) == -1 ||
		    buf_puts(out, ",\"to\":") == -1 ||
		    graph_str(out, to ? g->nodes[e->to].name : NULL) == -1 ||
		    buf_puts(out, ",\"rel\":") == -1 ||
		    graph_str(out, e->rel) == -1 ||
		    buf_puts(out, ",\"href\":") == -1 ||
		    graph_str(out, e->href) == -1 ||
		    buf_puts(out, ",\"title\":") == -1 ||
		    graph_str(out, e->title[0] != '\0' ? e->title : NULL) ==
		        -1 ||
		    buf_printf(out, ",\"kind\":\"%s\",\"broken\":%s}",
		        graph_kinds[e->kind],
		        e->broken ? "true" : "false") == -1)
			return -1;
	}
	if (buf_puts(out, "],\"problems\":[") == -1)
		return -1;
	for (i = 0; i < g->nproblems; i++) {
		const struct graph_problem *p = &g->problems[i];

		if ((i > 0 && buf_putc(out, ',') == -1) ||
		    buf_printf(out,
		        "{\"severity\":\"%s\",\"rule\":\"%s\","
		        "\"address\":",
		        graph_sevs[p->sev], p->rule) == -1 ||
		    graph_str(out, g->nodes[p->node].name) == -1 ||
		    buf_puts(out, ",\"pointer\":") == -1 ||
		    graph_str(out, p->pointer != NULL ? p->pointer : "") ==
		        -1 ||
		    buf_puts(out, ",\"reason\":") == -1 ||
		    graph_str(out, p->reason) == -1 || buf_putc(out, '}') == -1)
			return -1;
	}
	return buf_printf(out, "],\"more\":%zu,\"complete\":%s}\n",
	    g->more + g->more_cycles, g->nomem ? "false" : "true");
}

/* s as a DOT quoted string's contents. */
static int
graph_dot_str(struct buf *out, const char *s)
{
	/* bounded by the NUL */
	for (; s != NULL && *s != '\0'; s++) {
		if (*s == '"' || *s == '\\') {
			if (buf_putc(out, '\\') == -1)
				return -1;
		} else if (*s == '\n') {
			if (buf_puts(out, "\\n") == -1)
				return -1;
			continue;
		}
		if (buf_putc(out, *s) == -1)
			return -1;
	}
	return 0;
}

/* Graphviz DOT: a box per address (its name, first sentence and ETag),
 * an edge per link labelled with its rel; outside links end on a plain
 * note; broken ones are red and dashed. */
static int
graph_dot(const struct graph *g, struct buf *out)
{
	size_t i;

	if (buf_puts(out,
	        "digraph gpt {\n  rankdir=LR;\n"
	        "  node [shape=box, fontname=\"sans-serif\", "
	        "fontsize=10];\n"
	        "  edge [fontname=\"sans-serif\", fontsize=9];\n") == -1)
		return -1;
	for (i = 0; i < g->nnodes; i++) {
		const struct graph_node *n = &g->nodes[i];

		if (buf_printf(out, "  n%zu [label=\"", i) == -1 ||
		    graph_dot_str(out, n->name) == -1 ||
		    (n->sentence != NULL &&
		        (buf_puts(out, "\\n") == -1 ||
		            graph_dot_str(out, n->sentence) == -1)) ||
		    (n->loads && (buf_puts(out, "\\nETag ") == -1 ||
		                     graph_dot_str(out, n->etag) == -1)) ||
		    buf_printf(out, "\"%s];\n",
		        n->loads ? "" : ", color=red, style=dashed") == -1)
			return -1;
	}
	for (i = 0; i < g->nedges; i++) {
		const struct graph_edge *e = &g->edges[i];
		bool node = (e->kind == GRAPH_K_ADDRESS && !e->broken) ||
		            e->kind == GRAPH_K_SELF;

		if (!node &&
		    (buf_printf(out, "  x%zu [shape=note, label=\"", i) == -1 ||
		        graph_dot_str(out, e->href) == -1 ||
		        buf_printf(out, "\"%s];\n",
		            e->broken ? ", color=red" : "") == -1))
			return -1;
		if ((node ? buf_printf(
		                out, "  n%zu -> n%zu [label=\"", e->from, e->to)
		          : buf_printf(out, "  n%zu -> x%zu [label=\"", e->from,
		                i)) == -1 ||
		    graph_dot_str(out, e->rel) == -1 ||
		    buf_printf(out, "\"%s];\n",
		        e->broken ? ", color=red, style=dashed"
		        : e->kind == GRAPH_K_OUTSIDE ? ", style=dotted"
		                                     : "") == -1)
			return -1;
	}
	return buf_puts(out, "}\n");
}

/* Run Graphviz's dot -Tsvg with the DOT text on its stdin, its output
 * on ours.  0, or -1 with the reason on stderr. */
static int
graph_svg(const struct buf *dot)
{
	char *const argv[] = {(char *)"dot", (char *)"-Tsvg", NULL};
	posix_spawn_file_actions_t fa;
	int fds[2], ws, err;
	size_t off = 0;
	pid_t pid;

	/* a dot that dies early must not take us with it: its status says */
	(void)signal(SIGPIPE, SIG_IGN);
	if (pipe(fds) == -1)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[0], STDIN_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	fflush(stdout);
	err = posix_spawnp(&pid, "dot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[0]);
	if (err != 0) {
		close(fds[1]);
		fprintf(stderr,
		    "gpt.fcgi: --svg needs Graphviz's dot: %s (install "
		    "graphviz, or use --dot)\n",
		    strerror(err));
		return -1;
	}
	/* bounded by the text's length */
	while (off < buf_len(dot)) {
		ssize_t w =
		    write(fds[1], buf_ptr(dot) + off, buf_len(dot) - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(fds[1]);
	while (waitpid(pid, &ws, 0) == -1 && errno == EINTR)
		;
	if (off < buf_len(dot) || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
		fprintf(stderr, "gpt.fcgi: dot -Tsvg failed\n");
		return -1;
	}
	return 0;
}

int
cli_graph(int argc, char **argv)
{
	enum { JSON, DOT, SVG } fmt = JSON;
	struct graph g;
	struct buf out;
	int rc = 1;

	if (argc == 3 && strcmp(argv[1], "--dot") == 0)
		fmt = DOT;
	else if (argc == 3 && strcmp(argv[1], "--svg") == 0)
		fmt = SVG;
	else if (argc == 3 && strcmp(argv[1], "--json") == 0)
		fmt = JSON;
	else if (argc != 2 || strncmp(argv[1], "--", 2) == 0) {
		fputs("usage: gpt.fcgi --graph [--json | --dot | --svg] ROOT\n",
		    stderr);
		return 2;
	}
	if (graph_read(&g, argv[argc - 1]) == -1)
		return 1;
	buf_init(&out, CLI_INPUT_MAX);
	if ((fmt == JSON ? graph_json(&g, &out) : graph_dot(&g, &out)) == -1)
		fprintf(stderr, "gpt.fcgi: %s: out of memory\n", g.root);
	else if (fmt == SVG)
		rc = graph_svg(&out) == 0 ? 0 : 1;
	else {
		fwrite(buf_ptr(&out), 1, buf_len(&out), stdout);
		rc = 0;
	}
	buf_free(&out);
	graph_free(&g);
	return rc;
}

int
cli_check_root(const char *root, bool json)
{
	struct graph g;
	size_t i, refusals = 0, infos = 0;
	struct buf out;
	int rc;

	if (graph_read(&g, root) == -1)
		return 1;
	for (i = 0; i < g.nproblems; i++) {
		const struct graph_problem *p = &g.problems[i];
		const char *name = g.nodes[p->node].name;

		refusals += p->sev == GRAPH_REFUSAL;
		infos += p->sev == GRAPH_INFO;
		if (json)
			continue;
		/* the whole text report on one stream, as --check DIR */
		if (p->sev == GRAPH_REFUSAL && p->pointer != NULL)
			printf("%s/%s: refused [%s] at \"#%s\": %s\n", root,
			    name, p->rule, p->pointer, p->reason);
		else if (p->sev == GRAPH_REFUSAL)
			printf("%s/%s: refused [%s]: %s\n", root, name, p->rule,
			    p->reason);
		else
			printf("%s/%s: info [%s]: %s\n", root, name, p->rule,
			    p->reason);
	}
	rc = refusals > 0 || g.nomem ? 1 : 0;
	if (json) {
		buf_init(&out, CLI_INPUT_MAX);
		if (graph_json(&g, &out) == -1)
			rc = 1;
		else
			fwrite(buf_ptr(&out), 1, buf_len(&out), stdout);
		buf_free(&out);
	} else
		printf("%s: %zu addresses, %zu links, %zu refusals, %zu "
		       "infos%s\n",
		    root, g.nnodes, g.nedges, refusals, infos,
		    g.more + g.more_cycles > 0 ? " (more not listed)" : "");
	graph_free(&g);
	return rc;
}

void
cli_links_report(const char *dir, const struct addr *a, struct report *r)
{
	char root[PATH_MAX], path[PATH_MAX + ADDR_NAME_MAX + 2];
	char name[ADDR_NAME_MAX + 1], ptr[64];
	size_t i, n = links_count(a->doc), header = 0;
	const char *slash;
	struct link k;

	/* the root is the address's parent directory */
	snprintf(root, sizeof(root), "%s", dir);
	while (strlen(root) > 1 && root[strlen(root) - 1] == '/')
		root[strlen(root) - 1] = '\0';
	slash = strrchr(root, '/');
	if (slash == NULL)
		snprintf(root, sizeof(root), ".");
	else if (slash == root)
		root[1] = '\0';
	else
		root[slash - root] = '\0';
	for (i = 0; i < n; i++) {
		struct addr b;

		links_get(a->doc, i, &k);
		snprintf(ptr, sizeof(ptr), "/links/%zu/href", i);
		/* what the Link fields take (http_link_field's shape) */
		header += k.href_len + k.rel_len + k.title_len * 3 + 40;
		switch (links_target(k.href, k.href_len, name, sizeof(name))) {
		case LINKS_T_NOWHERE:
			report_addf(r, REPORT_REFUSAL, "link-broken", ptr,
			    "name one address (no slash) to stay under the "
			    "root, or write an absolute URI",
			    "\"%.*s\" is under the root but names no address",
			    (int)k.href_len, k.href);
			continue;
		case LINKS_T_SIBLING:
			break;
		default:
			continue;
		}
		if (!addr_name_ok(name)) {
			report_addf(r, REPORT_REFUSAL, "link-broken", ptr, NULL,
			    "\"%s\" is not an address name", name);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", root, name);
		if (addr_load(path, &b, NULL, NULL) == -1)
			report_addf(r, REPORT_REFUSAL, "link-broken", ptr,
			    "publish the address it names, or fix the href",
			    "\"%s\" names %s: %s", name, path,
			    b.no_form ? "no address there" : b.err);
		addr_free(&b);
	}
	if (header >= HTTP_LINK_FIELDS_MAX)
		report_addf(r, REPORT_WARNING, "link-header-full", "/links",
		    "keep the links that matter first",
		    "the links take about %zu bytes as Link fields: those "
		    "past %d bytes are in the document only",
		    header, HTTP_LINK_FIELDS_MAX);
}
