#include "settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "util.h"

int settings_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && *xdg)
		n = snprintf(buf, size, "%s/memtop/memtoprc", xdg);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.config/memtop/memtoprc", home);
	else
		return -1;
	return n > 0 && (size_t)n < size ? 0 : -1;
}

static int parse_bool(const char *v, bool *out)
{
	if (!strcmp(v, "1") || !strcmp(v, "yes"))
		*out = true;
	else if (!strcmp(v, "0") || !strcmp(v, "no"))
		*out = false;
	else
		return -1;
	return 0;
}

/* One "key=value" line; returns 0, or -1 with the reason in err */
static int parse_line(char *line, struct prefs *p, char *err, size_t errlen)
{
	char *eq = strchr(line, '='), q[PARSE_QUOTE_SIZE], why[200];
	if (!eq) {
		snprintf(err, errlen, "expected key=value, not '%s'",
			 parse_quote(line, q, sizeof(q)));
		return -1;
	}
	*eq = '\0';
	const char *key = line, *val = eq + 1;
	int rc = 1; /* 1: not one of the keys below */
	if (!strcmp(key, "columns"))
		rc = parse_columns(val, &p->cols, why, sizeof(why));
	else if (!strcmp(key, "sort"))
		rc = parse_column(val, &p->sort, why, sizeof(why));
	else if (!strcmp(key, "delay"))
		rc = parse_delay(val, &p->delay, why, sizeof(why));
	else if (!strcmp(key, "theme")) {
		rc = strlen(val) < sizeof(p->theme) ? 0 : -1;
		if (rc)
			snprintf(why, sizeof(why), "a name or path of at most %zu bytes",
				 sizeof(p->theme) - 1);
		else
			snprintf(p->theme, sizeof(p->theme), "%s", val);
	}
	if (rc < 0)
		snprintf(err, errlen, "%s: %s", key, why);
	if (rc <= 0)
		return rc;
	bool *flag = !strcmp(key, "invert")	     ? &p->invert
		     : !strcmp(key, "tree")	     ? &p->tree
		     : !strcmp(key, "hide_kthreads") ? &p->filter.hide_kthreads
		     : !strcmp(key, "mouse")	     ? &p->mouse
		     : !strcmp(key, "graphs")	     ? &p->graphs
						     : NULL;
	if (!flag) {
		snprintf(err, errlen, "unknown setting '%s'", parse_quote(key, q, sizeof(q)));
		return -1;
	}
	if (parse_bool(val, flag)) {
		snprintf(err, errlen, "%s: 1 or 0, not '%s'", key, parse_quote(val, q, sizeof(q)));
		return -1;
	}
	return 0;
}

int settings_parse(const char *text, struct prefs *p, char *err, size_t errlen)
{
	char line[512], why[256];
	int n = 0;

	while (*text) {
		size_t len = strcspn(text, "\n");
		n++;
		if (len >= sizeof(line)) {
			snprintf(err, errlen, "line %d: too long", n);
			return -1;
		}
		memcpy(line, text, len);
		line[len] = '\0';
		text += len + (text[len] == '\n');
		char *l = line + strspn(line, " \t");
		l[strcspn(l, "\r")] = '\0';
		if (!*l || *l == '#')
			continue;
		if (parse_line(l, p, why, sizeof(why))) {
			snprintf(err, errlen, "line %d: %s", n, why);
			return -1;
		}
	}
	return 0;
}

void settings_format(const struct prefs *p, char *buf, size_t size)
{
	char cols[256] = "";
	size_t n = 0;

	for (int c = 0; c < COL_COUNT; c++)
		if (p->cols & COL_BIT(c) && n < sizeof(cols))
			n += (size_t)snprintf(cols + n, sizeof(cols) - n, "%s%s", n ? "," : "",
					      columns[c].name);
	snprintf(buf, size,
		 "# memtop settings, written by the W key; flags given on the command line win\n"
		 "columns=%s\nsort=%s\ninvert=%d\ntree=%d\nhide_kthreads=%d\ndelay=%g\nmouse=%d\n"
		 "graphs=%d\n%s%s%s",
		 cols, columns[p->sort].name, p->invert, p->tree, p->filter.hide_kthreads, p->delay,
		 p->mouse, p->graphs, p->theme[0] ? "theme=" : "", p->theme,
		 p->theme[0] ? "\n" : "");
}

int settings_load(struct prefs *p, char *err, size_t errlen)
{
	char path[512], shown[1024], text[4096], why[256];
	const char *reason;

	if (settings_path(path, sizeof(path)))
		return 1;
	long n = read_config(path, text, sizeof(text), &reason);
	if (n < 0 && errno == ENOENT)
		return 1;
	parse_escape(path, shown, sizeof(shown)); /* $XDG_CONFIG_HOME, $HOME may hold anything */
	if (n < 0) {
		snprintf(err, errlen, "%s: %s", shown, reason);
		return -1;
	}
	if ((size_t)n == sizeof(text) - 1) {
		snprintf(err, errlen, "%s: too long for a settings file", shown);
		return -1;
	}
	if (settings_parse(text, p, why, sizeof(why))) {
		snprintf(err, errlen, "%s %s (fix or remove it)", shown, why);
		return -1;
	}
	return 0;
}

/* mkdir -p of the file's directory */
static int make_dirs(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		int rc = mkdir(path, 0755);
		*p = '/';
		if (rc && errno != EEXIST)
			return -1;
	}
	return 0;
}

int settings_save(const struct prefs *p, char *msg, size_t msglen)
{
	char path[512], shown[1024], tmp[530], text[1024];

	if (settings_path(path, sizeof(path))) {
		snprintf(msg, msglen,
			 "cannot save settings: neither XDG_CONFIG_HOME nor HOME is set");
		return -1;
	}
	parse_escape(path, shown, sizeof(shown));
	settings_format(p, text, sizeof(text));
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	size_t len = strlen(text);
	int fd = make_dirs(path) ? -1 : open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(msg, msglen, "cannot save settings to %s: %s", shown, strerror(errno));
		return -1;
	}
	bool ok = write(fd, text, len) == (ssize_t)len;
	int e = errno;
	if (close(fd) && ok) {
		ok = false;
		e = errno;
	}
	if (ok && rename(tmp, path)) { /* replaced whole, never half written */
		ok = false;
		e = errno;
	}
	if (!ok) {
		unlink(tmp);
		snprintf(msg, msglen, "cannot save settings to %s: %s", shown, strerror(e));
		return -1;
	}
	snprintf(msg, msglen, "settings saved to %s", shown);
	return 0;
}
