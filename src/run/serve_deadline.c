#include "serve_deadline.h"

#include <pthread.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "fds.h"
#include "util.h"

/* A connection open: its socket, its client's address, and when its current request
 * began */
struct conn {
	int fd;
	struct sockaddr_storage addr;
	double since;
	bool cut;	/* shut down, its close not yet notified */
	bool answering; /* its request read whole, its answer under way */
	struct conn *prev, *next;
};

struct deadline {
	pthread_mutex_t lock; /* the list, and stop */
	pthread_cond_t wake;
	pthread_t thread;
	struct conn *head;
	double secs;
	unsigned max_conns, max_per_addr; /* connections not shut down, at once */
	unsigned shed;			  /* those shut down, not yet closed, beside them */
	bool stop;
};

/* The same client address (the port aside) */
static bool same_addr(const struct sockaddr_storage *a, const struct sockaddr *b)
{
	if (a->ss_family != b->sa_family)
		return false;
	if (b->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)(const void *)b)->sin_addr.s_addr;
	if (b->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)(const void *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return true;
}

/* Shut down (not closed: libmicrohttpd sees the end and closes it) */
static void cut(struct conn *k)
{
	shutdown(k->fd, SHUT_RDWR);
	k->cut = true;
}

/* A connection that may be shed: open, not shut down, its request not read whole */
static bool sheddable(const struct conn *k)
{
	return !k->cut && !k->answering && k->fd >= 0;
}

enum MHD_Result deadline_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
	struct deadline *dl = cls;
	unsigned all = 0, same = 0;
	struct conn *oldest = NULL, *oldest_same = NULL;
	enum MHD_Result ok = MHD_YES;
	(void)addrlen;

	pthread_mutex_lock(&dl->lock);
	for (struct conn *k = dl->head; k; k = k->next) {
		if (k->cut)
			continue;
		bool here = same_addr(&k->addr, addr);
		all++;
		same += here;
		if (!sheddable(k))
			continue;
		if (!oldest || k->since <= oldest->since)
			oldest = k;
		if (here && (!oldest_same || k->since <= oldest_same->since))
			oldest_same = k;
	}
	if (same >= dl->max_per_addr) {
		if (oldest_same) {
			cut(oldest_same);
			all--;
		} else {
			ok = MHD_NO;
		}
	}
	if (ok == MHD_YES && all >= dl->max_conns) {
		if (oldest && !oldest->cut)
			cut(oldest);
		else
			ok = MHD_NO;
	}
	pthread_mutex_unlock(&dl->lock);
	return ok;
}

void deadline_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		     enum MHD_ConnectionNotificationCode code)
{
	struct deadline *dl = cls;
	struct conn *k = *socket_context;

	pthread_mutex_lock(&dl->lock);
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		const union MHD_ConnectionInfo *ca =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		k = xcalloc(1, sizeof(*k));
		k->fd = ci ? ci->connect_fd : -1;
		if (ca && ca->client_addr)
			memcpy(&k->addr, ca->client_addr,
			       ca->client_addr->sa_family == AF_INET6  ? sizeof(struct sockaddr_in6)
			       : ca->client_addr->sa_family == AF_INET ? sizeof(struct sockaddr_in)
								       : sizeof(struct sockaddr));
		k->since = clock_mono();
		k->next = dl->head;
		if (dl->head)
			dl->head->prev = k;
		dl->head = k;
		*socket_context = k;
	} else if (k) { /* closed: before libmicrohttpd closes its socket */
		if (k->prev)
			k->prev->next = k->next;
		else
			dl->head = k->next;
		if (k->next)
			k->next->prev = k->prev;
		free(k);
		*socket_context = NULL;
	}
	pthread_mutex_unlock(&dl->lock);
}

void deadline_completed(void *cls, struct MHD_Connection *c, void **req_cls,
			enum MHD_RequestTerminationCode toe)
{
	struct deadline *dl = cls;
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	(void)req_cls, (void)toe;

