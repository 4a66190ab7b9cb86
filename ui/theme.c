#include "theme.h"

#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "util.h"

/* The text of the theme compiled in as name, else NULL */
static const char *builtin(const char *name)
{
	for (const struct theme_builtin *b = theme_builtins; b->name; b++)
		if (!strcmp(b->name, name))
			return b->text;
	return NULL;
}

#define DEFAULT_TEXT (theme_builtins[0].text)

static const char *const role_names[ROLE_COUNT] = {
	"header",     "label",	     "value",	     "meter_used",  "meter_buffers", "meter_cache",
	"meter_swap", "meter_frame", "table_header", "sort_column", "selected",	     "row",
	"row_dim",    "alert",	     "warning",	     "status",	    "key",	     "help_title",
	"graph1",     "graph2",	     "graph3",	     "graph4",	    "graph_axis",
};

struct style {
	short fg, bg;
	int attrs;
};

struct theme {
	struct style style[ROLE_COUNT];
	int attr[ROLE_COUNT]; /* resolved by theme_apply */
};

static int color_number(const char *s)
{
	static const char *const names[] = {"black", "red",	"green", "yellow",
					    "blue",  "magenta", "cyan",	 "white"};
	if (!strcmp(s, "default"))
		return -1;
	for (int i = 0; i < 8; i++)
		if (!strcmp(s, names[i]))
			return i;
	/* a number of the 256-color palette */
	char *end;
	errno = 0;
	long n = strtol(s, &end, 10);
	if (s[0] >= '0' && s[0] <= '9' && !*end && !errno && n <= 255)
		return (int)n;
	return -2;
}

/* A color of the 256-color palette on a terminal with fewer: the nearest of the eight
 * (bright ones, the 6x6x6 cube by its channels, the grays to black or white) */
static short fit_color(short c)
{
	if (c < 0 || c < COLORS)
		return c;
	if (c < 16)
		return (short)(c - 8);
	if (c >= 232)
		return c < 244 ? COLOR_BLACK : COLOR_WHITE;
	int r = (c - 16) / 36, g = (c - 16) / 6 % 6, b = (c - 16) % 6;
	return (short)((r >= 3) | (g >= 3) << 1 | (b >= 3) << 2);
}

static int attr_bits(const char *s)
{
	if (!strcmp(s, "bold"))
		return A_BOLD;
	if (!strcmp(s, "dim"))
		return A_DIM;
	if (!strcmp(s, "reverse"))
		return A_REVERSE;
	if (!strcmp(s, "underline"))
		return A_UNDERLINE;
	return -1;
}

/* Warnings for the caller, one a line: at most WARN_LINES about single lines of a theme,
 * then one line counting the rest. */
#define WARN_LINES 5

struct warnings {
	char *buf;
	size_t size, len;
	const char *name; /* the file, or NULL for text */
	int lines, more;
};

