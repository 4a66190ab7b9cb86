#include "settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "prefs_table.h"
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
	for (const struct pref *r = prefs_table; r < prefs_table + PREF_COUNT; r++) {
		if (!r->key || strcmp(r->key, line))
			continue;
		if (pref_parse(r, p, eq + 1, false, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", r->key, why);
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "unknown setting '%s'", parse_quote(line, q, sizeof(q)));
	return -1;
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
	size_t n = (size_t)snprintf(buf, size,
				    "# memtop settings, written by the W key; flags given on the "
				    "command line win\n");

	for (const struct pref *r = prefs_table; r < prefs_table + PREF_COUNT && n < size; r++) {
		char value[256];
		if (!r->key)
			continue;
		pref_format(r, p, value, sizeof(value));
		if (!r->written_if_set || value[0])
			n += (size_t)snprintf(buf + n, size - n, "%s=%s\n", r->key, value);
	}
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

int settings_apply(struct prefs *p, unsigned given)
{
	struct prefs saved = *p;
	char err[768];
	int rc = settings_load(&saved, err, sizeof(err));

	if (rc < 0) {
		fprintf(stderr, "memtop: %s\n", err);
		return -1;
	}
	for (int i = 0; i < PREF_COUNT && !rc; i++) {
		const struct pref *r = &prefs_table[i];
		if (r->key && !(given & (r->kept_by ? r->kept_by : PREF_BIT(i))))
			memcpy((char *)p + r->at, (const char *)&saved + r->at, r->size);
	}
	return 0;
}
