#include "serve_deadline.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "util.h"

/* A connection open: its socket, and when its current request began */
struct conn {
	int fd;
	double since;
	bool cut; /* shut down, its close not yet notified */
	struct conn *prev, *next;
};

struct deadline {
	pthread_mutex_t lock; /* the list, and stop */
	pthread_cond_t wake;
	pthread_t thread;
	struct conn *head;
	double secs;
	bool stop;
};

void deadline_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		     enum MHD_ConnectionNotificationCode code)
{
	struct deadline *dl = cls;
	struct conn *k = *socket_context;

	pthread_mutex_lock(&dl->lock);
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		k = xcalloc(1, sizeof(*k));
		k->fd = ci ? ci->connect_fd : -1;
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
	if (ci && ci->socket_context) /* its next request has the deadline anew */
		((struct conn *)ci->socket_context)->since = clock_mono();
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
			if (!k->cut && k->fd >= 0 && now - k->since > dl->secs) {
				shutdown(k->fd, SHUT_RDWR);
				k->cut = true;
			}
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		t.tv_sec += 1;
		pthread_cond_timedwait(&dl->wake, &dl->lock, &t);
	}
	pthread_mutex_unlock(&dl->lock);
	return NULL;
}

struct deadline *deadline_start(double secs)
{
	struct deadline *dl = xcalloc(1, sizeof(*dl));
	pthread_condattr_t ca;

	pthread_mutex_init(&dl->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&dl->wake, &ca);
	pthread_condattr_destroy(&ca);
	dl->secs = secs;
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
