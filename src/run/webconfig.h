/* --web-config FILE: the subset of node_exporter's web configuration that --serve takes,
 * TLS (tls_server_config: cert_file, key_file) and basic authentication
 * (basic_auth_users: a user name and a bcrypt hash a line), and the check of a request's
 * user and password against the hashes with the system's crypt(3). */
#ifndef MEMTOP_WEBCONFIG_H
#define MEMTOP_WEBCONFIG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define WEB_USERS_MAX 64
/* The bcrypt costs a hash may have: each step doubles a check's time, about 55 ms at
 * cost 10 and 0.9 s at 14 on a 2020s CPU; 31 would be days */
#define WEB_COST_MIN 4
#define WEB_COST_MAX 14
#define WEB_HASH_LEN 60 /* "$2b$10$" and 53 characters of salt and hash */

struct web_user {
	char *name, *hash;
	char *good; /* the last password that matched its hash: bcrypt is checked once */
};

struct web_config {
	char *cert, *key; /* the PEM files' text; NULL: no TLS */
	char *cert_file, *key_file;
	struct web_user users[WEB_USERS_MAX];
	size_t nusers; /* 0: no authentication */
	/* a hash of the users' highest cost that no password matches, checked for a user
	 * that is not one of them, so that an unknown user takes a known one's time */
	char dummy[WEB_HASH_LEN + 1];
	pthread_mutex_t lock; /* the users' good passwords */
};

/* Reads path and the files it names into w. Returns 0, or -1 with a one-line reason in
 * err ("FILE:LINE: ...", the file's name and text escaped) for a file that cannot be
 * read or is not a regular file, a line of another form, a key that is not supported, a
 * cert_file without key_file, a hash that is not bcrypt or whose cost is not
 * WEB_COST_MIN to WEB_COST_MAX. */
int web_config_read(struct web_config *w, const char *path, char *err, size_t errlen);
/* The same from the file's text (changed in place), named name in err; the certificate's
 * and key's file names into *cert and *key (to free), their files not read */
int web_config_parse(struct web_config *w, char *text, const char *name, char **cert, char **key,
		     char *err, size_t errlen);
/* Whether password is the one that last matched user's hash: no bcrypt, in a time that
 * does not depend on where they differ */
bool web_config_known(struct web_config *w, const char *user, const char *password);
/* Whether user and password are those of one of the users: known, or checked by bcrypt
 * (an unknown user against the dummy hash, at the same cost), slow */
bool web_config_allows(struct web_config *w, const char *user, const char *password);
void web_config_free(struct web_config *w);

#endif
