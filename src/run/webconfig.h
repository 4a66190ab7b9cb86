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

struct web_user {
	char *name, *hash;
	char *good; /* the last password that matched its hash: bcrypt is checked once */
};

struct web_config {
	char *cert, *key; /* the PEM files' text; NULL: no TLS */
	struct web_user users[WEB_USERS_MAX];
	size_t nusers;	      /* 0: no authentication */
	pthread_mutex_t lock; /* the users' good passwords */
};

/* Reads path and the files it names into w. Returns 0, or -1 with a one-line reason in
 * err ("FILE:LINE: ...") for a file that cannot be read, a line of another form, a key
 * that is not supported, a cert_file without key_file, a hash that is not bcrypt. */
int web_config_read(struct web_config *w, const char *path, char *err, size_t errlen);
/* Whether user and password are those of one of the users */
bool web_config_allows(struct web_config *w, const char *user, const char *password);
void web_config_free(struct web_config *w);

#endif
