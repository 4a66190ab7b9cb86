#include "webconfig.h"

#include <crypt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "yamlines.h"

enum section { NONE, TLS, USERS };

/* One "key: value" line of the file (indented under a section, or a section's own line) */
static int line(struct web_config *w, enum section *sec, char *l, char **cert, char **key,
		char *why, size_t whylen)
{
	bool indented = *l == ' ' || *l == '\t';
	char *k = l + strspn(l, " \t"), *colon = strchr(k, ':');

	if (!colon) {
		snprintf(why, whylen, "not a 'key: value' line");
		return -1;
	}
	*colon = '\0';
	char *v = yaml_scalar(colon + 1, NULL);
	if (!v) {
		snprintf(why, whylen, "a quote not closed");
		return -1;
	}
	if (!indented) {
		*sec = !strcmp(k, "tls_server_config")	? TLS
		       : !strcmp(k, "basic_auth_users") ? USERS
							: NONE;
		if (*sec == NONE || *v) {
			snprintf(why, whylen,
				 "'%s' is not supported (only tls_server_config and "
				 "basic_auth_users)",
				 k);
			return -1;
		}
		return 0;
	}
	if (*sec == TLS && (!strcmp(k, "cert_file") || !strcmp(k, "key_file"))) {
		char **f = !strcmp(k, "cert_file") ? cert : key;
		free(*f);
		*f = xstrdup(v);
		return 0;
	}
	if (*sec == TLS) {
		snprintf(why, whylen,
			 "tls_server_config: '%s' is not supported (only cert_file and key_file)",
			 k);
		return -1;
	}
	if (*sec != USERS) {
		snprintf(why, whylen, "'%s' outside a section", k);
		return -1;
	}
	if (strncmp(v, "$2a$", 4) && strncmp(v, "$2b$", 4) && strncmp(v, "$2y$", 4)) {
		snprintf(why, whylen, "user '%s': the password is not a bcrypt hash ($2b$...)", k);
		return -1;
	}
	if (!*k || strchr(k, ' ') || w->nusers == WEB_USERS_MAX) {
		snprintf(why, whylen, *k ? "more than %d users" : "a user without a name",
			 WEB_USERS_MAX);
		return -1;
	}
	w->users[w->nusers].name = xstrdup(k);
	w->users[w->nusers++].hash = xstrdup(v);
	return 0;
}

int web_config_read(struct web_config *w, const char *path, char *err, size_t errlen)
{
	char *text = yaml_slurp(path), *at, *cert = NULL, *key = NULL, why[200] = "";
	enum section sec = NONE;
	int n = 0, rc = 0;

	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->lock, NULL);
	if (!text) {
		snprintf(err, errlen, "--web-config %s: %s", path, strerror(errno));
		return -1;
	}
	at = text;
	for (char *l; !rc && (l = yaml_line(&at, &n));)
		rc = line(w, &sec, l, &cert, &key, why, sizeof(why));
	free(text);
	if (rc) {
		snprintf(err, errlen, "--web-config %s:%d: %s", path, n, why);
	} else if (!cert != !key) {
		snprintf(err, errlen,
			 "--web-config %s: tls_server_config needs both cert_file and "
			 "key_file",
			 path);
		rc = -1;
	} else if (cert && (!(w->cert = yaml_slurp(cert)) || !(w->key = yaml_slurp(key)))) {
		snprintf(err, errlen, "--web-config %s: %s: %s", path, w->cert ? key : cert,
			 strerror(errno));
		rc = -1;
	}
	free(cert);
	free(key);
	if (rc)
		web_config_free(w);
	return rc;
}

/* Equal, in a time that does not depend on where they differ */
static bool same(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	unsigned char d = na != nb;

	for (size_t i = 0; i < na && i < nb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return !d;
}

bool web_config_allows(struct web_config *w, const char *user, const char *password)
{
	struct web_user *u = NULL;

	for (size_t i = 0; user && password && i < w->nusers; i++)
		if (!strcmp(w->users[i].name, user))
			u = &w->users[i];
	if (!u)
		return false;
	pthread_mutex_lock(&w->lock);
	bool ok = u->good && same(u->good, password);
	pthread_mutex_unlock(&w->lock);
	if (ok)
		return true;
	struct crypt_data *cd = xcalloc(1, sizeof(*cd));
	const char *h = crypt_r(password, u->hash, cd);
	ok = h && *h != '*' && same(h, u->hash);
	free(cd);
	if (ok) {
		pthread_mutex_lock(&w->lock);
		free(u->good);
		u->good = xstrdup(password);
		pthread_mutex_unlock(&w->lock);
	}
	return ok;
}

void web_config_free(struct web_config *w)
{
	for (size_t i = 0; i < w->nusers; i++) {
		free(w->users[i].name);
		free(w->users[i].hash);
		free(w->users[i].good);
	}
	free(w->cert);
	free(w->key);
	pthread_mutex_destroy(&w->lock);
	memset(w, 0, sizeof(*w));
}
