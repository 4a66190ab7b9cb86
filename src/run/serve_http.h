/* The HTTP server of --serve (serve_http.c): the last refresh's exposition shared by the
 * scrapes that answer with it, basic auth (webconfig.h, serve_auth.h), the limits on
 * connections (serve_deadline.h), on a listening socket bound before the first refresh.
 * serve.c's runner publishes each refresh into it. */
#ifndef MEMTOP_SERVE_HTTP_H
#define MEMTOP_SERVE_HTTP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "metric.h"
#include "views.h"

struct deadline;
struct web_config;
struct auth_pool;
struct MHD_Response;
struct MHD_Daemon;
struct model;
struct tbuf;

/* One refresh's exposition in both formats, shared by the scrapes that answer with it
 * and freed by the last of them (or the next refresh) */
struct expo {
	char *text[2]; /* [0] the text format 0.0.4, [1] OpenMetrics */
	size_t len[2];
	char *gz[2]; /* the same gzipped, made by the first scrape that asks for it */
	size_t gzlen[2];
	unsigned refs;
};

struct server {
	pthread_mutex_t lock;
	struct deadline *deadline;
	struct export_stats stats; /* counted under lock */
	struct web_config *web;	   /* --web-config: TLS, users; NULL: none */
	struct auth_pool *auth;	   /* the users' bcrypt checks */
	struct expo *cur;
	struct MHD_Response *page, *not_found, *not_allowed, *unauthorized, *busy;
};

/* ADDR:PORT, [ADDR]:PORT for IPv6, into buf */
const char *addr_text(const struct sockaddr_storage *ss, char *buf, size_t size);
/* Whether ss is reached from this machine alone (127.0.0.0/8, ::1, ::ffff:127.0.0.0/104) */
bool loopback(const struct sockaddr_storage *ss);
/* The listening socket, bound at once; -1 with err set on a failure */
int serve_listen(const struct sockaddr_storage *ss, char *err, size_t errlen);
/* The server started on its own thread over fd; NULL with err set */
struct MHD_Daemon *serve_start(struct server *sv, int fd, char *err, size_t errlen);
/* Stops d (NULL: not started) and frees what sv holds */
void serve_stop(struct server *sv, struct MHD_Daemon *d);
/* The refresh's exposition in both formats, in place of the last one */
void publish(struct server *sv, struct tbuf *b, const struct model *m, struct view_info *vi,
	     double refresh_s);

#endif
