#include "yamlines.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

char *yaml_slurp(const char *path)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	char *text = xmalloc(YAML_FILE_MAX + 1);
	size_t n = fread(text, 1, YAML_FILE_MAX + 1, f);
	bool bad = ferror(f) || n > YAML_FILE_MAX;
	int e = ferror(f) ? errno : EFBIG;
	fclose(f);
	if (bad) {
		free(text);
		errno = e ? e : EIO;
		return NULL;
	}
	text[n] = '\0';
	return text;
}

char *yaml_line(char **at, int *lineno)
{
	for (char *l = *at, *next; l; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		++*lineno;
		size_t n = strlen(l);
		if (n && l[n - 1] == '\r')
			l[--n] = '\0';
		char *k = l + strspn(l, " \t");
		/* "---", a document's start, with a comment or none */
		bool start = !strncmp(k, "---", 3);
		const char *after = start ? k + 3 + strspn(k + 3, " \t") : k;
		start = start && (!*after || (*after == '#' && after > k + 3));
		if (!*k || *k == '#' || start)
			continue;
		*at = next;
		return l;
	}
	*at = NULL;
	return NULL;
}

/* A quoted scalar from its opening quote, unquoted in place; NULL if not closed */
static char *quoted(char *v, char **rest)
{
	char q = *v, *out = v, *p = v + 1;

	for (; *p; p++) {
		if (*p == q && q == '\'' && p[1] == '\'') {
			*out++ = *p++;
		} else if (*p == q) {
			*out = '\0';
			if (rest)
				*rest = p + 1;
			return v;
		} else if (q == '"' && *p == '\\' && (p[1] == '\\' || p[1] == '"')) {
			*out++ = *++p;
		} else {
			*out++ = *p;
		}
	}
	return NULL;
}

char *yaml_scalar(char *v, char **rest)
{
	v += strspn(v, " \t");
	if (*v == '"' || *v == '\'')
		return quoted(v, rest);
	char *c = strstr(v, " #");
	if (c)
		*c = '\0';
	size_t n = strlen(v);
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		v[--n] = '\0';
	if (rest)
		*rest = v + n;
	return v;
}
