#include "theme.h"

#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

extern const char theme_default_text[];

static const char *const role_names[ROLE_COUNT] = {
	"header",     "label",	     "value",	     "meter_used",  "meter_buffers", "meter_cache",
	"meter_swap", "meter_frame", "table_header", "sort_column", "selected",	     "row",
	"row_dim",    "alert",	     "warning",	     "status",	    "key",	     "help_title",
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
	return -2;
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

struct theme *theme_parse(const char *text, char *err, size_t errlen)
{
	struct theme *t = xcalloc(1, sizeof(*t));
	bool seen[ROLE_COUNT] = {false};
	int lineno = 0;
	const char *p = text;
	while (*p) {
		char line[256];
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
		char *fg = strtok_r(NULL, " \t", &save), *bg = strtok_r(NULL, " \t", &save);
		if (r == ROLE_COUNT || !fg || !bg || color_number(fg) < -1 ||
		    color_number(bg) < -1) {
			snprintf(err, errlen,
				 "theme line %d: expected 'role foreground background "
				 "[attributes]'",
				 lineno);
			free(t);
			return NULL;
		}
		struct style *s = &t->style[r];
		s->fg = (short)color_number(fg);
		s->bg = (short)color_number(bg);
		for (char *a; (a = strtok_r(NULL, " \t", &save));) {
			if (attr_bits(a) < 0) {
				snprintf(err, errlen, "theme line %d: unknown attribute '%s'",
					 lineno, a);
				free(t);
				return NULL;
			}
			s->attrs |= attr_bits(a);
		}
		seen[r] = true;
	}
	for (int r = 0; r < ROLE_COUNT; r++) {
		if (!seen[r]) {
			snprintf(err, errlen, "theme has no line for role '%s'", role_names[r]);
			free(t);
			return NULL;
		}
	}
	return t;
}

/* themes/ beside the binary's directory (build/), or the installed share directory. */
static long read_theme_file(const char *name, char *buf, size_t size)
{
	char path[PATH_MAX + 64], exe[PATH_MAX];
	if (strchr(name, '/'))
		return read_file(name, buf, size);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(path, sizeof(path), "%s/../themes/%s.theme", exe, name);
		long r = read_file(path, buf, size);
		if (r >= 0)
			return r;
	}
	snprintf(path, sizeof(path), "%s/%s.theme", MEMTOP_THEMES, name);
	return read_file(path, buf, size);
}

struct theme *theme_load(const char *name, char *err, size_t errlen)
{
	char buf[8192], perr[160];
	const char *text = theme_default_text;
	if (strcmp(name, "default") != 0) {
		if (read_theme_file(name, buf, sizeof(buf)) < 0) {
			snprintf(err, errlen, "theme '%s': %s", name, strerror(errno));
			return NULL;
		}
		text = buf;
	}
	struct theme *t = theme_parse(text, perr, sizeof(perr));
	if (!t)
		snprintf(err, errlen, "theme '%s': %s", name, perr);
	return t;
}

void theme_free(struct theme *t)
{
	free(t);
}

void theme_apply(struct theme *t)
{
	bool color = has_colors() && start_color() == OK;
	if (color)
		use_default_colors();
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct style *s = &t->style[r];
		if (color && COLOR_PAIRS > r + 1) {
			init_pair((short)(r + 1), s->fg, s->bg);
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
