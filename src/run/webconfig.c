#include "webconfig.h"

#include <crypt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "tls_check.h"
#include "util.h"
#include "yamlines.h"

enum section { NONE, TLS, USERS };

static const char b64[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/* The bcrypt cost of hash h ($2a$, $2b$ or $2y$, a cost of two digits, 53 characters of
 * bcrypt's base64), else 0 with why set */
static int bcrypt_cost(const char *h, const char *user, char *why, size_t whylen)
{
	char q[PARSE_QUOTE_SIZE];
	bool prefix = !strncmp(h, "$2a$", 4) || !strncmp(h, "$2b$", 4) || !strncmp(h, "$2y$", 4);
	bool digits = prefix && h[4] >= '0' && h[4] <= '9' && h[5] >= '0' && h[5] <= '9';
	int cost = digits ? (h[4] - '0') * 10 + h[5] - '0' : 0;

	parse_quote(user, q, sizeof(q));
	if (!prefix || !digits || h[6] != '$' || strlen(h) != WEB_HASH_LEN ||
	    strspn(h + 7, b64) != WEB_HASH_LEN - 7) {
		snprintf(why, whylen,
			 "user '%s': the password is not a bcrypt hash ($2b$, a cost, '$' and 53 "
			 "characters of ./A-Za-z0-9)",
			 q);
		return 0;
	}
	if (cost < WEB_COST_MIN || cost > WEB_COST_MAX) {
		snprintf(why, whylen, "user '%s': bcrypt cost %d, not %02d to %d", q, cost,
			 WEB_COST_MIN, WEB_COST_MAX);
		return 0;
	}
	return cost;
}

/* One "key: value" line of the file (indented under a section, or a section's own line) */
static int line(struct web_config *w, enum section *sec, char *l, char **cert, char **key,
		char *why, size_t whylen)
{
	bool indented = *l == ' ' || *l == '\t';
	char *k = l + strspn(l, " \t"), *colon = strchr(k, ':'), q[PARSE_QUOTE_SIZE];

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
	parse_quote(k, q, sizeof(q));
	if (!indented) {
		*sec = !strcmp(k, "tls_server_config")	? TLS
		       : !strcmp(k, "basic_auth_users") ? USERS
							: NONE;
		if (*sec == NONE || *v) {
			snprintf(why, whylen,
				 "'%s' is not supported (only tls_server_config and "
				 "basic_auth_users)",
				 q);
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
			 q);
		return -1;
	}
	if (*sec != USERS) {
		snprintf(why, whylen, "'%s' outside a section", q);
		return -1;
	}
	int cost = bcrypt_cost(v, k, why, whylen);
	if (!cost)
		return -1;
	if (!*k || strchr(k, ' ') || w->nusers == WEB_USERS_MAX) {
		snprintf(why, whylen, *k ? "more than %d users" : "a user without a name",
			 WEB_USERS_MAX);
		return -1;
	}
	/* the dummy: the highest cost, a salt and hash of zeros, which bcrypt never gives */
	if (!*w->dummy || cost > atoi(w->dummy + 4))
		snprintf(w->dummy, sizeof(w->dummy), "$2b$%02d$%.53s", cost,
			 "....................................................."
			 "..........");
	w->users[w->nusers].name = xstrdup(k);
	w->users[w->nusers++].hash = xstrdup(v);
	return 0;
}

int web_config_parse(struct web_config *w, char *text, const char *name, char **cert, char **key,
		     char *err, size_t errlen)
{
	char *at = text, why[200] = "";
	enum section sec = NONE;
	int n = 0, rc = 0;

	for (char *l; !rc && (l = yaml_line(&at, &n));)
		rc = line(w, &sec, l, cert, key, why, sizeof(why));
	if (rc)
		snprintf(err, errlen, "--web-config %s:%d: %s", name, n, why);
	else if (!*cert != !*key)
		snprintf(err, errlen,
			 "--web-config %s: tls_server_config needs both cert_file and key_file",
			 name);
	return rc || !*cert != !*key ? -1 : 0;
}

/* The whole of a regular file (not a FIFO, which would wait for a writer), NUL-terminated,
 * to free(); NULL with the reason in *why */
static char *slurp(const char *path, const char **why)
{
	char *text = xmalloc(YAML_FILE_MAX + 2);
	long n = read_config(path, text, YAML_FILE_MAX + 2, why);

	if (n > YAML_FILE_MAX)
		*why = "larger than 1 MiB";
	if (n < 0 || n > YAML_FILE_MAX) {
		free(text);
		return NULL;
	}
	return text;
}

int web_config_read(struct web_config *w, const char *path, char *err, size_t errlen)
{
	const char *why = "";
	char *text, *cert = NULL, *key = NULL, shown[512], file[512];
	int rc = 0;

	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->lock, NULL);
	parse_escape(path, shown, sizeof(shown));
	if (!(text = slurp(path, &why))) {
		snprintf(err, errlen, "--web-config %s: %s", shown, why);
		return -1;
	}
	rc = web_config_parse(w, text, shown, &cert, &key, err, errlen);
	free(text);
	if (!rc && cert && (!(w->cert = slurp(cert, &why)) || !(w->key = slurp(key, &why)))) {
		snprintf(err, errlen, "--web-config %s: %s: %s", shown,
			 parse_escape(w->cert ? key : cert, file, sizeof(file)), why);
		rc = -1;
	}
	char cf[512], kf[512], why2[1200];
	if (!rc && cert &&
	    tls_check(w->cert, w->key, parse_escape(cert, cf, sizeof(cf)),
		      parse_escape(key, kf, sizeof(kf)), why2, sizeof(why2))) {
		snprintf(err, errlen, "--web-config %s: %s", shown, why2);
		rc = -1;
	}
	w->cert_file = cert;
	w->key_file = key;
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

static struct web_user *find(struct web_config *w, const char *user)
{
	struct web_user *u = NULL;

	for (size_t i = 0; user && i < w->nusers; i++)
		if (!strcmp(w->users[i].name, user))
			u = &w->users[i];
	return u;
}

bool web_config_known(struct web_config *w, const char *user, const char *password)
{
	struct web_user *u = find(w, user);

	if (!u || !password)
		return false;
	pthread_mutex_lock(&w->lock);
	bool ok = u->good && same(u->good, password);
	pthread_mutex_unlock(&w->lock);
	return ok;
}

bool web_config_allows(struct web_config *w, const char *user, const char *password)
{
	struct web_user *u = find(w, user);

	if (!password || !w->nusers)
		return false;
	if (web_config_known(w, user, password))
		return true;
	struct crypt_data *cd = xcalloc(1, sizeof(*cd));
	const char *hash = u ? u->hash : w->dummy, *h = crypt_r(password, hash, cd);
	bool ok = u && h && *h != '*' && same(h, hash);
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
	free(w->cert_file);
	free(w->key_file);
	pthread_mutex_destroy(&w->lock);
	memset(w, 0, sizeof(*w));
}