static void warn_add(struct warnings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn_add(struct warnings *w, const char *fmt, ...)
{
	if (!w->buf || w->len + 1 >= w->size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(w->buf + w->len, w->size - w->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n + 1 >= w->size - w->len) {
		w->buf[w->len] = '\0'; /* a line cut short is dropped */
		return;
	}
	w->len += (size_t)n;
	w->buf[w->len++] = '\n';
	w->buf[w->len] = '\0';
}

/* A problem with line lineno: "theme FILE:LINE: ..." (or "theme line LINE: ...") */
static void warn_line(struct warnings *w, int lineno, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void warn_line(struct warnings *w, int lineno, const char *fmt, ...)
{
	char msg[200];
	if (++w->lines > WARN_LINES) {
		w->more++;
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (w->name)
		warn_add(w, "theme %s:%d: %s", w->name, lineno, msg);
	else
		warn_add(w, "theme line %d: %s", lineno, msg);
}

/* Sets the roles text has a good line for; marks in seen those it has a line for. A bad
 * line is reported and leaves its role as it was. Returns the number of bad lines. */
static int parse_lines(struct theme *t, bool seen[ROLE_COUNT], const char *text, struct warnings *w)
{
	int lineno = 0, bad = 0;
	const char *p = text;
	while (*p) {
		char line[256], q[PARSE_QUOTE_SIZE];
		size_t n = strcspn(p, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1),
			 p);
		p += n + (p[n] == '\n');
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *save, *word = strtok_r(line, " \t", &save);
		if (!word)
			continue;
		int r = 0;
		while (r < ROLE_COUNT && strcmp(role_names[r], word))
			r++;
		if (r == ROLE_COUNT) {
			warn_line(w, lineno, "unknown role '%s', line ignored",
				  parse_quote(word, q, sizeof(q)));
			bad++;
			continue;
		}
		seen[r] = true;
		char *fg = strtok_r(NULL, " \t", &save), *bg = strtok_r(NULL, " \t", &save);
		const char *what = NULL, *which = "";
		if (!fg || !bg)
			what = "expected 'role foreground background [attributes]'";
		else if (color_number(fg) < -1)
			what = "unknown color", which = fg;
		else if (color_number(bg) < -1)
			what = "unknown color", which = bg;
		struct style s = {0};
		if (!what) {
			s.fg = (short)color_number(fg);
			s.bg = (short)color_number(bg);
		}
		for (char *a; !what && (a = strtok_r(NULL, " \t", &save));) {
			if (attr_bits(a) < 0)
				what = "unknown attribute", which = a;
			else
				s.attrs |= attr_bits(a);
		}
		if (what) {
			warn_line(w, lineno, "%s%s%s%s; %s keeps the default colors", what,
				  *which ? " '" : "", parse_quote(which, q, sizeof(q)),
				  *which ? "'" : "", role_names[r]);
			bad++;
			continue;
		}
		t->style[r] = s;
	}
	return bad;
}

/* The default theme, then text's lines over it; warnings about text in w. */
static struct theme *parse(const char *text, char *err, size_t errlen, struct warnings *w)
{
	struct theme *t = xcalloc(1, sizeof(*t));
	bool seen[ROLE_COUNT] = {false};
	char derr[200] = "";
	struct warnings dw = {.buf = derr, .size = sizeof(derr), .name = "default"};
	int missing = 0;
	if (parse_lines(t, seen, DEFAULT_TEXT, &dw) == 0)
		for (int r = 0; r < ROLE_COUNT; r++)
			if (!seen[r])
				warn_add(&dw, "the default theme has no line for role '%s'",
					 role_names[r]);
	if (*derr) { /* a build with a broken themes/default.theme: the unit tests say so */
		derr[strcspn(derr, "\n")] = '\0';
		snprintf(err, errlen, "%s", derr);
		free(t);
		return NULL;
	}
	if (text == DEFAULT_TEXT)
		return t;
	memset(seen, 0, sizeof(seen));
	parse_lines(t, seen, text, w);
	char who[PATH_MAX + 80];
	snprintf(who, sizeof(who), "theme%s%s", w->name ? " " : "", w->name ? w->name : "");
	if (w->more)
		warn_add(w, "%s: %d more lines with problems ignored", who, w->more);
	for (int r = 0; r < ROLE_COUNT; r++)
		missing += !seen[r];
	if (missing) {
		char list[ROLE_COUNT * 16] = "";
		size_t len = 0;
		for (int r = 0; r < ROLE_COUNT; r++)
			if (!seen[r])
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
							len ? ", " : "", role_names[r]);
		warn_add(w, "%s: %d role%s missing, default colors used: %s", who, missing,
			 missing == 1 ? "" : "s", list);
	}
	return t;
}

struct theme *theme_parse(const char *text, char *err, size_t errlen, char *warn, size_t warnlen)
{
	struct warnings w = {.buf = warn, .size = warnlen};
	if (warn && warnlen)
		*warn = '\0';
	return parse(text, err, errlen, &w);
}

/* themes/ beside the binary's directory (build/), or the installed share directory. Only
 * a regular file is read (read_config); why says why none was. */
static long read_theme_file(const char *name, char *buf, size_t size, char *path, size_t plen,
			    const char **why)
{
	char exe[PATH_MAX];
	snprintf(path, plen, "%s", name);
	if (strchr(name, '/'))
		return read_config(name, buf, size, why);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(path, plen, "%s/../themes/%s.theme", exe, name);
		long r = read_config(path, buf, size, why);
		if (r >= 0)
			return r;
	}
	snprintf(path, plen, "%s/%s.theme", MEMTOP_THEMES, name);
	return read_config(path, buf, size, why);
}

/* The longest theme read: 64 KiB, 50 times the shipped ones */
#define THEME_MAX (64 * 1024)

struct theme *theme_load(const char *name, char *err, size_t errlen, char *warn, size_t warnlen)
{
	char *buf = NULL, path[PATH_MAX + 64] = "default", shown[PATH_MAX + 64];
	const char *text = DEFAULT_TEXT, *why = "too long for a theme (over 64 KiB)";
	if (warn && warnlen)
		*warn = '\0';
	if (strcmp(name, "default") != 0) {
		/* read whole or refused: a theme cut short would lose its last roles */
		buf = xmalloc(THEME_MAX + 2);
		long n = read_theme_file(name, buf, THEME_MAX + 2, path, sizeof(path), &why);
		/* no file of that name (no / in it): the one compiled in, else the names there
		 * are */
		bool missing = (n < 0 && !strcmp(why, strerror(ENOENT)) && !strchr(name, '/'));
		if (missing && builtin(name)) {
			text = builtin(name);
			snprintf(path, sizeof(path), "%s", name);
		} else if (n < 0 || n > THEME_MAX) {
			/* the names, as many as fit, for a name not found */
			char names[160] = "";
			size_t len = 0;
			for (const struct theme_builtin *b = theme_builtins; missing && b->name;
			     b++) {
				int k = snprintf(names + len, sizeof(names) - len, "%s, ", b->name);
				if (k < 0 || (size_t)k >= sizeof(names) - len) {
					names[len] = '\0';
					break;
				}
				len += (size_t)k;
			}
			snprintf(err, errlen, "theme '%s': %s%s%s",
				 parse_escape(name, shown, sizeof(shown)),
				 missing ? "no such theme; the themes are " : why, names,
				 missing ? "or a file's path" : "");
			free(buf);
			return NULL;
		} else
			text = buf;
	}
	/* warnings name the file as a person can read it */
	struct warnings w = {
		.buf = warn, .size = warnlen, .name = parse_escape(path, shown, sizeof(shown))};
	struct theme *t = parse(text, err, errlen, &w);
	free(buf);
	return t;
}

void theme_free(struct theme *t)
{
	free(t);
}

const char *theme_chosen(const char *pref)
{
	const char *no_color = getenv("NO_COLOR");

	if (pref && pref[0])
		return pref;
	return no_color && *no_color ? "mono" : "default";
}

const char *theme_next(const char *name)
{
	for (const struct theme_builtin *b = theme_builtins; b->name; b++)
		if (!strcmp(name, b->name))
			return b[1].name ? b[1].name : theme_builtins[0].name;
	return theme_builtins[0].name;
}

int theme_replace(struct theme *t, const char *name, char *err, size_t errlen)
{
	struct theme *n = theme_load(name, err, errlen, NULL, 0);

	if (!n)
		return -1;
	*t = *n;
	theme_free(n);
	return 0;
}

void theme_apply(struct theme *t)
{
	bool color = has_colors() && start_color() == OK;
	if (color)
		use_default_colors();
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct style *s = &t->style[r];
		if (color && COLOR_PAIRS > r + 1) {
			init_pair((short)(r + 1), fit_color(s->fg), fit_color(s->bg));
			t->attr[r] = COLOR_PAIR(r + 1) | s->attrs;
		} else {
			/* no color: keep the attributes, and make sure highlighted roles stand out
			 */
			int a = s->attrs;
			if (s->bg >= 0 && !(a & A_REVERSE))
				a |= A_REVERSE;
			t->attr[r] = a;
		}
	}
}

int theme_attr(const struct theme *t, enum role r)
{
	return t->attr[r];
}

int theme_fg(const struct theme *t, enum role r)
{
	return t->style[r].fg;
}