	pthread_mutex_lock(&dl->lock);
	if (ci && ci->socket_context) { /* its next request has the deadline anew */
		struct conn *k = ci->socket_context;
		k->since = clock_mono();
		k->answering = false;
	}
	pthread_mutex_unlock(&dl->lock);
}

void deadline_answering(struct deadline *dl, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	pthread_mutex_lock(&dl->lock);
	if (ci && ci->socket_context)
		((struct conn *)ci->socket_context)->answering = true;
	pthread_mutex_unlock(&dl->lock);
}

/* Every second: a connection past the deadline is shut down (not closed: its socket
 * stays libmicrohttpd's, which sees the end and closes it) */
static void *watch(void *arg)
{
	struct deadline *dl = arg;

	pthread_mutex_lock(&dl->lock);
	while (!dl->stop) {
		double now = clock_mono();
		for (struct conn *k = dl->head; k; k = k->next)
			if (!k->cut && k->fd >= 0 && now - k->since > dl->secs)
				cut(k);
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		t.tv_sec += 1;
		pthread_cond_timedwait(&dl->wake, &dl->lock, &t);
	}
	pthread_mutex_unlock(&dl->lock);
	return NULL;
}

/* The descriptors of libmicrohttpd's own, and the connections shut down but not yet
 * closed that may be open beside the others (past which libmicrohttpd accepts no more
 * until it has closed some) */
#define FD_MHD	 2
#define SHED_MAX 16

/* The connections at once, from one address and shed beside them that the descriptors
 * leave (RLIMIT_NOFILE less those open, FDS_RESERVE and libmicrohttpd's), max_conns and
 * max_per_addr at most: a flood of clients never takes those a refresh needs. One at
 * least, to be answered at all. */
static void limits(struct deadline *dl, unsigned max_conns, unsigned max_per_addr)
{
	long room = fds_free();

	dl->max_conns = max_conns ? max_conns : 1;
	dl->max_per_addr = max_per_addr ? max_per_addr : 1;
	dl->shed = SHED_MAX;
	if (room < 0)
		return;
	room -= FDS_RESERVE + FD_MHD;
	long shed = room > 0 ? room / 16 + 1 : 1;
	dl->shed = shed < SHED_MAX ? (unsigned)shed : SHED_MAX;
	room -= dl->shed;
	if (room >= (long)dl->max_conns)
		return;
	dl->max_conns = room < 1 ? 1 : (unsigned)room;
	/* one address the same share of them */
	unsigned long per =
		((unsigned long)dl->max_conns * dl->max_per_addr + max_conns - 1) / max_conns;
	dl->max_per_addr = per < dl->max_per_addr ? (unsigned)per : dl->max_per_addr;
}

unsigned deadline_capacity(const struct deadline *dl)
{
	return dl->max_conns + dl->shed;
}

struct deadline *deadline_start(double secs, unsigned max_conns, unsigned max_per_addr)
{
	struct deadline *dl = xcalloc(1, sizeof(*dl));
	pthread_condattr_t ca;

	pthread_mutex_init(&dl->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&dl->wake, &ca);
	pthread_condattr_destroy(&ca);
	dl->secs = secs;
	limits(dl, max_conns ? max_conns : 1, max_per_addr);
	if (pthread_create(&dl->thread, NULL, watch, dl)) {
		pthread_cond_destroy(&dl->wake);
		pthread_mutex_destroy(&dl->lock);
		free(dl);
		return NULL;
	}
	return dl;
}

void deadline_stop(struct deadline *dl)
{
	if (!dl)
		return;
	pthread_mutex_lock(&dl->lock);
	dl->stop = true;
	pthread_cond_signal(&dl->wake);
	pthread_mutex_unlock(&dl->lock);
	pthread_join(dl->thread, NULL);
	while (dl->head) {
		struct conn *k = dl->head;
		dl->head = k->next;
		free(k);
	}
	pthread_cond_destroy(&dl->wake);
	pthread_mutex_destroy(&dl->lock);
	free(dl);
}
