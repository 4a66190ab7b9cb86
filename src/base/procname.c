#include "procname.h"

#include <stdio.h>
#include <string.h>

#include "text.h"

/* How an interpreter's options read: the letters of a short option (grouped where
 * .grouped: "-uc") that run code given on the line (no script), take a value (the rest of
 * the option or the next argument), or name the script (python -m); whole options
 * ("--eval", java's "-cp") of the same three kinds. */
struct lang {
	const char *code, *value, *script;
	const char *const *long_code, *const *long_value, *const *long_script;
	bool grouped;
	bool dotted; /* its script may be a class: "org.x.Main" is named "Main" */
};

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})
static const struct lang python = {.code = "c", .value = "WX", .script = "m", .grouped = true};
static const struct lang perl = {.code = "eE", .value = "", .script = "", .grouped = true};
static const struct lang ruby = {.code = "e", .value = "IrCE", .script = "", .grouped = true};
static const struct lang shell = {.code = "c",
				  .value = "oO",
				  .script = "",
				  .long_value = LIST("--rcfile", "--init-file"),
				  .grouped = true};
static const struct lang lua = {.code = "e", .value = "l", .script = "", .grouped = true};
static const struct lang node = {
	.long_code = LIST("-e", "--eval", "-p", "--print"),
	.long_value = LIST("-r", "--require", "--import", "--loader", "--experimental-loader", "-C",
			   "--conditions"),
};
static const struct lang java = {
	.long_value = LIST("-cp", "-classpath", "--class-path", "-p", "--module-path",
			   "--upgrade-module-path", "--add-modules", "--add-opens", "--add-exports",
			   "--add-reads", "--limit-modules"),
	.long_script = LIST("-jar", "-m", "--module"),
	.dotted = true,
};
static const struct lang php = {.long_code = LIST("-r", "-R", "-B", "-E"),
				.long_value = LIST("-d", "-c", "-z", "-t", "-S"),
				.long_script = LIST("-f")};
static const struct lang plain = {.code = ""};

/* The interpreters, by their program's name without a version ("python3.11": python) */
static const struct {
	const char *name;
	const struct lang *lang;
} interpreters[] = {
	{"python", &python}, {"pypy", &python}, {"perl", &perl},     {"ruby", &ruby},
	{"node", &node},     {"nodejs", &node}, {"java", &java},     {"sh", &shell},
	{"bash", &shell},    {"dash", &shell},	{"zsh", &shell},     {"ksh", &shell},
	{"mksh", &shell},    {"ash", &shell},	{"php", &php},	     {"lua", &lua},
	{"luajit", &lua},    {"tclsh", &plain}, {"Rscript", &plain},
};

/* The language of the program whose base name is the n bytes at s; NULL: none */
static const struct lang *lang_of(const char *s, size_t n)
{
	while (n > 1 && ((s[n - 1] >= '0' && s[n - 1] <= '9') || s[n - 1] == '.'))
		n--;
	for (size_t i = 0; i < sizeof(interpreters) / sizeof(*interpreters); i++)
		if (strlen(interpreters[i].name) == n && !memcmp(interpreters[i].name, s, n))
			return interpreters[i].lang;
	return NULL;
}

/* The argument at s: its end (a space or the NUL) */
static const char *arg_end(const char *s)
{
	const char *e = strchr(s, ' ');
	return e ? e : s + strlen(s);
}

/* The argument after the one ending at e; NULL: none */
static const char *next_arg(const char *e)
{
	while (*e == ' ')
		e++;
	return *e ? e : NULL;
}

/* Whether the argument [s, e), up to an '=', is one of list */
static bool in_list(const char *const *list, const char *s, const char *e)
{
	const char *eq = memchr(s, '=', (size_t)(e - s));
	size_t n = (size_t)((eq ? eq : e) - s);

	for (; list && *list; list++)
		if (strlen(*list) == n && !memcmp(*list, s, n))
			return true;
	return false;
}

/* The script an interpreter's command line runs: the argument that names it (an option
 * or the script) at *from, the script's whole path [*path, *end) */
struct found {
	const char *from, *path, *end;
};

enum opt { OPT_FLAG, OPT_CODE, OPT_VALUE, OPT_SCRIPT };

/* The option [s, e) of l: what it is, and where its value is attached, *rest (NULL: the
 * next argument is its value) */
static enum opt option(const struct lang *l, const char *s, const char *e, const char **rest)
{
	const char *eq = memchr(s, '=', (size_t)(e - s));

	*rest = eq && eq + 1 < e ? eq + 1 : NULL;
	if (in_list(l->long_code, s, e))
		return OPT_CODE;
	if (in_list(l->long_value, s, e))
		return OPT_VALUE;
	if (in_list(l->long_script, s, e))
		return OPT_SCRIPT;
	if (!l->grouped || s[1] == '-')
		return OPT_FLAG;
	for (const char *c = s + 1; c < e; c++) {
		enum opt o = strchr(l->code, *c)     ? OPT_CODE
			     : strchr(l->script, *c) ? OPT_SCRIPT
			     : strchr(l->value, *c)  ? OPT_VALUE
						     : OPT_FLAG;
		if (o != OPT_FLAG) {
			*rest = c + 1 < e ? c + 1 : NULL;
			return o;
		}
	}
	return OPT_FLAG;
}

static bool find(const char *cmd, const struct lang **lp, struct found *f)
{
	if (!cmd || cmd[0] == '[')
		return false;
	const char *e = arg_end(cmd), *base = cmd;
	for (const char *c = cmd; c < e; c++)
		if (*c == '/' && c + 1 < e)
			base = c + 1;
	const struct lang *l = lang_of(base, (size_t)(e - base));
	if (!l)
		return false;
	*lp = l;
	for (const char *s = next_arg(e); s; s = next_arg(e)) {
		e = arg_end(s);
		f->from = s;
		if ((*s != '-' && *s != '+') || e - s == 1) { /* the script ("-": stdin) */
			f->path = s;
			break;
		}
		if (e - s == 2 && s[1] == '-') { /* "--": the script next */
			f->path = next_arg(e);
			break;
		}
		const char *rest;
		enum opt o = option(l, s, e, &rest);
		if (o == OPT_CODE)
			return false;
		if (o == OPT_FLAG)
			continue;
		const char *v = rest ? rest : next_arg(e);
		if (!v)
			return false;
		if (!rest)
			e = arg_end(v);
		if (o == OPT_SCRIPT) {
			f->path = v;
			break;
		}
	}
	if (!f->path || (f->path[0] == '-' && arg_end(f->path) - f->path == 1))
		return false;
	f->end = arg_end(f->path);
	return true;
}

/* The base name of [s, e): after its last '/' that some character follows */
static const char *base_of(const char *s, const char *e)
{
	const char *b = s;

	for (const char *c = s; c < e; c++)
		if (*c == '/' && c + 1 < e)
			b = c + 1;
	return b;
}

bool cmd_script(const char *cmd, const char **path, const char **at, size_t *len)
{
	const struct lang *l;
	struct found f = {0};

	if (!find(cmd, &l, &f))
		return false;
	const char *b = base_of(f.path, f.end);
	size_t n = (size_t)(f.end - b);
	/* a class ("org.x.Main"), not a file ("app.jar", "x.py"): its last part */
	if (l->dotted && !(n > 4 && !memcmp(f.end - 4, ".jar", 4))) {
		const char *dot = NULL;
		for (const char *c = b; c + 1 < f.end; c++)
			if (*c == '.')
				dot = c + 1;
		if (dot)
			b = dot;
	}
	*path = f.path;
	*at = b;
	*len = (size_t)(f.end - b);
	return true;
}

size_t proc_short_name(const char *comm, const char *cmd, char *out, size_t size)
{
	const char *path, *at;
	size_t len;

	if (cmd_script(cmd, &path, &at, &len))
		return fmt_cut(at, len, out, size);
	return fmt_cut(comm ? comm : "", comm ? strlen(comm) : 0, out, size);
}

size_t cmd_brief(const char *cmd, char *out, size_t size)
{
	const struct lang *l;
	struct found f = {0};
	const char *prog = cmd_short(cmd);

	if (!find(cmd, &l, &f))
		return fmt_cut(prog, strlen(prog), out, size);
	const char *b = base_of(f.path, f.end);
	int n = snprintf(out, size, "%.*s %.*s%s", (int)(arg_end(cmd) - prog), prog,
			 (int)(f.path - f.from), f.from, b);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}
